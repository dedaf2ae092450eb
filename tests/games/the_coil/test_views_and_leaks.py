"""Views and feeds: hands, strategy cards, claimed regions' faces and deck
orders stay hidden from other seats; counts and dice are public."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from domain.engine import EVERYONE
from domain.games.the_coil import RULES
from domain.games.the_coil.data import CARDS, STRATEGIES, card_json
from domain.games.the_coil.messages import (
    CardsDrawn, DeckShuffled, RegionFlipped, RegionsClaimed, Scouted, StrategyChosen, StrategyDeckShuffled,
    StrategyDrawn, Strategized, TacticPlayed,
)
from domain.playout import start, step
from tests.games.told import seen

ALL_CARDS = sorted(CARDS)
ALL_STRATEGIES = sorted(STRATEGIES)


def _dump(data) -> str:
    return json.dumps(data, sort_keys=True)


def _positions(players: int, seed: int, every: int = 7):
    """Positions along a random game, with the events so far."""
    playout = start(RULES, {"players": players}, seed)
    rng = random.Random(seed)
    while not playout.over:
        if playout.steps % every == 0:
            yield playout.state, list(playout.events)
        step(playout, rng, check=False)


def _rerandomise(state, viewer: str | None, rng: random.Random):
    """Everything the viewer may not know, drawn again (counts kept)."""
    def cards(n):
        return tuple(rng.choice(ALL_CARDS) for _ in range(n))

    hands, strategies, claimed, chosen = list(state.hands), list(state.strategies), list(state.claimed), list(state.chosen)
    for i, seat in enumerate(state.seats):
        if seat == viewer:
            continue
        hands[i] = cards(len(hands[i]))
        strategies[i] = tuple(rng.choice(ALL_STRATEGIES) for _ in strategies[i])
        claimed[i] = tuple((rng.choice(ALL_CARDS), area) for _, area in claimed[i])
        if chosen[i] is not None:
            chosen[i] = rng.choice(strategies[i])
    return replace(
        state, hands=tuple(hands), strategies=tuple(strategies), claimed=tuple(claimed), chosen=tuple(chosen),
        decks=tuple(cards(len(deck)) for deck in state.decks),
        strategy_deck=tuple(rng.choice(ALL_STRATEGIES) for _ in state.strategy_deck),
    )


def _rerandomise_event(event, viewer: str | None, rng: random.Random):
    """The event with every fact hidden from the viewer drawn again."""
    def card():
        return rng.choice(ALL_CARDS)
    mine = getattr(event, "seat", None) == viewer
    if isinstance(event, DeckShuffled):
        return replace(event, cards=tuple(card() for _ in event.cards))
    if isinstance(event, StrategyDeckShuffled):
        return replace(event, cards=tuple(rng.choice(ALL_STRATEGIES) for _ in event.cards))
    if mine:
        return event
    if isinstance(event, (StrategyDrawn, Strategized, StrategyChosen)):
        return replace(event, card=rng.choice(ALL_STRATEGIES))
    if isinstance(event, CardsDrawn):
        return replace(event, cards=tuple(card() for _ in event.cards))
    if isinstance(event, Scouted):
        return replace(event, card=card())
    if isinstance(event, RegionsClaimed):
        return replace(event, regions=tuple((card(), area) for _, area in event.regions))
    return event


def test_leak_views_and_feeds_do_not_depend_on_what_a_seat_may_not_know():
    rng = random.Random(99)
    checked = 0
    phases = set()
    for players in (2, 3, 4, 5):
        for seed in range(3):
            for state, events in _positions(players, seed, every=5):
                phases.add(state.phase)
                for viewer in (*state.seats, None):
                    other = _rerandomise(state, viewer, rng)
                    assert _dump(RULES.view(state, viewer)) == _dump(RULES.view(other, viewer))
                    checked += 1
                for event in events[-12:]:
                    for viewer in (*state.seats, None):
                        twin = _rerandomise_event(event, viewer, rng)
                        assert _dump(seen(RULES, event, viewer)) == _dump(seen(RULES, twin, viewer)), event
    assert checked > 500
    assert phases >= {"nations", "expansion", "muster", "escalation", "battle", "conquest", "choose"}


def test_a_seat_sees_its_own_hand_strategy_cards_and_claimed_regions_others_only_counts(b):
    state = b.seat(b.start(), "p2", hands=("dedran-01",), claimed=(("celestos-01", "east"),))
    mine = RULES.view(state, "p2")["seats"][1]
    theirs = RULES.view(state, "p1")["seats"][1]
    assert [c["id"] for c in mine["hand"]] == ["dedran-01"] and mine["strategies"][0]["id"] == "westward"
    assert mine["claimed"][0]["card"]["id"] == "celestos-01"
    assert theirs["hand"] is None and theirs["strategies"] is None and theirs["claimed"] is None
    assert theirs["hand_count"] == 1 and theirs["strategy_count"] == 1 and theirs["claimed_counts"]["east"] == 1
    spectator = RULES.view(state, None)["seats"][1]
    assert spectator["hand"] is None


def test_claimed_regions_and_the_chosen_strategy_are_turned_face_up_for_everyone_at_the_end(b):
    state = b.seat(b.start(), "p2", claimed=(("celestos-01", "east"),), strategies=("westward", "raiders"),
                   hands=("dedran-03",))
    choosing = replace(b.seat(state, "p2", chosen="raiders"), phase="choose", pending=("p1",))
    theirs = RULES.view(choosing, "p1")["seats"][1]
    assert theirs["claimed"] is None and theirs["chosen_strategy"] is None and RULES.view(choosing, "p1")["scores"] is None
    over = replace(choosing, phase="over", pending=())
    for viewer in ("p1", "p3", None):
        view = RULES.view(over, viewer)
        theirs = view["seats"][1]
        assert theirs["claimed"] == [{"area": "east", "card": card_json("celestos-01")}]
        assert theirs["chosen_strategy"] == "raiders"
        assert theirs["hand"] is None and theirs["strategies"] is None  # the other card is discarded unseen
        assert [s["strategy"]["id"] for s in view["scores"]] == ["bastion", "raiders", "eastward"]


def test_every_nation_card_and_its_special_ability_is_public(b):
    view = RULES.view(b.start(("vargree", "dedran", "shakoom"), strategies=None), None)
    assert [s["nation"]["id"] for s in view["seats"]] == ["vargree", "dedran", "shakoom"]
    assert all(s["nation"]["ability_text"] and s["nation"]["ability_timing"] for s in view["seats"])
    assert view["northern_die"] == view["round"] == 1


def test_dice_the_coil_discards_and_counts_are_public(b):
    state = b.battle(b.seat(b.start(), "p1", reserves=(2, 5)), coil=[("dedran-02", (("p3", 4),))])
    state = replace(state, discards=state.discards[:1] + (("dedran-05",),) + state.discards[2:])
    view = RULES.view(state, "p2")
    assert view["seats"][0]["reserves"] == [2, 5] and view["seats"][0]["population"] == 5
    assert view["coil"][0]["dice"] == [{"seat": "p3", "value": 4}]
    assert [c["id"] for c in view["decks"][1]["discard"]] == ["dedran-05"]
    assert view["decks"][0]["count"] == 14 and "cards" not in view["decks"][0]


def test_feeds_hide_scouted_cards_but_show_the_flipped_region_and_played_tactics():
    scouted = Scouted("p1", "dedran", "dedran-01", "dedran-02")
    assert RULES.visible(scouted, "p2")["card"] is None and RULES.visible(scouted, "p2")["flipped"] == "dedran-02"
    assert RULES.visible(scouted, "p1")["card"] == "dedran-01"
    assert RULES.visible(RegionFlipped("p1", "celestos", "celestos-01"), "p2")["card"] == "celestos-01"
    played = TacticPlayed("p1", "celestos-01", (2,), None, (3,))
    assert RULES.visible(played, "p2")["card"] == "celestos-01"
    claimed = RegionsClaimed("p1", (("dedran-01", "west"), ("dedran-02", "hand")))
    assert RULES.visible(claimed, "p2")["regions"] == [[None, "west"], [None, "hand"]]
    assert RULES.visible(DeckShuffled("celestos", ("celestos-01",)), "p1")["cards"] == [None]
    assert RULES.visible(DeckShuffled("celestos", ("celestos-01",)), EVERYONE)["cards"] == ["celestos-01"]


def test_everyone_sees_all_hands_and_the_scores_after_the_end():
    playout = start(RULES, {"players": 3}, 5)
    rng = random.Random(5)
    while not playout.over:
        step(playout, rng, check=False)
    view = RULES.view(playout.state, EVERYONE)
    assert all(seat["hand"] is not None for seat in view["seats"])
    assert len(view["scores"]) == 3 and all(len(s["categories"]) == 8 for s in view["scores"])


def test_scouted_and_flipped_regions_lie_next_to_the_other_regions_of_their_nation(b):
    state = b.battle(b.start(), coil=[("dedran-01", ()), ("celestos-01", ()), ("dedran-02", ())])
    coil = RULES.view(state, "p1")["coil"]
    assert [(r["card"]["id"], r["position"]) for r in coil] == [
        ("celestos-01", 0), ("dedran-01", 0), ("dedran-02", 1),
    ]
    assert coil[2]["x"] > coil[1]["x"] and coil[2]["y"] == coil[1]["y"]


def test_every_view_of_every_seat_count_matches_its_declaration_at_every_step():
    from collections import Counter

    phases = Counter()
    for players in (2, 3, 4, 5):
        for nations in ("choose", "random"):
            playout = start(RULES, {"players": players, "nations": nations}, players)
            state = None
            for event in playout.events:  # the deal, event by event, too
                state = RULES.evolve(state, event)
                assert RULES.view_shape.problems(RULES.view(state, None)) == []
            rng = random.Random(players)
            while True:
                phases[playout.state.phase] += 1
                for viewer in (*playout.seats, None, EVERYONE):
                    assert RULES.view_shape.problems(RULES.view(playout.state, viewer)) == [], (players, viewer)
                if playout.over:
                    break
                step(playout, rng, check=False)
    assert set(phases) == {"nations", "expansion", "muster", "escalation", "battle", "conquest", "choose", "over"}


def test_every_field_of_the_view_declaration_says_what_it_is():
    assert RULES.view_shape.undescribed() == []
