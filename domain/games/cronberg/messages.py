"""Commands (what a player asks) and events (what happened) of Cronberg."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import Command, Event

# Commands


@dataclass(frozen=True)
class DrawBuilding(Command):
    """Action A, first step: turn the top rhomboid of the face-down stack
    face up. The same player then places it (PlaceBuilding)."""


@dataclass(frozen=True)
class PlaceBuilding(Command):
    """Action A, second step: lay the drawn rhomboid on two edge-adjacent
    vacant triangles, named in board order (e.g. ["T05", "T06"]). Unturned,
    the tile's first corner lies on the corner of the first triangle that the
    second does not share; turned, the tile is rotated half a turn."""

    triangles: tuple[str, ...]
    turned: bool = False


@dataclass(frozen=True)
class PlaceMember(Command):
    """Action B: put a family member from your supply on a free crossing."""

    crossing: str


# Events


@dataclass(frozen=True)
class GameSetUp(Event):
    """The game begins: its seats and how many rounds it lasts."""

    seats: tuple[str, ...]
    rounds: int


@dataclass(frozen=True)
class RoundStarted(Event):
    """A round begins on an empty city. ``stack`` is the shuffled face-down
    order of the rhomboids, top first: only the referee sees it."""

    round: int
    starter: str
    stack: tuple[int, ...]


@dataclass(frozen=True)
class BuildingDrawn(Event):
    """Action A, first step: the top rhomboid of the face-down stack is turned
    face up for everyone; the same seat places it next (BuildingPlaced)."""

    seat: str
    tile: int
    corners: tuple[int, ...]


@dataclass(frozen=True)
class BuildingPlaced(Event):
    """Action A, second step: the drawn rhomboid was laid on two triangles;
    its corner numbers now count at the four crossings it touches."""

    seat: str
    tile: int
    triangles: tuple[str, ...]
    turned: bool


@dataclass(frozen=True)
class TriangleEnclosed(Event):
    """A vacant triangle now has buildings or the wall on all three sides;
    a Park, Musketeer or Coat of Arms becomes active."""

    triangle: str
    kind: str


@dataclass(frozen=True)
class MemberDrivenOut(Event):
    """An active Musketeer sent this member back to its owner, unscored."""

    seat: str
    crossing: str


@dataclass(frozen=True)
class MemberScored(Event):
    """The member's crossing was worth ``points`` to its owner; the member
    returns to the supply. ``at_end`` is true for the end-of-round scoring."""

    seat: str
    crossing: str
    points: int
    at_end: bool


@dataclass(frozen=True)
class MemberPlaced(Event):
    """Action B: a family member from the seat's supply now stands on a crossing."""

    seat: str
    crossing: str


@dataclass(frozen=True)
class TurnPassed(Event):
    """This seat could neither play a building nor place a family member."""

    seat: str


@dataclass(frozen=True)
class TurnBegan(Event):
    """This seat's turn begins: it draws a building or places a family member."""

    seat: str


@dataclass(frozen=True)
class RoundEnded(Event):
    """Nobody could act any more: the members left in the city were scored
    (MemberScored with ``at_end``) and the round is over."""

    round: int
    scores: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded(Event):
    """The last round ended: the highest total wins; equal totals share the win."""

    winners: tuple[str, ...]
    points: int


COMMANDS = (DrawBuilding, PlaceBuilding, PlaceMember)
EVENTS = (
    GameSetUp,
    RoundStarted,
    BuildingDrawn,
    BuildingPlaced,
    TriangleEnclosed,
    MemberDrivenOut,
    MemberScored,
    MemberPlaced,
    TurnPassed,
    TurnBegan,
    RoundEnded,
    GameEnded,
)
