"""``decide``: check a command against the rules and say what happened.

Every refusal is an IllegalCommand with a sentence a player understands;
commands with nonsense field values (unknown locations, wrong types) are
refused the same way, at the point of decision. Each command's handler emits
its events into a ``Draft`` (which folds them as they come); ``_close`` then
adds what follows from them: Lind's victory, the end of a turn, Lind cornered."""

from __future__ import annotations

import random
from typing import Any

from ...engine import IllegalCommand, not_your_turn
from ...kit import Draft
from . import messages as m
from .data import BOARD
from .legal import (
    LIND_SEAT,
    appear_options,
    controls,
    equip_options,
    gather_refusal,
    information_target,
    lind_has_action,
    steals,
    to_act,
)
from .state import (
    APPEAR,
    DETECTIVES,
    EXTRAORDINARY,
    LIND,
    NOTE,
    OVER,
    SETUP,
    TICKET,
    TURN_SKIP,
    Detective,
    State,
    evolve,
)


def decide(state: State | None, seat: str, command: m.Command, rng: random.Random) -> list[m.Event]:
    if state is None:
        raise IllegalCommand("the game has not started")
    if seat not in to_act(state):
        raise not_your_turn(seat, to_act(state))
    if not isinstance(command, m.COMMANDS):
        raise IllegalCommand(f"Coronation has no command {type(command).__name__}")
    if isinstance(command, LIND_COMMANDS) and seat != LIND_SEAT:
        raise IllegalCommand("only Lind's player gives Lind's commands")
    if not isinstance(command, LIND_COMMANDS) and seat == LIND_SEAT:
        raise IllegalCommand("Lind's player moves no detective")
    draft = Draft(evolve, state)
    if isinstance(command, m.PlaceDetective):
        _place(draft, seat, command)
    elif isinstance(command, m.EquipDetective):
        _equip(draft, seat, command)
    elif isinstance(command, m.AppearLind):
        _appear(draft, command)
    elif isinstance(command, m.MoveLind):
        _move_lind(draft, command)
    elif isinstance(command, m.HideLind):
        _hide(draft, command)
    elif isinstance(command, m.MoveLindExtraordinarily):
        _flee(draft, command)
    elif isinstance(command, m.DeclineExtraordinaryMovement):
        _decline(draft)
    elif isinstance(command, m.MoveDetective):
        _move_detective(draft, seat, command)
    elif isinstance(command, m.GatherInformation):
        _gather(draft, seat, command)
    _close(draft)
    return draft.events


LIND_COMMANDS = (m.AppearLind, m.MoveLind, m.HideLind, m.MoveLindExtraordinarily, m.DeclineExtraordinaryMovement)


def _close(draft: Draft) -> None:
    """What follows from a command's own events: Lind's victory, the end of
    the detectives' turn, Lind cornered."""
    if draft.state.phase == OVER:
        return
    if draft.state.jewels_left <= 0:
        draft.emit(m.LindWon("jewels"))
        return
    after = draft.state
    if after.phase == DETECTIVES and len(after.acted) >= len(after.detectives):
        if after.turn >= after.last_turn:
            draft.emit(m.LindWon("time"))
            return
        draft.emit(m.TurnEnded(after.turn))
    if draft.state.phase == LIND and not lind_has_action(draft.state):
        draft.emit(m.LindCaught(None, draft.state.lind_at))


# Field checks --------------------------------------------------------------


