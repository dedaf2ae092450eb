"""The engine contract: random playouts with replay checks, exact legal commands,
timeouts, and a leak test for the hidden deck orders."""

import json
import random
from dataclasses import replace


from domain.engine import EVERYONE, rng_for
from domain.games.runebound import RULES, data
from domain.games.runebound import messages as m
from domain.playout import check_step, start, step
from tests.games.told import seen as told


def positions(seeds, players=3, every=7):
    """States (with their events) met during seeded random playouts."""
    for seed in seeds:
        playout = start(RULES, {"players": players}, seed)
        rng = random.Random(seed)
        while not playout.over:
            if playout.steps % every == 0:
                yield playout.state, list(playout.events)
            step(playout, rng, check=False)
        yield playout.state, list(playout.events)


def test_many_seeded_random_games_end_and_most_reach_the_endgame():
    """After every step the events, decoded from their JSON, are replayed onto a twin
    state that must equal the game's; every 60 steps the whole log is replayed too."""
    endgames = 0
    games = 60
    for seed in range(games):
        players = 2 + seed % 5
        playout = start(RULES, {"players": players}, seed)
        rng = random.Random(seed)
        twin = RULES.replay(RULES.decode_event(json.loads(json.dumps(e.to_json()))) for e in playout.events)
        while not playout.over:
            assert playout.steps < 5000, "the game did not end"
            before = len(playout.events)
            step(playout, rng, check=False)
            decoded = [RULES.decode_event(json.loads(json.dumps(e.to_json()))) for e in playout.events[before:]]
            assert decoded == playout.events[before:]
            twin = RULES.replay(decoded, twin)
            assert twin == playout.state
            if playout.steps % 60 == 0:
                check_step(playout, playout.events[before:])
        check_step(playout, [])
        endgames += playout.state.endgame is not None
        assert (playout.state.winner is not None) == (playout.state.endgame is not None)
        assert len(RULES.score(playout.state)) == players
    assert endgames >= games * 0.7, f"only {endgames} of {games} games reached the Endgame"


def universe():
    commands = [m.ChooseHero(name) for name in data.HEROES] + [m.ChooseHero("Conan")]
    commands += [m.Adventure(), m.SkipAdventure(), m.Attack(), m.Defend(), m.Retreat(), m.Heal(), m.EndTurn(),
                m.FinishPlacing(), m.MoveTo("Nowhere"), m.Buy("Excalibur"), m.GainExperience("luck"), m.PlaceVassal("")]
    commands += [m.MoveTo(place) for place in data.PLACES]
    commands += [m.Buy(card) for card in data.MARKET] + [m.UseItem(card) for card in data.MARKET]
    commands += [m.GainExperience(kind) for kind in data.EXPERIENCE_KINDS]
    commands += [m.PlaceVassal(vassal) for vassal in data.VASSALS]
    return commands


def test_a_timeout_gives_a_legal_command_and_games_of_timeouts_end():
    for seed in range(3):
        playout = start(RULES, {"players": 3, "doom_rounds": 10}, seed)
        while not playout.over:
            (seat,) = RULES.to_act(playout.state)
            command = RULES.on_timeout(playout.state, seat, random.Random(0))
            assert command in RULES.legal_commands(playout.state, seat)
            events = RULES.decide(playout.state, seat, command, rng_for(playout.seed, len(playout.events)))
            playout.events += events
            playout.state = RULES.replay(events, playout.state)
            playout.steps += 1
            assert playout.steps < 2000


def test_timeouts_retreat_or_defend_in_combat():
    state = RULES.replay([m.CombatBegan(seat="p1", enemy="Goblin Scouts", opponent=None, allies=(), opponent_allies=()),
                          m.PhaseEnded(phase="ranged", round=2)],
                         RULES.replay(RULES.setup(("p1", "p2"), {"players": 2, "doom_rounds": 60, "choose_heroes": False}, random.Random(0))))
    assert RULES.on_timeout(state, "p1", random.Random(0)) == m.Retreat()
    state = RULES.replay([m.PhaseEnded(phase="melee", round=2)], state)
    assert RULES.on_timeout(state, "p1", random.Random(0)) == m.Defend()


