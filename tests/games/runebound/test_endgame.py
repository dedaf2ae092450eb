"""The Endgame: the Elder King, the challengers' order, and the Elder King Confrontation."""

import random

import pytest

from domain.engine import IllegalCommand

SET = ("Knave of Secrets", "Knave of Blood", "Knave of Hate")


def crowned(rb, *given, king_cards=SET, players=4):
    """p1 completes a set and ends his turn: he is the Elder King, placing Vassals."""
    m = rb.m
    state = rb.given(*given, *rb.won("p1", *king_cards), m.Moved(seat="p1", place="Tamalir"), players=players)
    _, state = rb.act(state, "p1", m.EndTurn(), random.Random(0))
    return state


def confronting(rb, *given, place=(), players=4):
    m = rb.m
    state = crowned(rb, *given, players=players)
    for vassal in place:
        _, state = rb.act(state, "p1", m.PlaceVassal(vassal))
    _, state = rb.act(state, "p1", m.FinishPlacing())
    return state


def test_the_elder_king_discards_the_dragon_lords_he_has_collected(rb):
    m = rb.m
    state = rb.given(*rb.won("p1", "Knave of Secrets", "Dragon Lord Sarkis", "Knave of Hate", "Knight of Blood"),
                     m.Moved(seat="p1", place="Tamalir"))
    events, state = rb.act(state, "p1", m.EndTurn())
    assert events[2] == m.ElderKingCrowned(seat="p1", discarded=("Dragon Lord Sarkis",))
    assert state.hero("p1").dragon_lords == () and "Dragon Lord Sarkis" in state.discards
    assert state.endgame.king == "p1"


def test_the_elder_king_places_up_to_three_vassals_in_an_order_of_his_choice(rb):
    m = rb.m
    state = crowned(rb, king_cards=SET + ("Knight of Hate",))
    legal = rb.RULES.legal_commands(state, "p1")
    assert set(legal) == {m.PlaceVassal(v) for v in SET + ("Knight of Hate",)} | {m.FinishPlacing()}
    for vassal in ("Knight of Hate", "Knave of Hate", "Knave of Secrets"):
        _, state = rb.act(state, "p1", m.PlaceVassal(vassal))
    assert [v for v, _ in state.endgame.line] == ["Knight of Hate", "Knave of Hate", "Knave of Secrets"]
    assert rb.RULES.legal_commands(state, "p1") == [m.FinishPlacing()]
    with pytest.raises(IllegalCommand, match="three Vassals"):
        rb.act(state, "p1", m.PlaceVassal("Knave of Blood"))


def test_the_elder_king_may_place_no_vassal_at_all(rb):
    m = rb.m
    events, state = rb.act(crowned(rb), "p1", m.FinishPlacing())
    assert events[-1] == m.CombatBegan(seat=state.endgame.challengers[0], enemy=None, opponent="p1",
                                       allies=(), opponent_allies=())


def test_the_elder_king_cannot_place_a_vassal_he_does_not_hold(rb):
    with pytest.raises(IllegalCommand, match="not one of your Vassals"):
        rb.act(crowned(rb), "p1", rb.m.PlaceVassal("Duke of Hate"))


def test_challengers_confront_the_elder_king_in_order_of_hero_level(rb):
    state = crowned(rb, *rb.levels("p2", 1), *rb.levels("p3", 3), *rb.levels("p4", 2))
    assert state.endgame.challengers == ("p3", "p4", "p2")


def test_a_level_tie_is_broken_by_the_most_gold(rb):
    m = rb.m
    state = crowned(rb, m.EncounterResolved(seat="p3", card="Lost Merchant", dice=(), passed=True),
                    *rb.levels("p4", 1))
    assert state.endgame.challengers == ("p4", "p3", "p2")


def test_a_level_and_gold_tie_is_broken_by_the_most_unspent_adventure_counters(rb):
    m = rb.m
    state = crowned(rb, m.EncounterResolved(seat="p2", card="Lost Merchant", dice=(), passed=True),
                    m.Moved(seat="p3", place="Frostmere"),
                    m.EncounterResolved(seat="p3", card="Lost Merchant", dice=(), passed=True),
                    *rb.levels("p4", 1))
    assert state.hero("p2").gold == state.hero("p3").gold and state.hero("p3").counters == ("green",)
    assert state.endgame.challengers == ("p4", "p3", "p2")


def test_a_full_tie_is_broken_at_random_and_recorded(rb):
    m = rb.m
    orders = set()
    for seed in range(20):
        state = rb.given(*rb.won("p1", *SET), m.Moved(seat="p1", place="Tamalir"))
        events, _ = rb.act(state, "p1", m.EndTurn(), random.Random(seed))
        assert set(events[1].random_tiebreak) == {"p2", "p3", "p4"}
        orders.add(events[1].challengers)
    assert len(orders) > 1