def _location(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in BOARD.locations:
        raise IllegalCommand(f"there is no location {value!r}; locations are numbered 1 to {len(BOARD.locations)}")
    return value


def _name(location: int) -> str:
    return f"{BOARD.name(location)} ({location})"


def _phase(state: State, phase: str, doing: str) -> None:
    if state.phase != phase:
        raise IllegalCommand(f"{doing} is not possible now: {_PHASES[state.phase]}")


_PHASES = {
    SETUP: "the detectives are still taking their places and equipment",
    APPEAR: "Lind must first appear on the board",
    LIND: "Lind is to move",
    DETECTIVES: "the detectives are acting",
    EXTRAORDINARY: "Lind is deciding on his extraordinary movement",
    OVER: "the game is over",
}


def _detective(state: State, seat: str, value: Any) -> Detective:
    detective = state.detective(value) if isinstance(value, str) else None
    if detective is None:
        raise IllegalCommand(f"there is no detective {value!r}; they are {', '.join(BOARD.detectives)}")
    if not controls(state, seat, detective):
        raise IllegalCommand(f"{BOARD.detective_names[detective.id]} is not yours to direct")
    return detective


# Setup ---------------------------------------------------------------------


def _place(draft: Draft, seat: str, c: m.PlaceDetective) -> None:
    state = draft.state
    _phase(state, SETUP, "placing a detective")
    detective = _detective(state, seat, c.detective)
    location = _location(c.location)
    if detective.location is not None:
        raise IllegalCommand(f"{BOARD.detective_names[detective.id]} already stands at {_name(detective.location)}")
    draft.emit(m.DetectivePlaced(detective.id, location))


def _equip(draft: Draft, seat: str, c: m.EquipDetective) -> None:
    state = draft.state
    _phase(state, SETUP, "equipping a detective")
    if state.equipment != "choose":
        raise IllegalCommand(f"equipment is dealt by the option {state.equipment!r}, not chosen")
    detective = _detective(state, seat, c.detective)
    if detective.equipped:
        raise IllegalCommand(f"{BOARD.detective_names[detective.id]} is already equipped")
    hand = tuple(c.cards) if isinstance(c.cards, tuple) else None
    if hand not in equip_options(state):
        order = ", ".join((TICKET,) + BOARD.instruments)
        raise IllegalCommand(
            f"a detective takes exactly {BOARD.hand_size} cards that are still in the deck, "
            f"listed in the order {order}; deck left: "
            + ", ".join(f"{n} {kind}" for kind, n in state.deck)
        )
    draft.emit(m.DetectiveEquipped(detective.id, hand))


# Lind ----------------------------------------------------------------------


def _appear(draft: Draft, c: m.AppearLind) -> None:
    state = draft.state
    _phase(state, APPEAR, "appearing")
    location = _location(c.location)
    if location not in appear_options(state):
        raise IllegalCommand(f"Lind must appear on a location without a detective, and one stands at {_name(location)}")
    draft.emit(m.LindAppeared(location))


def _check_entry(state: State, to: int) -> None:
    if to in state.on_table:
        raise IllegalCommand(f"Lind may not visit {_name(to)}: its card already lies on the table")
    if to in state.closed_to_lind:
        raise IllegalCommand(
            f"Lind may not visit {_name(to)}: he dropped a decoy there, and it stays closed to him for the rest "
            "of the game"
        )
    if to in state.detective_locations:
        raise IllegalCommand(f"Lind may not move onto {_name(to)}: a detective stands there")


def _move_lind(draft: Draft, c: m.MoveLind) -> None:
    state = draft.state
    _phase(state, LIND, "moving Lind")
    to = _location(c.to)
    here = state.lind_at
    if c.by not in ("foot", "cab", "underground"):
        raise IllegalCommand(f"Lind moves by foot, cab or underground, not {c.by!r}")
    if to == here:
        raise IllegalCommand("Lind may not stay in place; to stand still he hides with a turn-skip card")
    if c.trap is not None and c.by != "foot":
        raise IllegalCommand("a trap is set only when Lind leaves on foot, not by cab or underground")
    if c.by == "foot" and to not in BOARD.foot[here]:
        raise IllegalCommand(f"no foot (red) line joins {_name(here)} and {_name(to)}")
    if c.by == "cab" and to not in BOARD.cab[here]:
        raise IllegalCommand(f"no cab (green) line joins {_name(here)} and {_name(to)}")
    if c.by == "underground" and (here not in BOARD.underground or to not in BOARD.underground):
        raise IllegalCommand("the underground passage joins only two locations with an underground entrance")
    _check_entry(state, to)
    card = {"foot": c.trap, "cab": TICKET, "underground": NOTE}[c.by]
    if c.trap is not None and (not isinstance(c.trap, str) or c.trap not in BOARD.traps):
        raise IllegalCommand(f"there is no trap {c.trap!r}; traps are {', '.join(BOARD.traps)}")
    if card is not None and state.count(card) <= 0:
        raise IllegalCommand(f"Lind has no {card} card left")
    draft.emit(m.LindMoved(to, c.by, card, steals(state)))


def _hide(draft: Draft, c: m.HideLind) -> None:
    state = draft.state
    _phase(state, LIND, "hiding")
    decoy = _location(c.decoy)
    if state.count(TURN_SKIP) <= 0:
        raise IllegalCommand("Lind has no turn-skip card left")
    if decoy in state.on_table:
        raise IllegalCommand(f"the decoy must be a location card not on the table, and {_name(decoy)} is")
    draft.emit(m.LindMoved(decoy, "hide", TURN_SKIP, False))


def _flee(draft: Draft, c: m.MoveLindExtraordinarily) -> None:
    state = draft.state
    _phase(state, EXTRAORDINARY, "the extraordinary movement")
    to = _location(c.to)
    if to not in BOARD.foot[state.lind_at]:
        raise IllegalCommand(f"the extraordinary movement follows one foot (red) line, and none joins {_name(to)}")
    _check_entry(state, to)
    draft.emit(m.LindMovedExtraordinarily(to, steals(state)))


def _decline(draft: Draft) -> None:
    _phase(draft.state, EXTRAORDINARY, "declining the extraordinary movement")
    draft.emit(m.LindMovedExtraordinarily(None, False))


# Detectives ----------------------------------------------------------------


def _acting(state: State, seat: str, value: Any, doing: str) -> Detective:
    _phase(state, DETECTIVES, doing)
    detective = _detective(state, seat, value)
    if detective.id in state.acted:
        raise IllegalCommand(f"{BOARD.detective_names[detective.id]} has already acted this turn")
    return detective


def _move_detective(draft: Draft, seat: str, c: m.MoveDetective) -> None:
    state = draft.state
    detective = _acting(state, seat, c.detective, "moving a detective")
    to = _location(c.to)
    here = detective.location
    name = BOARD.detective_names[detective.id]
    if c.by == "foot":
        if to not in BOARD.foot[here]:
            raise IllegalCommand(f"no foot (red) line joins {_name(here)} and {_name(to)}")
    elif c.by == "cab":
        if to not in BOARD.cab[here]:
            raise IllegalCommand(f"no cab (green) line joins {_name(here)} and {_name(to)}")
        if detective.tickets <= 0:
            raise IllegalCommand(f"{name} has no cab ticket left")
    else:
        raise IllegalCommand(f"detectives move by foot or cab (never underground), not {c.by!r}")
    draft.emit(m.DetectiveMoved(detective.id, to, c.by))
    if to == state.lind_at:
        draft.emit(m.LindCaught(detective.id, to))
    else:
        draft.emit(*_trail(state, detective, to))


def _trail(state: State, detective: Detective, to: int) -> list[m.Event]:
    """Entering a location on Lind's route: reveal its card, the card on it
    (following a turn-skip card to the decoys after it), and spring its trap."""
    route = state.route
    index = next((i for i, card in enumerate(route) if card.location == to and not card.hide), None)
    if index is None:
        return []
    events: list[m.Event] = []
    while True:
        card = route[index]
        if not (card.location_shown and card.card_shown):
            location = None if card.hide else card.location
            events.append(m.RouteCardRevealed(index, location, card.hide, card.card, True))
        if card.card == TURN_SKIP and index + 1 < len(route) and route[index + 1].hide:
            index += 1
            continue
        break
    trap = BOARD.traps.get(card.card) if isinstance(card.card, str) else None
    if trap is None or card.spent:
        return events
    if trap.instrument in detective.instruments:
        return events + [m.TrapDefused(detective.id, index, trap.id, trap.instrument)]
    return events + [m.TrapSuffered(detective.id, index, trap.id, trap.effect, trap.extraordinary)]


def _gather(draft: Draft, seat: str, c: m.GatherInformation) -> None:
    state = draft.state
    detective = _acting(state, seat, c.detective, "gathering information")
    refusal = gather_refusal(state, detective)
    if refusal is not None:
        raise IllegalCommand(refusal)
    index = information_target(state)
    card = state.route[index]
    tool = BOARD.locations[detective.location].instrument
    draft.emit(
        m.InformationGathered(detective.id, tool),
        m.RouteCardRevealed(index, None if card.hide else card.location, card.hide, None, False),
    )
