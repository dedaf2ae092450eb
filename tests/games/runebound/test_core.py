"""The compact Runebound core (a stand-in for the base game): turn, movement, adventures,
combat, wounds and exhaustion, knock-outs, gold, experience, the market.
p1 is Grundar Stonefist (life 12, stamina 4, gold 3; ranged 1/1, melee 5/3, magic 0/1)."""

import random

import pytest

from domain.engine import IllegalCommand
from domain.games.runebound import data
from domain.games.runebound.state import replace


def in_combat(rb, enemy="Goblin Scouts", *more, phase="ranged"):
    m = rb.m
    events = [m.Moved(seat="p1", place="Frostmere"),
              m.CombatBegan(seat="p1", enemy=enemy, opponent=None, allies=(), opponent_allies=())]
    if phase != "ranged":
        events.append(m.PhaseEnded(phase=phase, round=1))
    return rb.given(*events, *more)


def test_setup_deals_heroes_shuffles_decks_with_margath_last_and_fills_every_wild_place():
    from domain.games.runebound import RULES
    events = RULES.setup(("p1", "p2", "p3"), {"players": 3, "doom_rounds": 60, "choose_heroes": False}, random.Random(3))
    started, turn = events
    assert len(set(started.heroes)) == 3 and started.decks["red"][-1] == data.MARGATH
    assert sorted(started.decks["crown_blue"]) == sorted(data.deck_cards("crown_blue"))
    assert started.counters == data.WILDS and turn.seat == "p1" and turn.movement in data.MOVEMENT_DIE


def test_players_choose_their_heroes_in_seat_order_before_the_first_turn(rb):
    m = rb.m
    state = rb.RULES.replay(rb.RULES.setup(("p1", "p2"), {"players": 2, "doom_rounds": 60}, random.Random(0)))
    assert state.step == "choosing" and rb.RULES.to_act(state) == {"p1"}
    assert len(rb.RULES.legal_commands(state, "p1")) == len(data.HEROES)
    _, state = rb.act(state, "p1", m.ChooseHero("Nightshade"))
    assert rb.RULES.to_act(state) == {"p2"} and m.ChooseHero("Nightshade") not in rb.RULES.legal_commands(state, "p2")
    with pytest.raises(IllegalCommand, match="already been chosen"):
        rb.act(state, "p2", m.ChooseHero("Nightshade"))
    events, state = rb.act(state, "p2", m.ChooseHero("Sir Aldric"))
    assert events == [m.HeroChosen(seat="p2", hero="Sir Aldric"), m.TurnBegan(seat="p1", round=1, movement=4)]
    assert [(h.seat, h.name, h.gold) for h in state.heroes] == [("p1", "Nightshade", 4), ("p2", "Sir Aldric", 3)]


def test_the_refresh_step_readies_exhausted_cards_and_discards_exhaustion(rb):
    m = rb.m
    state = rb.given(m.Bought(seat="p2", card="Healing Draught", gold=0), m.Suffered(seat="p2", wounds=2, exhaustion=3),
                     m.ItemUsed(seat="p2", item="Healing Draught", healed=2), m.TurnBegan(seat="p2", round=1, movement=2))
    hero = state.hero("p2")
    assert (hero.exhaustion, hero.exhausted, state.active, state.movement) == (0, (), "p2", 2)


def test_a_hero_moves_up_to_the_rolled_movement_along_the_roads(rb):
    m = rb.m
    state = rb.given()  # movement 4 from Tamalir
    legal = rb.RULES.legal_commands(state, "p1")
    assert m.MoveTo("Tamalir") in legal and m.MoveTo("Forge") in legal
    assert m.MoveTo("Vorakesh Spire") not in legal
    with pytest.raises(IllegalCommand, match="more than 4 steps"):
        rb.act(state, "p1", m.MoveTo("Vorakesh Spire"))
    with pytest.raises(IllegalCommand, match="no place"):
        rb.act(state, "p1", m.MoveTo("Atlantis"))


def test_a_hero_on_a_counter_may_adventure_and_in_a_town_goes_to_market(rb):
    m = rb.m
    _, state = rb.act(rb.given(), "p1", m.MoveTo("Frostmere"))
    assert state.step == "adventure" and set(rb.RULES.legal_commands(state, "p1")) == {m.Adventure(), m.SkipAdventure()}
    _, state = rb.act(rb.given(), "p1", m.MoveTo("Riverwatch"))
    assert state.step == "experience" and m.Buy("Short Bow") in rb.RULES.legal_commands(state, "p1")