def test_each_confrontation_begins_by_discarding_wounds_and_exhaustion_and_refreshing_all_cards(rb):
    m = rb.m
    state = crowned(rb, m.Bought(seat="p2", card="Hired Archer", gold=0),
                    m.Bought(seat="p2", card="Healing Draught", gold=0),
                    m.Suffered(seat="p2", wounds=3, exhaustion=2, ally="Hired Archer", ally_wounds=1),
                    m.ItemUsed(seat="p2", item="Healing Draught", healed=1),
                    m.Suffered(seat="p1", wounds=2, exhaustion=1), *rb.levels("p2", 1))
    hero = state.hero("p2")
    assert (hero.wounds, hero.exhaustion, hero.exhausted, hero.allies[0].wounds) == (2, 2, ("Healing Draught",), 1)
    events, state = rb.act(state, "p1", m.FinishPlacing())
    assert events[1] == m.ConfrontationBegan(seat="p2")
    for hero in state.heroes:
        assert (hero.wounds, hero.exhaustion, hero.exhausted) == (0, 0, ())
    assert state.hero("p2").allies[0].wounds == 0


def test_the_challenger_fights_the_vassals_in_order_then_the_elder_king_with_no_refresh_between(rb):
    m = rb.m
    state = confronting(rb, m.Bought(seat="p2", card="Hired Archer", gold=0), *rb.levels("p2", 1),
                        place=("Knave of Blood", "Knave of Hate"))
    assert state.combat.enemy == "Knave of Blood" and state.combat.allies == ("Hired Archer",)
    _, state = rb.act(state, "p2", m.Defend())
    assert state.hero("p2").exhaustion == 1
    log, state = rb.fight_until(state, "p2", lambda s: s.combat.enemy != "Knave of Blood", rb.Dice(10))
    assert m.VassalDefeated(seat="p2", vassal="Knave of Blood") in log
    assert not any(isinstance(e, (m.ConfrontationBegan, m.TurnBegan)) for e in log)
    assert state.combat.enemy == "Knave of Hate"
    assert state.combat.allies == ()  # the Archer is exhausted and nothing refreshes it
    assert state.hero("p2").exhaustion == 1
    _, state = rb.fight_until(state, "p2", lambda s: s.combat.enemy != "Knave of Hate", rb.Dice(10))
    assert (state.combat.enemy, state.combat.opponent) == (None, "p1")


def test_a_defeated_vassal_is_discarded(rb):
    m = rb.m
    state = confronting(rb, *rb.levels("p2", 1), place=("Knave of Blood",))
    _, state = rb.fight_until(state, "p2", lambda s: s.combat.enemy is None, rb.Dice(10))
    assert state.endgame.line == () and "Knave of Blood" in state.discards


def test_there_is_no_retreat_in_the_confrontation(rb):
    state = confronting(rb, *rb.levels("p2", 1), place=("Knave of Blood",))
    state = rb.RULES.replay([rb.m.PhaseEnded(phase="ranged", round=2)], state)
    assert rb.m.Retreat() not in rb.RULES.legal_commands(state, "p2")
    with pytest.raises(IllegalCommand, match="retreat"):
        rb.act(state, "p2", rb.m.Retreat())


def test_a_knocked_out_challenger_is_eliminated_and_the_next_highest_level_hero_confronts(rb):
    m = rb.m
    state = confronting(rb, *rb.levels("p2", 2), *rb.levels("p3", 1), place=("Knave of Blood",))
    log, state = rb.fight_until(state, "p2", lambda s: s.hero("p2").eliminated, rb.Dice(1))
    assert log[-3:] == [m.HeroEliminated(seat="p2"), m.ConfrontationBegan(seat="p3"),
                        m.CombatBegan(seat="p3", enemy="Knave of Blood", opponent=None, allies=(), opponent_allies=())]
    assert state.endgame.challengers == ("p3", "p4") and state.endgame.eliminated == ("p2",)


def test_defeating_the_elder_king_eliminates_him_and_the_challenger_becomes_the_new_elder_king(rb):
    m = rb.m
    state = confronting(rb, *rb.won("p2", "Dragon Lord Sarkis", "Knight of Blood"), *rb.levels("p2", 1))
    for _ in range(100):
        if state.hero("p1").eliminated:
            break
        _, state = rb.act(state, "p2", m.Attack(), rb.Dice(10, 10, 1, 1))
        events, state = rb.act(state, "p1", m.Attack(), rb.Dice(10, 10, 1, 1))
    assert events[-2:] == [m.HeroEliminated(seat="p1"), m.ElderKingCrowned(seat="p2", discarded=("Dragon Lord Sarkis",))]
    assert state.endgame.king == "p2" and state.endgame.challengers == ("p3", "p4")
    assert rb.RULES.legal_commands(state, "p2") == [m.PlaceVassal("Knight of Blood"), m.FinishPlacing()]


