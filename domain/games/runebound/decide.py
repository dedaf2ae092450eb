"""Deciding commands: each command has the steps of the game in which it may
be given and what it does; the refusals are sentences raised where each rule
is checked (here and in turn.py, combat.py, endgame.py)."""

from __future__ import annotations

import random
from typing import Callable

from ...engine import Command, Event, IllegalCommand, not_your_turn
from ...kit import Draft
from . import messages as m
from .combat import can_defend, can_retreat, fight_card, fight_duel, return_card
from .endgame import finish_placing, place_vassal
from .evolve import evolve
from .legal import to_act
from .state import State
from .turn import attempt_adventure, buy, choose_hero, end_turn, gain_experience, heal, move, use_item

# What the seat to act does in each step, for a refusal to say.
WHAT_NEXT = {
    "choosing": "choose a hero (ChooseHero)",
    "move": "move (MoveTo), or use an item",
    "adventure": "attempt the adventure here (Adventure) or skip it (SkipAdventure), or use an item",
    "experience": "heal, buy, gain experience, use an item or end your turn (EndTurn)",
    "combat": "Attack or Defend (or Retreat from an adventure, before a round begins)",
    "placing": "place a Vassal (PlaceVassal) or finish placing (FinishPlacing)",
}

TURN_STEPS = ("move", "adventure", "experience")

Handler = Callable[[Draft, str, Command], None]


def decide(state: State, seat: str, command: Command, rng: random.Random) -> list[Event]:
    if state is None or state.step == "over":
        raise IllegalCommand("the game is over")
    if seat not in to_act(state):
        raise not_your_turn(seat, to_act(state))
    if type(command) not in HANDLERS:
        raise IllegalCommand(f"Runebound has no command {type(command).__name__}")
    steps, handle = HANDLERS[type(command)]
    if state.step not in steps:
        raise IllegalCommand(f"you cannot {type(command).__name__} now: it is the {state.step} step, "
                             f"in which you {WHAT_NEXT[state.step]}")
    draft = Draft(evolve, state, rng)
    handle(draft, seat, command)
    return draft.events


def _skip_adventure(draft: Draft, seat: str, command: m.SkipAdventure) -> None:
    draft.emit(m.AdventureSkipped(seat=seat))


def _attack_or_defend(draft: Draft, seat: str, command: m.Attack | m.Defend) -> None:
    """Against a card the phase is fought at once; between heroes the
    challenger declares first (secretly) and the Elder King's answer fights it."""
    combat = draft.state.combat
    action = "defend" if isinstance(command, m.Defend) else "attack"
    if combat.opponent is not None:
        if combat.declared is None:
            draft.emit(m.ActionDeclared(seat=seat, action=action))
        else:
            fight_duel(draft, action)
        return
    if action == "defend" and not can_defend(combat):
        raise IllegalCommand(f"{combat.enemy} does not let you defend in the {combat.phase} phase")
    fight_card(draft, action)


def _retreat(draft: Draft, seat: str, command: m.Retreat) -> None:
    if not can_retreat(draft.state):
        raise IllegalCommand("you can only retreat from an adventure combat, before a round begins")
    return_card(draft, draft.state.combat.enemy)
    draft.emit(m.Retreated(seat=seat))


# Each command: the steps in which it may be given, and what it does.
HANDLERS: dict[type[Command], tuple[tuple[str, ...], Handler]] = {
    m.ChooseHero: (("choosing",), lambda draft, seat, c: choose_hero(draft, seat, c.hero)),
    m.UseItem: (TURN_STEPS, lambda draft, seat, c: use_item(draft, seat, c.item)),
    m.MoveTo: (("move",), lambda draft, seat, c: move(draft, seat, c.place)),
    m.Adventure: (("adventure",), lambda draft, seat, c: attempt_adventure(draft, seat)),
    m.SkipAdventure: (("adventure",), _skip_adventure),
    m.Heal: (("experience",), lambda draft, seat, c: heal(draft, seat)),
    m.Buy: (("experience",), lambda draft, seat, c: buy(draft, seat, c.card)),
    m.GainExperience: (("experience",), lambda draft, seat, c: gain_experience(draft, seat, c.kind)),
    m.EndTurn: (("experience",), lambda draft, seat, c: end_turn(draft, seat)),
    m.PlaceVassal: (("placing",), lambda draft, seat, c: place_vassal(draft, seat, c.vassal)),
    m.FinishPlacing: (("placing",), lambda draft, seat, c: finish_placing(draft, seat)),
    m.Attack: (("combat",), _attack_or_defend),
    m.Defend: (("combat",), _attack_or_defend),
    m.Retreat: (("combat",), _retreat),
}