def test_an_encounter_test_rolls_two_dice_plus_the_heroes_stat(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Frostmere"), decks={"green": (), "crown_green": ("Peasant Levy",)})
    events, after = rb.act(state, "p1", m.Adventure(), rb.Dice(3, 3))  # 6 + Body 5 < 12
    assert events[-1] == m.EncounterResolved(seat="p1", card="Peasant Levy", dice=(3, 3), passed=False)
    assert after.hero("p1").exhaustion == 1 and "Frostmere" in after.counters


def test_attacking_rolls_two_dice_plus_the_attack_value_and_a_hit_deals_the_damage_value(rb):
    m = rb.m
    events, state = rb.act(in_combat(rb, phase="melee"), "p1", m.Attack(), rb.Dice(4, 4))
    assert events[0] == m.Struck(seat="p1", phase="melee", dice=(4, 4), total=13, needed=12, hit=True, damage=3)
    assert events[-1] == m.EnemyDefeated(seat="p1", card="Goblin Scouts", gold=1)


def test_the_enemy_deals_its_damage_for_the_phase_unless_the_hero_defends(rb):
    m = rb.m
    events, state = rb.act(in_combat(rb), "p1", m.Attack(), rb.Dice(1))
    assert events[1] == m.Suffered(seat="p1", wounds=1, exhaustion=0) and state.combat.phase == "melee"
    events, state = rb.act(in_combat(rb), "p1", m.Defend())
    assert events[0] == m.Suffered(seat="p1", wounds=0, exhaustion=1)
    assert (state.hero("p1").wounds, state.hero("p1").exhaustion) == (0, 1)


def test_exhaustion_beyond_stamina_becomes_wounds(rb):
    state = in_combat(rb, "Goblin Scouts", rb.m.Suffered(seat="p1", wounds=0, exhaustion=4))
    _, state = rb.act(state, "p1", rb.m.Defend())
    assert (state.hero("p1").wounds, state.hero("p1").exhaustion) == (1, 4)


def test_a_round_has_ranged_melee_and_magic_phases(rb):
    m = rb.m
    state = in_combat(rb, "Hedge Troll")
    phases = []
    for _ in range(4):
        events, state = rb.act(state, "p1", m.Defend())
        phases.append((events[-1].phase, events[-1].round))
    assert phases == [("melee", 1), ("magic", 1), ("ranged", 2), ("melee", 2)]


def test_defeating_a_challenge_gives_its_gold_the_card_and_the_adventure_counter(rb):
    _, state = rb.act(in_combat(rb, phase="melee"), "p1", rb.m.Attack(), rb.Dice(10))
    hero = state.hero("p1")
    assert (hero.gold, hero.trophies, hero.counters) == (4, ("Goblin Scouts",), ("green",))
    assert "Frostmere" not in state.counters and state.step == "experience"


def test_a_hero_knocked_out_loses_half_his_gold_and_wakes_in_the_nearest_town(rb):
    m = rb.m
    state = in_combat(rb, "Goblin Scouts", m.Suffered(seat="p1", wounds=11, exhaustion=0))
    events, state = rb.act(state, "p1", m.Attack(), rb.Dice(1))
    assert events[-2:] == [m.CardReturned(deck="green", card="Goblin Scouts", position=len(data.deck_cards("green"))),
                           m.HeroKnockedOut(seat="p1", place="Tamalir", gold_lost=1)]
    hero = state.hero("p1")
    assert (hero.wounds, hero.place, hero.gold, state.step) == (0, "Tamalir", 2, "experience")


def test_a_hero_may_retreat_only_before_a_later_combat_round(rb):
    m = rb.m
    state = in_combat(rb)
    assert m.Retreat() not in rb.RULES.legal_commands(state, "p1")
    state = rb.RULES.replay([m.PhaseEnded(phase="ranged", round=2)], state)
    assert m.Retreat() in rb.RULES.legal_commands(state, "p1")
    events, state = rb.act(state, "p1", m.Retreat())
    assert isinstance(events[0], m.CardReturned) and state.combat is None and "Frostmere" in state.counters


def test_an_ally_fights_beside_the_hero_and_takes_the_wounds_of_its_phase(rb):
    m = rb.m
    state = rb.given(m.Bought(seat="p1", card="Hired Archer", gold=0), m.Moved(seat="p1", place="Frostmere"),
                     decks={"green": ("Hedge Troll",)})
    _, state = rb.act(state, "p1", m.Adventure())
    assert state.combat.allies == ("Hired Archer",)
    events, state = rb.act(state, "p1", m.Attack(), rb.Dice(1))
    assert events[0].total == 2 + 1 + 2
    assert events[1] == m.Suffered(seat="p1", wounds=0, exhaustion=0, ally="Hired Archer", ally_wounds=1)
    assert state.hero("p1").allies[0].wounds == 1


def test_an_ally_whose_wounds_reach_its_life_is_discarded_and_allies_are_exhausted_after_combat(rb):
    m = rb.m
    state = rb.given(m.Bought(seat="p1", card="Hired Archer", gold=0),
                     m.Bought(seat="p1", card="Sellsword", gold=0), m.Moved(seat="p1", place="Frostmere"),
                     m.CombatBegan(seat="p1", enemy="Wyvern", opponent=None, allies=("Hired Archer", "Sellsword"),
                                   opponent_allies=()),
                     m.Suffered(seat="p1", wounds=0, exhaustion=0, ally="Hired Archer", ally_wounds=2))
    events, state = rb.act(state, "p1", m.Attack(), rb.Dice(1))  # the Wyvern deals 2 in the ranged phase
    assert events[-2] == m.Suffered(seat="p1", wounds=1, exhaustion=0, ally="Hired Archer", ally_wounds=1)
    assert [a.name for a in state.hero("p1").allies] == ["Sellsword"] and state.hero("p1").wounds == 1
    state = rb.RULES.replay([m.PhaseEnded(phase="ranged", round=2)], state)
    _, state = rb.act(state, "p1", m.Retreat())
    assert state.hero("p1").exhausted == ("Sellsword",)


def test_healing_in_a_town_market_costs_gold_per_wound(rb):
    m = rb.m
    state = rb.given(m.Suffered(seat="p1", wounds=2, exhaustion=0), m.Moved(seat="p1", place="Tamalir"))
    events, state = rb.act(state, "p1", m.Heal())
    assert events == [m.Healed(seat="p1", wounds=1, gold=data.HEAL_COST)]
    assert (state.hero("p1").wounds, state.hero("p1").gold) == (1, 3 - data.HEAL_COST)


def test_the_market_sells_items_and_allies_only_in_towns_and_for_enough_gold(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Tamalir"))
    events, after = rb.act(state, "p1", m.Buy("Short Bow"))
    assert after.hero("p1").items == ("Short Bow",) and "Short Bow" not in after.market
    with pytest.raises(IllegalCommand, match="costs 5 gold"):
        rb.act(state, "p1", m.Buy("Sellsword"))
    with pytest.raises(IllegalCommand, match="town"):
        rb.act(rb.given(m.Moved(seat="p1", place="Barrow Downs"), m.AdventureSkipped(seat="p1")), "p1", m.Buy("Short Bow"))


def test_a_healing_item_is_exhausted_until_the_next_refresh(rb):
    m = rb.m
    state = rb.given(m.Bought(seat="p1", card="Healing Draught", gold=0), m.Suffered(seat="p1", wounds=3, exhaustion=0))
    events, state = rb.act(state, "p1", m.UseItem("Healing Draught"))
    assert events == [m.ItemUsed(seat="p1", item="Healing Draught", healed=2)]
    with pytest.raises(IllegalCommand, match="exhausted"):
        rb.act(state, "p1", m.UseItem("Healing Draught"))


@pytest.mark.parametrize("kind,stat,gain", [("mind", "mind", 2), ("body", "body", 2), ("spirit", "spirit", 2),
                                            ("stamina", "stamina", 2), ("life", "life", 1)])
def test_an_experience_counter_gives_two_mind_body_spirit_or_stamina_or_one_life(rb, kind, stat, gain):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Sunken Fen"), *rb.won("p1", "Knave of Hate"),
                     m.Moved(seat="p1", place="Frostmere"), *rb.won("p1", "Goblin Scouts"), m.AdventureSkipped(seat="p1"))
    assert state.hero("p1").xp == 4
    before = state.hero("p1").stat(stat)
    events, state = rb.act(state, "p1", m.GainExperience(kind))
    assert events == [m.ExperienceGained(seat="p1", kind=kind, spent=("blue", "green"))]
    assert state.hero("p1").stat(stat) == before + gain and state.hero("p1").level == 2


def test_experience_needs_enough_adventure_counters(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Tamalir"))
    with pytest.raises(IllegalCommand, match="costs 4 experience"):
        rb.act(state, "p1", m.GainExperience("body"))


def test_a_heros_level_is_one_plus_its_experience_counters(rb):
    assert rb.given(*rb.levels("p1", 3)).hero("p1").level == 4


def test_turns_pass_in_seat_order_and_a_new_round_begins_with_the_first_seat(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Tamalir"), players=2)
    events, state = rb.act(state, "p1", m.EndTurn())
    assert events[1] == m.TurnBegan(seat="p2", round=1, movement=4)
    state = rb.RULES.replay([m.Moved(seat="p2", place="Tamalir")], state)
    events, state = rb.act(state, "p2", m.EndTurn())
    assert events[1] == m.TurnBegan(seat="p1", round=2, movement=4)


def test_the_doom_limit_ends_a_game_without_an_elder_king(rb):
    m = rb.m
    state = rb.given(m.TurnBegan(seat="p2", round=60, movement=1), m.Moved(seat="p2", place="Tamalir"), players=2)
    events, state = rb.act(state, "p2", m.EndTurn())
    assert events[-1] == m.DoomFell(round=61)
    assert rb.RULES.outcome(state).endswith("nobody wins") and rb.RULES.to_act(state) == frozenset()


def test_the_doom_limit_is_an_option_that_is_off_by_default_as_the_rulebook_has_none(rb):
    m = rb.m
    option = next(o for o in rb.RULES.options if o.name == "doom_rounds")
    assert (option.default, option.minimum) == (0, 0)
    started = rb.RULES.setup(("p1", "p2"), {"players": 2, "choose_heroes": False}, random.Random(0))[0]
    assert started.doom_rounds == 0
    state = rb.RULES.replay([m.GameStarted(**{**started.__dict__, "heroes": ("Sir Aldric", "Nightshade")}),
                             m.TurnBegan(seat="p2", round=500, movement=1), m.Moved(seat="p2", place="Tamalir")])
    events, state = rb.act(state, "p2", m.EndTurn())
    assert events[-1] == m.TurnBegan(seat="p1", round=501, movement=4) and rb.RULES.outcome(state) is None


def test_when_no_adventure_is_left_anywhere_on_the_map_doom_falls_and_nobody_wins(rb):
    """Stand-in: the decks are finite; once no counter on the map can be attempted nothing
    can change any more (no card can be drawn, so no event refills a counter)."""
    m = rb.m
    blue_only = [place for place in data.WILDS if data.PLACES[place]["counter"] == "blue"]
    state = replace(rb.given(m.Moved(seat="p1", place="Tamalir"), players=2, decks={"crown_blue": ()}),
                    counters=tuple(blue_only))
    events, after = rb.act(state, "p1", m.EndTurn())
    assert events[-1] == m.DoomFell(round=1, reason="no_adventure_left")
    assert rb.RULES.outcome(after) == ("no adventure was left to attempt in round 1: "
                                       "Vorakesh raised Lord Margath and nobody wins")
    assert [s.rank for s in rb.RULES.score(after)] == [1, 1]
    # one card left in the Crown blue deck keeps the game going
    events, _ = rb.act(state.with_deck("crown_blue", ("Knave of Hate",)), "p1", m.EndTurn())
    assert events[-1] == m.TurnBegan(seat="p2", round=1, movement=4)


def test_a_seat_not_to_act_is_refused(rb):
    with pytest.raises(IllegalCommand, match="not your turn"):
        rb.act(rb.given(), "p2", rb.m.MoveTo("Tamalir"))


def test_a_command_of_another_step_is_refused(rb):
    with pytest.raises(IllegalCommand, match="move step"):
        rb.act(rb.given(), "p1", rb.m.EndTurn())