def test_in_the_final_combat_the_challenger_declares_secretly_then_the_elder_king_chooses(rb):
    m = rb.m
    state = confronting(rb, *rb.levels("p2", 1))
    assert rb.RULES.to_act(state) == {"p2"}
    events, state = rb.act(state, "p2", m.Defend())
    assert events == [m.ActionDeclared(seat="p2", action="defend")]
    assert rb.RULES.visible(events[0], "p1")["action"] is None
    assert rb.RULES.view(state, "p1")["combat"]["has_declared"] is True
    assert rb.RULES.to_act(state) == {"p1"}
    events, state = rb.act(state, "p1", m.Attack(), rb.Dice(10))
    assert m.Struck(seat="p1", phase="ranged", dice=(10, 10), total=21, needed=12, hit=True, damage=0) in events


def test_the_elder_kings_allies_fight_beside_him(rb):
    m = rb.m
    state = confronting(rb, m.Bought(seat="p1", card="Hired Archer", gold=0), *rb.levels("p2", 1))
    assert state.combat.opponent_allies == ("Hired Archer",)
    _, state = rb.act(state, "p2", m.Attack())
    events, state = rb.act(state, "p1", m.Attack(), rb.Dice(1))
    # Warden Hale's ranged attack 2 and Grundar's ranged 1 + the Archer's 2
    assert events[0].needed == 10 + 1 + 2 and events[1].total == 2 + 1 + 2


def test_the_last_elder_king_wins_when_all_other_players_are_eliminated(rb):
    m = rb.m
    state = confronting(rb, players=2)
    for _ in range(100):
        if state.result:
            break
        _, state = rb.act(state, "p2", m.Attack(), rb.Dice(1, 1, 10, 10))
        events, state = rb.act(state, "p1", m.Attack(), rb.Dice(1, 1, 10, 10))
    assert events[-2:] == [m.HeroEliminated(seat="p2"), m.GameWon(seat="p1")]
    assert rb.RULES.outcome(state) == "p1 wins as the last Elder King"
    assert [s.rank for s in rb.RULES.score(state)] == [1, 2]


def test_on_simultaneous_elimination_the_most_recent_elder_king_wins(rb):
    m = rb.m
    state = confronting(rb, players=2)
    state = rb.RULES.replay([m.Suffered(seat="p1", wounds=11, exhaustion=0),
                             m.Suffered(seat="p2", wounds=9, exhaustion=0)], state)
    _, state = rb.act(state, "p2", m.Attack())
    events, state = rb.act(state, "p1", m.Attack(), rb.Dice(10))
    assert events[-3:] == [m.HeroEliminated(seat="p2"), m.HeroEliminated(seat="p1"), m.GameWon(seat="p1")]
    assert state.winner == "p1"


def test_after_a_simultaneous_knock_out_the_next_challenger_takes_the_empty_throne(rb):
    m = rb.m
    state = confronting(rb, *rb.levels("p2", 1), players=3)
    state = rb.RULES.replay([m.Suffered(seat="p1", wounds=11, exhaustion=0),
                             m.Suffered(seat="p2", wounds=9, exhaustion=0)], state)
    _, state = rb.act(state, "p2", m.Attack())
    events, state = rb.act(state, "p1", m.Attack(), rb.Dice(10))
    # p3 is the only player left: the current Elder King wins at once.
    assert events[-2:] == [m.ElderKingCrowned(seat="p3", discarded=()), m.GameWon(seat="p3")]
    assert state.endgame.king == "p3" and state.endgame.challengers == () and state.winner == "p3"


def test_a_challenger_who_dethrones_the_elder_king_when_nobody_else_is_left_wins_at_once(rb):
    m = rb.m
    state = confronting(rb, *rb.won("p2", "Knight of Blood"), players=2)
    for _ in range(100):
        if state.result:
            break
        _, state = rb.act(state, "p2", m.Attack(), rb.Dice(10, 10, 1, 1))
        events, state = rb.act(state, "p1", m.Attack(), rb.Dice(10, 10, 1, 1))
    assert events[-3:] == [m.HeroEliminated(seat="p1"), m.ElderKingCrowned(seat="p2", discarded=()),
                           m.GameWon(seat="p2")]
    assert rb.RULES.outcome(state) == "p2 wins as the last Elder King" and rb.RULES.to_act(state) == frozenset()


def test_heroes_fighting_each_other_suffer_fatigue_at_the_end_of_each_round(rb):
    m = rb.m
    state = confronting(rb, *rb.levels("p2", 1))
    for _ in range(3):
        _, state = rb.act(state, "p2", m.Attack())
        events, state = rb.act(state, "p1", m.Attack(), rb.Dice(1))
    assert events[-3:] == [m.Suffered(seat="p2", wounds=0, exhaustion=1), m.Suffered(seat="p1", wounds=0, exhaustion=1),
                           m.PhaseEnded(phase="ranged", round=2)]


def test_standings_put_the_last_elder_king_first_then_the_others_by_how_long_they_lasted(rb):
    m = rb.m
    state = confronting(rb, *rb.levels("p2", 2), *rb.levels("p3", 1), players=3)
    state = rb.RULES.replay([m.HeroEliminated(seat="p2"), m.HeroEliminated(seat="p3"), m.GameWon(seat="p1")], state)
    assert [(s.seat, s.rank) for s in rb.RULES.score(state)] == [("p1", 1), ("p2", 3), ("p3", 2)]
