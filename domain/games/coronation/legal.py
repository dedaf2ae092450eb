"""Who may act and what each may do: the option lists that ``decide`` checks
commands against and that ``legal_commands`` lists, so the two never differ."""

from __future__ import annotations

from functools import lru_cache

from . import messages as m
from .data import BOARD
from .state import (
    APPEAR,
    DETECTIVES,
    EXTRAORDINARY,
    LIND,
    NOTE,
    SETUP,
    TICKET,
    TURN_SKIP,
    Detective,
    State,
)

LIND_SEAT = "lind"


def controls(state: State, seat: str, detective: Detective) -> bool:
    if seat == LIND_SEAT or seat not in state.seats or seat in state.retired:
        return False
    return state.shared or detective.seat == seat


def needs_setup(state: State, detective: Detective) -> bool:
    return detective.location is None or not detective.equipped


def may_act(state: State, detective: Detective) -> bool:
    return state.phase == DETECTIVES and detective.id not in state.acted


def to_act(state: State | None) -> frozenset[str]:
    if state is None:
        return frozenset()
    if state.phase in (APPEAR, LIND, EXTRAORDINARY):
        return frozenset({LIND_SEAT})
    if state.phase == SETUP:
        waiting = [d for d in state.detectives if needs_setup(state, d)]
    elif state.phase == DETECTIVES:
        waiting = [d for d in state.detectives if may_act(state, d)]
    else:
        return frozenset()
    return frozenset(seat for seat in state.seats for d in waiting if controls(state, seat, d))


# Lind ----------------------------------------------------------------------


def lind_may_enter(state: State, location: int) -> bool:
    return location not in state.closed_to_lind and location not in state.detective_locations


def lind_moves(state: State) -> list[m.MoveLind]:
    here = state.lind_at
    if here is None:
        return []
    moves: list[m.MoveLind] = []
    traps = [trap for trap in BOARD.traps if state.count(trap) > 0]
    for to in BOARD.foot[here]:
        if lind_may_enter(state, to):
            moves.append(m.MoveLind(to, "foot"))
            moves.extend(m.MoveLind(to, "foot", trap) for trap in traps)
    if state.count(TICKET) > 0:
        moves.extend(m.MoveLind(to, "cab") for to in BOARD.cab[here] if lind_may_enter(state, to))
    if state.count(NOTE) > 0 and here in BOARD.underground:
        moves.extend(
            m.MoveLind(to, "underground")
            for to in BOARD.underground
            if to != here and lind_may_enter(state, to)
        )
    return moves


def lind_hides(state: State) -> list[m.HideLind]:
    if state.lind_at is None or state.count(TURN_SKIP) <= 0:
        return []
    table = state.on_table
    return [m.HideLind(decoy) for decoy in BOARD.locations if decoy not in table]


def lind_has_action(state: State) -> bool:
    return bool(lind_hides(state)) or bool(lind_moves(state))


def appear_options(state: State) -> list[int]:
    taken = state.detective_locations
    return [location for location in BOARD.locations if location not in taken]


def flee_options(state: State) -> list[int]:
    if state.lind_at is None:
        return []
    return [to for to in BOARD.foot[state.lind_at] if lind_may_enter(state, to)]


def steals(state: State) -> bool:
    """Whether leaving Lind's location now takes a jewel."""
    return state.lind_at in BOARD.jewels and state.lind_at not in state.stolen


# Detectives ----------------------------------------------------------------


def detective_moves(detective: Detective) -> list[m.MoveDetective]:
    if detective.location is None:
        return []
    moves = [m.MoveDetective(detective.id, to, "foot") for to in BOARD.foot[detective.location]]
    if detective.tickets > 0:
        moves.extend(m.MoveDetective(detective.id, to, "cab") for to in BOARD.cab[detective.location])
    return moves


def information_target(state: State) -> int | None:
    """The route card that information gathering would open, if it may."""
    index = len(state.route) - 1 - BOARD.information_gap
    if index < 0 or state.route[index].location_shown:
        return None
    return index


def gather_refusal(state: State, detective: Detective) -> str | None:
    """Why this detective may not gather information now, or None."""
    name = BOARD.detective_names[detective.id]
    if not detective.at_special or detective.location is None:
        return f"{name} did not enter a special location with his last action"
    tool = BOARD.locations[detective.location].instrument
    if tool not in detective.instruments:
        return f"{name} holds no {BOARD.instrument_names[tool]} to discard at {BOARD.name(detective.location)}"
    if information_target(state) is None:
        return f"there is no closed route card {BOARD.information_gap} places before Lind's last one"
    return None


def equip_options(state: State) -> tuple[tuple[str, ...], ...]:
    """Every hand of five cards the remaining detective deck can give, in deck order."""
    return _hands(state.deck)


@lru_cache(maxsize=256)
def _hands(deck: tuple[tuple[str, int], ...]) -> tuple[tuple[str, ...], ...]:
    left = dict(deck)
    kinds = (TICKET,) + BOARD.instruments
    hands: list[tuple[str, ...]] = []

    def extend(position: int, hand: tuple[str, ...]) -> None:
        if len(hand) == BOARD.hand_size:
            hands.append(hand)
            return
        if position == len(kinds):
            return
        kind = kinds[position]
        for n in range(min(left.get(kind, 0), BOARD.hand_size - len(hand)), -1, -1):
            extend(position + 1, hand + (kind,) * n)

    extend(0, ())
    return tuple(hands)


def legal_commands(state: State | None, seat: str) -> list[m.Command]:
    if state is None or seat not in to_act(state):
        return []
    if state.phase == APPEAR:
        return [m.AppearLind(location) for location in appear_options(state)]
    if state.phase == LIND:
        return [*lind_moves(state), *lind_hides(state)]
    if state.phase == EXTRAORDINARY:
        return [*(m.MoveLindExtraordinarily(to) for to in flee_options(state)), m.DeclineExtraordinaryMovement()]
    commands: list[m.Command] = []
    hands = equip_options(state) if state.phase == SETUP and state.equipment == "choose" else []
    for detective in state.detectives:
        if not controls(state, seat, detective):
            continue
        if state.phase == SETUP:
            if detective.location is None:
                commands.extend(m.PlaceDetective(detective.id, loc) for loc in BOARD.locations)
            if not detective.equipped:
                commands.extend(m.EquipDetective(detective.id, hand) for hand in hands)
        elif may_act(state, detective):
            commands.extend(detective_moves(detective))
            if gather_refusal(state, detective) is None:
                commands.append(m.GatherInformation(detective.id))
    return commands
