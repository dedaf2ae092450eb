"""legal_commands (complete and exact) and on_timeout."""

from __future__ import annotations

import random

from .battle import VALUES, can_deploy, deploy_targets, tactic_choices, tactic_of
from .conquest import placements
from .data import NATION_IDS
from .flow import has_cards
from .messages import (
    ChooseNation, ChooseStrategy, PlaceRegions, Deploy, EndEscalation, EndTurn, Expand, Muster, PlayTactic, Recruit, Scout, ShiftDie,
    Stop, Strategize,
)
from .state import State


def _battle(state: State, seat: str) -> list:
    reserve = state.reserve(seat)
    if not reserve and state.stop_allowed():
        return [Stop()]
    commands: list = [Deploy(value, region) for value, region in deploy_targets(state, seat)]
    for card in state.hand(seat):
        commands.extend(PlayTactic(card, dice, value) for dice, value in tactic_choices(reserve, tactic_of(card)))
    if state.is_ability(seat, "starlit_resolve") and seat not in state.shifted:
        commands.extend(ShiftDie(value, up) for value in sorted(set(reserve)) for up in (True, False))
    if seat in state.had_turn or state.deployed or not can_deploy(state, seat):
        commands.append(EndTurn())
    if state.stop_allowed():
        commands.append(Stop())
    return commands


def legal_commands(state: State, seat: str) -> list:
    if seat not in state.to_act():
        return []
    if state.phase == "nations":
        return [ChooseNation(nation) for nation in NATION_IDS if nation not in state.nations]
    if state.phase == "expansion":
        return [Expand()]
    if state.phase == "muster":
        if state.is_ability(seat, "forged_will"):
            return [Muster()] + [Muster(value) for value in VALUES]
        return [Muster()]
    if state.phase == "escalation":
        commands: list = []
        if state.population(seat) > 0:
            commands.append(Recruit())
        commands.extend(Scout(nation) for nation in state.table() if has_cards(state, nation))
        if state.strategy_deck:
            commands.append(Strategize())
        return commands + [EndEscalation()]
    if state.phase == "battle":
        return _battle(state, seat)
    if state.phase == "conquest":
        return [PlaceRegions(regions) for regions in placements(state, seat)]
    if state.phase == "choose":
        return [ChooseStrategy(card) for card in state.strategies[state.index(seat)]]
    return []


def on_timeout(state: State, seat: str, rng: random.Random):
    """Choosing nations: the first free one; Expansion/Muster: do it;
    Escalation: no action; Battle: deploy a legal die if one exists, else stop
    (or pass while stopping is not allowed yet); Conquest: place the regions
    with the lowest ids; end of game: keep the newest strategy card."""
    commands = legal_commands(state, seat)
    if state.phase == "escalation":
        return EndEscalation()
    if state.phase == "battle":
        for kind in (Deploy, Stop, EndTurn):
            for command in commands:
                if isinstance(command, kind):
                    return command
    if state.phase == "choose":
        return ChooseStrategy(state.strategies[state.index(seat)][-1])
    return commands[0]
