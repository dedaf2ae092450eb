"""Events in words: every event type of every game, and of the engine, has a
sentence for a game log, made from the event as a viewer may see it."""

from __future__ import annotations


import pytest

from domain import games, words
from domain.engine import EVERYONE
from domain.playout import play
from domain.session import ENGINE_EVENTS

EVENT_TYPES = [(name, event.__name__) for name, rules in sorted(games.REGISTRY.items()) for event in rules.events]


@pytest.mark.parametrize(("game", "event_type"), EVENT_TYPES, ids=[f"{g}-{t}" for g, t in EVENT_TYPES])
def test_every_event_type_of_every_game_has_a_sentence(game, event_type):
    assert event_type in words.sentences_of(game) or event_type in words.ENGINE


@pytest.mark.parametrize("event_type", sorted(e.__name__ for e in ENGINE_EVENTS))
def test_every_engine_event_has_a_sentence(event_type):
    assert event_type in words.ENGINE


def test_a_game_has_no_sentence_for_an_event_type_it_does_not_have():
    for name, rules in games.REGISTRY.items():
        assert set(words.sentences_of(name)) == {event.__name__ for event in rules.events}, name


def _viewers(rules, playout) -> list:
    return [None, EVERYONE, *rules.seats(playout.options)]


@pytest.mark.parametrize("game", sorted(games.REGISTRY))
def test_every_event_of_whole_games_reads_as_a_sentence_for_every_viewer(game):
    rules = games.get(game)
    told_types = set()
    for seed in range(3):
        playout = play(rules, None, seed, check=False)
        for event in playout.events:
            for viewer in _viewers(rules, playout):
                visible = {"type": type(event).__name__, **rules.visible(event, viewer)}
                text = words.tell(game, visible, viewer)
                assert text and "None" not in text and "{" not in text, (visible, text)
                told_types.add(visible["type"])
    assert len(told_types) >= len(rules.events) // 2


def test_a_sentence_tells_what_the_viewer_sees_and_no_more():
    from domain.games.court_of_miracles import messages as m

    rules = games.get("court-of-miracles")
    placed = m.RoguePlaced("p1", "brute", "chatelet", 2, None, None)
    own = words.tell(rules.name, rules.visible(placed, "p1"), "p1")
    others = words.tell(rules.name, rules.visible(placed, "p2"), "p2")
    assert own == "p1 placed a Brute on spot 2 of Le Chatelet"
    assert others == "p1 placed a rogue on spot 2 of Le Chatelet" and "Brute" not in others


def test_the_issues_example_reads_as_the_issue_says():
    from domain.games.cronberg import messages as m

    rules = games.get("cronberg")
    drawn, laid = m.BuildingDrawn("p2", 12, (1, 2, 3, 4)), m.BuildingPlaced("p2", 12, ("T14", "T15"), False)
    assert [words.tell("cronberg", rules.visible(e, "p1"), "p1") for e in (drawn, laid)] == [
        "p2 drew building 12", "p2 laid building 12 on T14 and T15"]


def test_an_event_no_sentence_can_read_is_named_by_its_type_rather_than_refused():
    assert words.describe("cronberg", {"type": "BuildingPlaced"}, None) == "Building placed"
    assert words.describe("no-such-game", {"type": "SomethingHappened"}, None) == "Something happened"
    with pytest.raises(KeyError):
        words.tell("cronberg", {"type": "BuildingPlaced"}, None)


def test_the_engine_events_read_as_sentences():
    from domain import session as s

    told = {type(e).__name__: words.tell("cronberg", e.to_json()) for e in (
        s.SeatTaken("p1", "ada"), s.PlayersSeated({"p1": "ada", "p2": "bob"}), s.TurnTimedOut("p2", 7),
        s.GameOver("p1 wins with 12", "00"), s.GameScored(({"seat": "p1", "rank": 1, "score": 12, "detail": {}},)))}
    assert told == {
        "SeatTaken": "Player ada took seat p1",
        "PlayersSeated": "The game started with ada in seat p1 and bob in seat p2",
        "TurnTimedOut": "p2's time ran out; the rules acted for that seat",
        "GameOver": "The game is over: p1 wins with 12; its seed is published",
        "GameScored": "Final standings: 1. p1 (12)",
    }


def _rare_events():
    """Events the seeded playouts above seldom reach, built by hand."""
    from domain.games.coronation import messages as co
    from domain.games.runebound import messages as rb
    from domain.games.the_coil import messages as coil

    return [
        ("coronation", co.DetectivesHandedOver("detective-1", (("masa", "detective-2"),))),
        ("coronation", co.InformationGathered("masa", "revolver")),
        ("coronation", co.LindMovedExtraordinarily(21, True)),
        ("coronation", co.LindMovedExtraordinarily(None, False)),
        ("coronation", co.LindResigned()),
        ("coronation", co.LindWon("jewels")),
        ("coronation", co.TrapDefused("masa", 2, "locked-in", "lock-pick")),
        ("the-coil", coil.NeutralNationDrawn("dedran")),
        ("the-coil", coil.RegionsLeftPlay("dedran", ("dedran-01", "dedran-02"))),
        ("the-coil", coil.ReservesRerolled("p1", (1, 2, 6), 2)),
        ("runebound", rb.DoomFell(12, "no_adventure_left")),
    ]


@pytest.mark.parametrize(("game", "event"), _rare_events(), ids=lambda v: getattr(type(v), "__name__", v))
def test_events_the_playouts_seldom_reach_read_as_sentences_too(game, event):
    rules = games.get(game)
    for viewer in (None, EVERYONE, *rules.seats({})):
        text = words.tell(game, {"type": type(event).__name__, **rules.visible(event, viewer)}, viewer)
        assert text and "None" not in text, text
