"""Combat: rounds of ranged, melee and magic phases; in each the hero attacks or defends.

Against a card, the hero's hit is resolved first: an enemy it defeats deals no
damage in that phase. Between heroes (the Elder King's final combat) both sides
act in every phase (the challenger's choice stays secret until the Elder King has
chosen) and damage is simultaneous."""

from __future__ import annotations

from ...kit import Draft
from . import data
from . import messages as m
from .dice import dice
from .endgame import crown, next_combat, next_confrontation
from .evolve import first_phase
from .state import Combat, Hero, State


def vassal_effect(combat: Combat) -> dict:
    return data.CARDS[combat.enemy].get("effect", {}) if combat.enemy else {}


def hero_values(hero: Hero, phase: str, allies: tuple[str, ...], effect: dict) -> tuple[int, int]:
    """The hero's attack and damage values in a phase (items, allies and the enemy Vassal's text)."""
    if effect.get("kind") == "all_phases_use":
        phase = effect["phase"]
    attack, damage = hero.card[phase]
    for item in hero.items:
        bonus = data.MARKET[item].get("bonus")
        if bonus and bonus["phase"] == phase:
            attack, damage = attack + bonus["attack"], damage + bonus["damage"]
    alive = {ally.name for ally in hero.allies}
    for ally in allies:
        bonus = data.MARKET[ally]["bonus"]
        if ally in alive and bonus["phase"] == phase:
            attack, damage = attack + bonus["attack"], damage + bonus["damage"]
    if effect.get("kind") == "damage_as_attack" and effect["phase"] == phase:
        attack = damage
    if effect.get("kind") == "attack_penalty" and effect["phase"] == phase:
        attack -= effect["amount"]
    if effect.get("kind") == "damage_cap":
        damage = min(damage, effect["amount"])
    return attack, damage


def can_defend(combat: Combat) -> bool:
    effect = vassal_effect(combat)
    return not (effect.get("kind") == "no_defend" and effect["phase"] == combat.phase)


def can_retreat(state: State) -> bool:
    """Outside the Endgame, a hero may retreat before the second or a later combat round begins."""
    combat = state.combat
    return (state.endgame is None and combat.enemy is not None and combat.round > 1
            and combat.phase == first_phase(combat.enemy))


def defend_cost(combat: Combat) -> int:
    effect = vassal_effect(combat)
    return 1 + (effect["amount"] if effect.get("kind") == "defend_cost" else 0)


def next_phase(combat: Combat) -> tuple[str, int]:
    effect = vassal_effect(combat)
    skipped = effect["phase"] if effect.get("kind") == "skip_phase" else None
    phases = [p for p in data.PHASES if p != skipped]
    index = phases.index(combat.phase) if combat.phase in phases else -1
    if index + 1 < len(phases):
        return phases[index + 1], combat.round
    return phases[0], combat.round + 1


def damage_to(hero: Hero, combat_allies: tuple[str, ...], phase: str, wounds: int, seat: str) -> m.Suffered:
    """Wounds dealt to a hero in a phase; a fighting ally of that phase takes them first."""
    for ally in hero.allies:
        if ally.name in combat_allies and data.MARKET[ally.name]["bonus"]["phase"] == phase:
            absorbed = min(wounds, data.MARKET[ally.name]["life"] - ally.wounds)
            return m.Suffered(seat=seat, wounds=wounds - absorbed, exhaustion=0, ally=ally.name, ally_wounds=absorbed)
    return m.Suffered(seat=seat, wounds=wounds, exhaustion=0)


def knocked_out(state: State, seat: str) -> bool:
    hero = state.hero(seat)
    return hero.wounds >= hero.stat("life")


def return_card(draft: Draft, card: str) -> None:
    """An undefeated challenge goes back under its deck (above Margath, who stays the last red card)."""
    deck = data.CARDS[card]["deck"]
    cards = draft.state.deck(deck)
    position = len(cards) - 1 if deck == "red" and cards and cards[-1] == data.MARGATH else len(cards)
    draft.emit(m.CardReturned(deck=deck, card=card, position=position))