def test_outside_combat_a_timeout_ends_the_turn_step_by_step():
    from tests.games.runebound.conftest import given
    timeout = lambda state: RULES.on_timeout(state, "p1", random.Random(0))  # noqa: E731
    state = given()
    assert timeout(state) == m.MoveTo("Tamalir")  # stays where he is
    assert timeout(given(m.Moved(seat="p1", place="Frostmere"))) == m.SkipAdventure()
    assert timeout(given(m.Moved(seat="p1", place="Tamalir"))) == m.EndTurn()
    crowned = given(*[m.EnemyDefeated(seat="p1", card=c, gold=0) for c in ("Knave of Secrets", "Knave of Hate",
                                                                            "Knave of Blood")],
                    m.Moved(seat="p1", place="Tamalir"))
    crowned = RULES.replay(RULES.decide(crowned, "p1", m.EndTurn(), random.Random(0)), crowned)
    assert crowned.step == "placing" and timeout(crowned) == m.FinishPlacing()


def shuffled_decks(decks, rng):
    return tuple((name, tuple(rng.sample(cards, len(cards)))) for name, cards in decks)


def test_the_referee_sees_the_deck_orders():
    events = RULES.setup(("p1", "p2"), {"players": 2, "doom_rounds": 60}, random.Random(0))
    assert RULES.visible(events[0], EVERYONE)["decks"]["red"][-1] == data.MARGATH
    assert RULES.visible(events[0], "p1")["decks"]["red"] == len(events[0].decks["red"])


def test_the_view_shows_the_table_and_who_is_to_act():
    state = RULES.replay(RULES.setup(("p1", "p2"), {"players": 2, "doom_rounds": 60, "choose_heroes": False}, random.Random(0)))
    view = RULES.view(state, "p2")
    assert view["to_act"] == ["p1"] and len(view["board"]["places"]) == 30
    assert view["decks"]["crown_blue"] == 16 and {h["seat"] for h in view["heroes"]} == {"p1", "p2"}


def test_the_board_and_cards_are_data_with_coordinates_a_frontend_can_draw():
    places = data.DATA["places"]
    assert 25 <= len(places) <= 35 and data.TOWNS and data.WILDS
    assert all(0 <= p["x"] <= 100 and 0 <= p["y"] <= 100 for p in places)
    assert len({(p["x"], p["y"]) for p in places}) == len(places)
    assert all(p.get("counter") in ("green", "yellow", "blue", "red") for p in places if p["kind"] == "wild")
    assert all(set(edge) <= set(data.PLACES) for edge in data.DATA["edges"])
    assert len(data.DISTANCE[data.START]) == len(places)  # the map is connected
    assert len(data.HEROES) == 8 and all(
        {"life", "stamina", "mind", "body", "spirit", "gold", *data.PHASES} <= set(hero) for hero in data.HEROES.values())
    assert {p["counter"] for p in places if p["kind"] == "wild"} == {"green", "yellow", "blue", "red"}


def test_the_view_declaration_describes_every_view():
    for state, _ in positions(range(2), players=3, every=31):
        for viewer in (*state.seats, None, EVERYONE):
            view = RULES.view(state, viewer)
            assert RULES.view_shape.problems(view) == []
            assert set(view) == set(RULES.view_shape.fields)


def test_a_challengers_secret_action_never_leaks_to_the_elder_king_or_others():
    seen = 0
    for state, events in positions(range(12), players=3, every=1):
        combat = state.combat
        if combat is None or combat.declared is None:
            continue
        seen += 1
        flipped = "defend" if combat.declared == "attack" else "attack"
        other = replace(state, combat=replace(combat, declared=flipped))
        declared = events[-1]
        assert isinstance(declared, m.ActionDeclared)
        twin = replace(declared, action=flipped)
        for viewer in (*state.seats, None):
            if viewer == combat.seat:
                continue
            assert json.dumps(RULES.view(state, viewer), sort_keys=True) == json.dumps(
                RULES.view(other, viewer), sort_keys=True)
            assert told(RULES, declared, viewer) == told(RULES, twin, viewer)
        assert RULES.view(state, combat.seat)["combat"]["declared"] == combat.declared
        if seen >= 10:
            break
    assert seen
