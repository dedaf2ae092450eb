"""Each Vassal's text applies in combat against that Vassal (p1 is Grundar Stonefist:
ranged 1/1, melee 5/3, magic 0/1, life 12, stamina 4)."""

import pytest

from domain.engine import IllegalCommand


def fighting(rb, vassal, phase="ranged", *more):
    m = rb.m
    events = [m.CombatBegan(seat="p1", enemy=vassal, opponent=None, allies=(), opponent_allies=())]
    if phase != "ranged":
        events.append(m.PhaseEnded(phase=phase, round=1))
    return rb.given(*events, *more)


def strike(events, rb):
    return next(e for e in events if isinstance(e, rb.m.Struck))


def test_knave_of_blood_makes_heroes_use_their_melee_damage_value_in_place_of_melee_attack(rb):
    events, _ = rb.act(fighting(rb, "Knave of Blood", "melee"), "p1", rb.m.Attack(), rb.Dice(5))
    assert strike(events, rb).total == 10 + 3


def test_duke_of_hate_makes_heroes_use_their_magic_values_for_all_combat_rolls(rb):
    for phase in ("ranged", "melee"):
        events, _ = rb.act(fighting(rb, "Duke of Hate", phase), "p1", rb.m.Attack(), rb.Dice(10))
        assert (strike(events, rb).total, strike(events, rb).damage) == (20 + 0, 1)


@pytest.mark.parametrize("vassal,phase", [("Knave of Secrets", "ranged"), ("Lady of Hate", "magic")])
def test_a_veiled_or_scornful_vassal_forbids_defending_in_its_phase(rb, vassal, phase):
    state = fighting(rb, vassal, phase)
    assert rb.m.Defend() not in rb.RULES.legal_commands(state, "p1")
    with pytest.raises(IllegalCommand, match="defend"):
        rb.act(state, "p1", rb.m.Defend())


def test_knight_of_secrets_gives_melee_attacks_minus_two(rb):
    events, _ = rb.act(fighting(rb, "Knight of Secrets", "melee"), "p1", rb.m.Attack(), rb.Dice(10))
    assert strike(events, rb).total == 20 + 5 - 2


def test_lady_of_secrets_exhausts_the_hero_at_the_start_of_every_round(rb):
    events, state = rb.act(fighting(rb, "Lady of Secrets"), "p1", rb.m.Attack(), rb.Dice(1))
    assert events[0] == rb.m.RoundBegan(seat="p1", enemy="Lady of Secrets")
    assert state.hero("p1").exhaustion == 1


def test_duke_of_secrets_has_no_ranged_phase(rb):
    state = fighting(rb, "Duke of Secrets")
    assert state.combat.phase == "melee"
    state = rb.RULES.replay([rb.m.PhaseEnded(phase="magic", round=1)], state)
    events, state = rb.act(state, "p1", rb.m.Attack(), rb.Dice(1))
    assert events[-1] == rb.m.PhaseEnded(phase="melee", round=2)


def test_knight_of_blood_heals_a_wound_at_the_start_of_every_round(rb):
    m = rb.m
    state = fighting(rb, "Knight of Blood", "ranged",
                     m.Struck(seat="p1", phase="ranged", dice=(9, 9), total=19, needed=13, hit=True, damage=2))
    assert state.combat.enemy_wounds == 2
    _, state = rb.act(state, "p1", m.Attack(), rb.Dice(1))
    assert state.combat.enemy_wounds == 1


def test_lady_of_blood_wounds_the_hero_each_time_he_hits_her(rb):
    events, state = rb.act(fighting(rb, "Lady of Blood"), "p1", rb.m.Attack(), rb.Dice(10))
    assert rb.m.Suffered(seat="p1", wounds=1, exhaustion=0) in events
    assert state.hero("p1").wounds == 1 + 1  # her price, and her ranged damage


def test_duke_of_blood_wounds_the_hero_at_the_start_of_every_round(rb):
    _, state = rb.act(fighting(rb, "Duke of Blood"), "p1", rb.m.Defend())
    assert (state.hero("p1").wounds, state.hero("p1").exhaustion) == (1, 1)


def test_knave_of_hate_makes_defending_cost_one_extra_exhaustion(rb):
    _, state = rb.act(fighting(rb, "Knave of Hate"), "p1", rb.m.Defend())
    assert state.hero("p1").exhaustion == 2


def test_knight_of_hate_lets_each_hit_deal_at_most_one_damage(rb):
    events, state = rb.act(fighting(rb, "Knight of Hate", "melee"), "p1", rb.m.Attack(), rb.Dice(10))
    assert strike(events, rb).damage == 1 and state.combat.enemy_wounds == 1


def test_a_vassals_text_applies_only_in_combat_against_that_vassal(rb):
    events, _ = rb.act(fighting(rb, "Goblin Scouts", "melee"), "p1", rb.m.Attack(), rb.Dice(5))
    assert strike(events, rb).total == 10 + 5
