"""The Crown of the Elder Kings decks replace drawn Runebound encounters and events."""

import pytest

from domain.engine import IllegalCommand


def test_a_drawn_runebound_encounter_is_discarded_unresolved_and_replaced_by_a_crown_card_of_its_colour(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Frostmere"),
                     decks={"green": ("Lost Merchant", "Goblin Scouts"), "crown_green": ("Herald of the Crown",)})
    events, after = rb.act(state, "p1", m.Adventure())
    assert events == [
        m.CardDrawn(seat="p1", deck="green", card="Lost Merchant"),
        m.CardDiscarded(card="Lost Merchant"),
        m.CardDrawn(seat="p1", deck="crown_green", card="Herald of the Crown"),
        m.EncounterResolved(seat="p1", card="Herald of the Crown", dice=(), passed=True),
    ]
    assert after.hero("p1").gold == state.hero("p1").gold + 2  # the Herald's 2 gold, not the Merchant's
    assert after.hero("p1").counters == ("green",)


def test_a_drawn_runebound_event_is_discarded_but_still_replenishes_the_starburst_counters(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p2", place="Sunken Fen"), *rb.won("p2", "Goblin Scouts"),
                     m.Moved(seat="p1", place="Frostmere"),
                     decks={"green": ("Trade Winds",), "crown_green": ("Herald of the Crown",)})
    assert "Sunken Fen" not in state.counters
    events, after = rb.act(state, "p1", m.Adventure())
    assert events[:3] == [
        m.CardDrawn(seat="p1", deck="green", card="Trade Winds"),
        m.CountersReplenished(places=("Sunken Fen",)),
        m.CardDiscarded(card="Trade Winds"),
    ]
    assert events[3] == m.CardDrawn(seat="p1", deck="crown_green", card="Herald of the Crown")
    assert "Sunken Fen" in after.counters
    assert after.hero("p2").gold == state.hero("p2").gold  # Trade Winds was not resolved


def test_a_replacing_crown_event_is_resolved_like_any_event_and_replenishes_too(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p2", place="Sunken Fen"), *rb.won("p2", "Goblin Scouts"),
                     m.Moved(seat="p1", place="Frostmere"),
                     decks={"green": ("Lost Merchant",), "crown_green": ("Crown Tithe",)})
    events, after = rb.act(state, "p1", m.Adventure())
    assert events[-2:] == [m.CountersReplenished(places=("Sunken Fen",)), m.EventResolved(seat="p1", card="Crown Tithe")]
    assert [h.gold for h in after.heroes] == [h.gold + 1 for h in state.heroes]
    assert "Frostmere" in after.counters  # an event leaves the adventure counter on the map


def test_when_no_crown_card_of_that_colour_remains_the_player_draws_again_from_the_runebound_deck(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Greyhaven Pass"),
                     decks={"yellow": ("Ruined Library", "Royal Bounty", "Wight"), "crown_yellow": ()})
    events, after = rb.act(state, "p1", m.Adventure())
    assert events == [
        m.CardDrawn(seat="p1", deck="yellow", card="Ruined Library"),
        m.CardDiscarded(card="Ruined Library"),
        m.CardDrawn(seat="p1", deck="yellow", card="Royal Bounty"),
        m.CountersReplenished(places=()),
        m.CardDiscarded(card="Royal Bounty"),
        m.CardDrawn(seat="p1", deck="yellow", card="Wight"),
        m.CombatBegan(seat="p1", enemy="Wight", opponent=None, allies=(), opponent_allies=()),
    ]
    assert after.step == "combat"


def test_when_the_runebound_deck_runs_out_while_drawing_again_the_adventure_comes_to_nothing(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Greyhaven Pass"),
                     decks={"yellow": ("Ruined Library",), "crown_yellow": ()})
    events, after = rb.act(state, "p1", m.Adventure())
    assert events == [m.CardDrawn(seat="p1", deck="yellow", card="Ruined Library"),
                      m.CardDiscarded(card="Ruined Library"), m.AdventureSkipped(seat="p1")]
    assert after.step == "experience" and "Greyhaven Pass" in after.counters
    assert m.Adventure() not in rb.RULES.legal_commands(
        rb.RULES.replay([m.TurnBegan(seat="p1", round=2, movement=1), m.Moved(seat="p1", place="Greyhaven Pass")],
                        after), "p1")


def test_a_drawn_runebound_challenge_is_resolved_normally(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Frostmere"), decks={"green": ("Goblin Scouts",)})
    events, _ = rb.act(state, "p1", m.Adventure())
    assert events[-1] == m.CombatBegan(seat="p1", enemy="Goblin Scouts", opponent=None, allies=(), opponent_allies=())


def test_red_has_no_crown_deck_so_a_red_encounter_is_resolved_normally(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Wolfden"), decks={"red": ("Dragon Hoard", "Lord Margath")})
    events, after = rb.act(state, "p1", m.Adventure(), rb.Dice(10))
    assert events == [m.CardDrawn(seat="p1", deck="red", card="Dragon Hoard"),
                      m.EncounterResolved(seat="p1", card="Dragon Hoard", dice=(10, 10), passed=True)]
    assert after.hero("p1").gold == state.hero("p1").gold + 5


def test_the_crown_blue_deck_replaces_the_blue_deck(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Sunken Fen"), decks={"crown_blue": ("Knave of Secrets",)})
    events, _ = rb.act(state, "p1", m.Adventure())
    assert events[0] == m.CardDrawn(seat="p1", deck="crown_blue", card="Knave of Secrets")


def test_blue_adventures_cannot_be_attempted_once_the_crown_blue_deck_is_empty(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Sunken Fen"), decks={"crown_blue": ()})
    assert m.Adventure() not in rb.RULES.legal_commands(state, "p1")
    with pytest.raises(IllegalCommand, match="no adventure"):
        rb.act(state, "p1", m.Adventure())


def test_a_runebound_deck_that_runs_out_leaves_its_crown_deck_to_be_drawn_directly(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Frostmere"), decks={"green": (), "crown_green": ("Ritual Fragment",)})
    events, _ = rb.act(state, "p1", m.Adventure())
    assert events[0] == m.CardDrawn(seat="p1", deck="crown_green", card="Ritual Fragment")


def test_the_runebound_blue_cards_are_set_aside_and_each_crown_deck_lies_beside_its_colour(rb):
    import random
    started = rb.RULES.setup(("p1", "p2"), {"players": 2, "doom_rounds": 100}, random.Random(1))[0]
    assert set(started.decks) == {"green", "yellow", "red", "crown_green", "crown_yellow", "crown_blue"}
    assert all(rb.data.CARDS[card]["colour"] == "blue" for card in started.decks["crown_blue"])
    for colour in ("green", "yellow"):
        assert {rb.data.CARDS[c]["colour"] for c in started.decks[f"crown_{colour}"]} == {colour}
