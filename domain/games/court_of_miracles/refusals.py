"""The refusals several commands share, each a sentence a player can act on:
a command sent in the wrong phase of the turn, a place that names no spot."""

from __future__ import annotations

from ...engine import IllegalCommand
from .data import INDEX, NEIGHBOURHOOD_IDS, SPOTS_PER_NEIGHBOURHOOD
from .state import State

PHASE_WORDS = {
    "place": "you must place (or move) a rogue first",
    "act": "your rogue is placed: take the neighbourhood action, play a Plot card or end your turn",
    "recruit": "you must first choose which rogue to discard to the Seine",
    "wrath": "you must first choose the neighbourhood of the Wrath Standoff",
    "standoffs": "you must first choose which Standoff to settle next",
    "standoff": "a Standoff is being settled",
    "over": "the game is over",
}


def expect_phase(state: State, command, *phases: str) -> None:
    """Refuse ``command`` unless the turn is in one of ``phases``."""
    if state.phase not in phases:
        raise IllegalCommand(f"{type(command).__name__} is not possible now: "
                             f"{PHASE_WORDS.get(state.phase, state.phase)}")


def check_neighbourhood(neighbourhood) -> None:
    if not isinstance(neighbourhood, str) or neighbourhood not in INDEX:
        raise IllegalCommand(f"there is no neighbourhood {neighbourhood!r}; they are {', '.join(NEIGHBOURHOOD_IDS)}")


def check_spot(neighbourhood, spot, needed: bool = True) -> None:
    """Refuse a (neighbourhood, spot) pair that names no spot; ``needed``: the spot may not be left out."""
    check_neighbourhood(neighbourhood)
    if spot is None and not needed:
        return
    if not isinstance(spot, int) or not 1 <= spot <= SPOTS_PER_NEIGHBOURHOOD:
        raise IllegalCommand(f"spots are numbered 1 to {SPOTS_PER_NEIGHBOURHOOD}, not {spot!r}")
