"""Components and Setup."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domain.engine import IllegalCommand, resolve_options
from domain.games.the_coil import RULES
from domain.games.the_coil.data import CARDS, DICE_PER_NATION, NATIONS, STRATEGIES, TACTICS, cards_of
from domain.games.the_coil.messages import (
    CardsDrawn, ChooseNation, GameStarted, NationChosen, NeutralNationDrawn, PhaseBegan, RegionFlipped,
    StrategyDrawn,
)

REFERENCE = {  # the rulebook's Homeland Resource Distribution
    "celestos": (3, 6, 4, 4), "dedran": (4, 4, 5, 4), "ignixior": (3, 5, 6, 3),
    "shakoom": (4, 3, 4, 6), "vargree": (5, 4, 3, 5),
}


def _setup(players: int, seed: int = 0, choices=None):
    """Setup, then each seat chooses a nation (``choices``, or the first free one)."""
    options = resolve_options(RULES.options, {"players": players})
    events = RULES.setup(RULES.seats(options), options, random.Random(seed))
    state = RULES.replay(events)
    for i, seat in enumerate(RULES.seats(options)):
        nation = choices[i] if choices else RULES.legal_commands(state, seat)[0].nation
        new = RULES.decide(state, seat, ChooseNation(nation), random.Random(seed * 100 + i))
        events += new
        state = RULES.replay(new, state)
    return events, state


def test_setup_each_player_chooses_a_nation_card_in_seat_order():
    options = resolve_options(RULES.options, {"players": 3})
    events = RULES.setup(("p1", "p2", "p3"), options, random.Random(0))
    assert events == [GameStarted(("p1", "p2", "p3"), (), None), PhaseBegan("nations", ("p1", "p2", "p3"))]
    state = RULES.replay(events)
    assert RULES.to_act(state) == frozenset({"p1"})
    assert RULES.legal_commands(state, "p1") == [ChooseNation(n) for n in NATIONS]
    state = RULES.replay(RULES.decide(state, "p1", ChooseNation("shakoom"), random.Random(0)), state)
    assert RULES.to_act(state) == frozenset({"p2"}) and state.nation_of("p1") == "shakoom"
    assert ChooseNation("shakoom") not in RULES.legal_commands(state, "p2")
    with pytest.raises(IllegalCommand, match="chosen by p1"):
        RULES.decide(state, "p2", ChooseNation("shakoom"), random.Random(0))
    with pytest.raises(IllegalCommand, match="no nation"):
        RULES.decide(state, "p2", ChooseNation("atlantis"), random.Random(0))
    with pytest.raises(IllegalCommand, match="not your turn"):
        RULES.decide(state, "p3", ChooseNation("dedran"), random.Random(0))
    assert RULES.view(state, None)["nation_choice"]["seat"] == "p2"
    assert len(RULES.view(state, None)["nation_choice"]["available"]) == 4
    events, state = _setup(3, choices=("vargree", "celestos", "dedran"))
    assert state.nations == ("vargree", "celestos", "dedran") and state.phase == "expansion"
    assert [e.nation for e in events if isinstance(e, NationChosen)] == ["vargree", "celestos", "dedran"]


def test_setup_option_deals_nations_at_random():
    options = resolve_options(RULES.options, {"players": 3, "nations": "random"})
    events = RULES.setup(("p1", "p2", "p3"), options, random.Random(0))
    state = RULES.replay(events)
    assert len(set(state.nations)) == 3 and None not in state.nations and state.phase == "expansion"
    assert not any(isinstance(e, NationChosen) for e in events)
    from domain.playout import play
    playout = play(RULES, {"players": 2, "nations": "random"}, 3)
    assert playout.state.phase == "over" and playout.state.neutral not in playout.state.nations


def test_components_five_nations_seventy_homeland_cards_nine_strategy_cards_seven_dice_each():
    assert len(NATIONS) == 5 and len(CARDS) == 70 and len(STRATEGIES) == 9
    assert DICE_PER_NATION == 7
    assert sorted(n.initiative for n in NATIONS.values()) == [1, 2, 3, 4, 5]
    assert len({n.ability_timing for n in NATIONS.values()}) == 5


def test_homeland_resource_counts_match_the_reference_table():
    for nation, (basic, arcane, myth, food) in REFERENCE.items():
        cards = [CARDS[c] for c in cards_of(nation)]
        assert len(cards) == 14
        symbols = Counter(r for card in cards for r in card.resources)
        assert sum(1 for card in cards if not card.resources) == basic
        assert (symbols["arcane_technology"], symbols["mythstone"], symbols["food_caches"]) == (arcane, myth, food)
        assert all(3 <= card.slots <= 5 and card.tactic in TACTICS and len(card.resources) <= 2 for card in cards)


def test_strategy_cards_have_capacities_modifiers_one_to_three_and_an_objective():
    for card in STRATEGIES.values():
        assert all(1 <= m <= 3 for _, m in card.modifier)
        assert {a for a, _ in card.capacity} == {"west", "home", "east"}


def test_setup_deals_nations_decks_a_strategy_card_and_the_starting_tactics():
    events, state = _setup(4)
    assert len(set(state.nations)) == 4 and state.neutral is None
    for seat in state.seats:
        nation = state.nation_of(seat)
        assert len(state.strategies[state.index(seat)]) == 1
        assert len(state.hand(seat)) == NATIONS[nation].starting_hand
        assert all(CARDS[c].nation == nation for c in state.hand(seat))
        assert state.population(seat) == DICE_PER_NATION and state.reserve(seat) == ()
        assert len(state.deck(nation)) == 14 - NATIONS[nation].starting_hand and state.discard(nation) == ()
    assert len(state.strategy_deck) == 9 - 4
    assert sum(isinstance(e, StrategyDrawn) for e in events) == 4
    assert sum(isinstance(e, CardsDrawn) for e in events) == 4


def test_setup_places_the_northern_die_on_one_and_begins_the_expansion_phase():
    events, state = _setup(3)
    assert state.round == 1 and state.phase == "expansion"
    assert isinstance(events[-1], PhaseBegan) and state.to_act() == frozenset(state.seats)


def test_bordered_nations_western_is_on_the_left_eastern_on_the_right(b):
    state = b.start(("celestos", "dedran", "ignixior", "shakoom"))
    assert state.west_of("p1") == "dedran" and state.east_of("p1") == "shakoom"
    assert state.west_of("p4") == "celestos" and state.east_of("p4") == "ignixior"


def test_two_player_game_adds_a_random_neutral_third_nation_between_the_players():
    events, state = _setup(2, seed=3, choices=("dedran", "celestos"))
    neutral = state.neutral
    assert neutral is not None and neutral not in state.nations
    assert NeutralNationDrawn(neutral) in events
    assert {_setup(2, seed, ("dedran", "celestos"))[1].neutral for seed in range(12)} == {"ignixior", "shakoom", "vargree"}
    assert state.west_of("p2") == neutral and state.east_of("p1") == neutral
    assert state.west_of("p1") == state.nation_of("p2")
    flips = [e for e in events if isinstance(e, RegionFlipped) and e.seat is None]
    assert [e.nation for e in flips] == [neutral]
    assert len(state.strategies) == 2  # the neutral nation has no strategy card and no dice


def test_setup_is_different_for_different_seeds_and_the_same_for_the_same_seed():
    assert _setup(3, 1)[0] == _setup(3, 1)[0]
    assert _setup(3, 1)[0] != _setup(3, 2)[0]


def test_command_fields_use_only_the_types_the_api_can_describe():
    import typing
    allowed = {int, str, bool, tuple[int, ...], tuple[str, ...], int | None, str | None}
    for command in RULES.commands:
        for name, hint in typing.get_type_hints(command).items():
            assert hint in allowed, (command.__name__, name, hint)


def test_no_event_or_command_reuses_a_name_of_the_engines_events():
    from domain.session import ENGINE_EVENT_TYPES
    assert not ENGINE_EVENT_TYPES & (set(RULES.event_codec.classes) | set(RULES.command_codec.classes))


def test_the_view_declaration_describes_every_view():
    from domain.engine import EVERYONE
    from domain.playout import start, step
    playout = start(RULES, {"players": 2}, 7)
    rng = random.Random(7)
    while not playout.over:
        if playout.steps % 5 == 0:
            for viewer in (*playout.seats, None, EVERYONE):
                assert RULES.view_shape.problems(RULES.view(playout.state, viewer)) == []
        step(playout, rng, check=False)
    assert RULES.view_shape.problems(RULES.view(playout.state, EVERYONE)) == []