def knock_out(draft: Draft, seat: str) -> None:
    """Outside the Endgame: wounds discarded, half the gold lost, back to the nearest town."""
    hero = draft.state.hero(seat)
    combat = draft.state.combat
    if combat is not None and combat.seat == seat and combat.enemy:
        return_card(draft, combat.enemy)
    draft.emit(m.HeroKnockedOut(seat=seat, place=data.nearest_town(hero.place), gold_lost=hero.gold // 2))


def fight_card(draft: Draft, action: str) -> None:
    """One phase of combat against a card (adventure challenge or Vassal)."""
    combat = draft.state.combat
    seat, enemy = combat.seat, combat.enemy
    card = data.CARDS[enemy]
    effect = vassal_effect(combat)
    if combat.phase == first_phase(enemy) and effect.get("kind") in (
            "exhaust_each_round", "wound_each_round", "heal_each_round"):
        draft.emit(m.RoundBegan(seat=seat, enemy=enemy))
        if knocked_out(draft.state, seat):
            return _hero_down(draft, seat)
    combat = draft.state.combat
    phase = combat.phase
    if action == "defend":
        draft.emit(m.Suffered(seat=seat, wounds=0, exhaustion=defend_cost(combat)))
    else:
        attack, damage = hero_values(draft.state.hero(seat), phase, combat.allies, effect)
        rolled = dice(draft)
        total = sum(rolled) + attack
        hit = total >= card["target"][phase]
        draft.emit(m.Struck(seat=seat, phase=phase, dice=rolled, total=total, needed=card["target"][phase],
                        hit=hit, damage=damage if hit else 0))
        if draft.state.combat.enemy_wounds >= card["life"]:
            return _enemy_down(draft)
        if hit and effect.get("kind") == "reflect":
            draft.emit(m.Suffered(seat=seat, wounds=effect["amount"], exhaustion=0))
        draft.emit(damage_to(draft.state.hero(seat), combat.allies, phase, card["damage"][phase], seat))
    if knocked_out(draft.state, seat):
        return _hero_down(draft, seat)
    phase, round_ = next_phase(draft.state.combat)
    draft.emit(m.PhaseEnded(phase=phase, round=round_))


def _enemy_down(draft: Draft) -> None:
    combat = draft.state.combat
    if draft.state.endgame is not None:
        draft.emit(m.VassalDefeated(seat=combat.seat, vassal=combat.enemy))
        next_combat(draft)
    else:
        draft.emit(m.EnemyDefeated(seat=combat.seat, card=combat.enemy, gold=data.CARDS[combat.enemy]["gold"]))


def _hero_down(draft: Draft, seat: str) -> None:
    if draft.state.endgame is None:
        knock_out(draft, seat)
    else:
        draft.emit(m.HeroEliminated(seat=seat))
        next_confrontation(draft)


def fight_duel(draft: Draft, king_action: str) -> None:
    """One phase between the challenger (declared first) and the Elder King."""
    combat = draft.state.combat
    phase = combat.phase
    sides = ((combat.seat, combat.declared, combat.allies, combat.opponent, king_action, combat.opponent_allies),
             (combat.opponent, king_action, combat.opponent_allies, combat.seat, combat.declared, combat.allies))
    wounds: dict[str, int] = {}
    for seat, action, allies, other, other_action, other_allies in sides:
        if action == "defend":
            draft.emit(m.Suffered(seat=seat, wounds=0, exhaustion=1))
            continue
        attack, damage = hero_values(draft.state.hero(seat), phase, allies, {})
        defence, _ = hero_values(draft.state.hero(other), phase, other_allies, {})
        rolled = dice(draft)
        total, needed = sum(rolled) + attack, data.DUEL_TARGET_BASE + defence
        hit = total >= needed
        dealt = damage if hit and other_action != "defend" else 0
        draft.emit(m.Struck(seat=seat, phase=phase, dice=rolled, total=total, needed=needed, hit=hit, damage=dealt))
        wounds[other] = dealt
    for seat, _, allies, *_ in sides:
        if wounds.get(seat):
            draft.emit(damage_to(draft.state.hero(seat), allies, phase, wounds[seat], seat))
    challenger, king = combat.seat, combat.opponent
    next_, round_ = next_phase(combat)
    if round_ > combat.round and not (knocked_out(draft.state, challenger) or knocked_out(draft.state, king)):
        for seat in (challenger, king):  # fatigue at the end of a round between heroes
            draft.emit(m.Suffered(seat=seat, wounds=0, exhaustion=1))
    down = [seat for seat in (challenger, king) if knocked_out(draft.state, seat)]
    if not down:
        draft.emit(m.PhaseEnded(phase=next_, round=round_))
        return
    for seat in down:
        draft.emit(m.HeroEliminated(seat=seat))
    if down == [king]:
        crown(draft, challenger)
    else:
        next_confrontation(draft)
