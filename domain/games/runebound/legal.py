"""Which commands a seat may give now (exact), the seats to act, and what a\nseat's timeout gives."""

from __future__ import annotations

import random

from ...engine import Command
from . import data
from . import messages as m
from .combat import can_defend, can_retreat
from .state import State
from .turn import adventure_deck


def to_act(state: State) -> frozenset[str]:
    if state.step == "over" or state.active is None:
        return frozenset()
    combat = state.combat
    if state.step == "combat" and combat is not None:
        if combat.opponent is not None and combat.declared is not None:
            return frozenset({combat.opponent})
        return frozenset({combat.seat})
    return frozenset({state.active})


def available_heroes(state: State) -> list[str]:
    taken = {hero.name for hero in state.heroes}
    return [name for name in data.HEROES if name not in taken]


def usable_items(state: State, seat: str) -> list[Command]:
    hero = state.hero(seat)
    if hero.wounds == 0:
        return []
    return [m.UseItem(item) for item in hero.items
            if "heal" in data.MARKET[item] and item not in hero.exhausted]


def legal_commands(state: State, seat: str) -> list[Command]:
    if seat not in to_act(state):
        return []
    if state.step == "choosing":
        return [m.ChooseHero(name) for name in available_heroes(state)]
    hero = state.hero(seat)
    if state.step == "placing":
        placed = len(state.endgame.line)
        vassals = [m.PlaceVassal(v) for v in dict.fromkeys(hero.vassals)] if placed < 3 else []
        return vassals + [m.FinishPlacing()]
    if state.step == "combat":
        combat = state.combat
        commands: list[Command] = [m.Attack()]
        if combat.opponent is not None or can_defend(combat):
            commands.append(m.Defend())
        if can_retreat(state):
            commands.append(m.Retreat())
        return commands
    if state.step == "move":
        return [m.MoveTo(place) for place in data.reachable(hero.place, state.movement)] + usable_items(state, seat)
    if state.step == "adventure":
        commands = [m.Adventure()] if adventure_deck(state, seat) else []
        return commands + [m.SkipAdventure()] + usable_items(state, seat)
    commands = []
    if hero.xp >= data.XP_PER_EXPERIENCE:
        commands += [m.GainExperience(kind) for kind in data.EXPERIENCE_KINDS]
    if hero.place in data.TOWNS:
        if hero.wounds and hero.gold >= data.HEAL_COST:
            commands.append(m.Heal())
        commands += [m.Buy(card) for card in state.market if data.MARKET[card]["cost"] <= hero.gold]
    return commands + usable_items(state, seat) + [m.EndTurn()]


def on_timeout(state: State, seat: str, rng: random.Random) -> Command:
    """Retreat or defend in combat; otherwise end the turn (or its current step)."""
    commands = legal_commands(state, seat)
    if state.step == "choosing":
        return commands[0]
    for preferred in (m.Retreat(), m.Defend(), m.FinishPlacing(), m.SkipAdventure(), m.EndTurn()):
        if preferred in commands:
            return preferred
    if state.step == "move":
        return m.MoveTo(state.hero(seat).place)
    return commands[0]
