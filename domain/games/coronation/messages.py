"""Commands (what a seat asks for) and events (what happened) of Coronation.

Every field holds a JSON value. Events about Lind carry his hidden choices in
full; ``views.visible`` redacts them for everyone but Lind."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import Command, Event

# Commands ------------------------------------------------------------------


@dataclass(frozen=True)
class PlaceDetective(Command):
    """Before the game: choose the location where a detective starts."""

    detective: str
    location: int


@dataclass(frozen=True)
class EquipDetective(Command):
    """Equipment option "choose": the five cards of one detective, listed in
    deck order (cab tickets first, then instruments in the order respirator,
    revolver, money, lock-pick, first-aid-kit)."""

    detective: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class AppearLind(Command):
    """Turn 1: Lind appears on a location without a detective."""

    location: int


@dataclass(frozen=True)
class MoveLind(Command):
    """Lind moves by "foot", "cab" or "underground"; on foot he may set a trap."""

    to: int
    by: str
    trap: str | None = None


@dataclass(frozen=True)
class HideLind(Command):
    """Lind stays where he is with a turn-skip card on a decoy location card."""

    decoy: int


@dataclass(frozen=True)
class MoveLindExtraordinarily(Command):
    """After a detective suffered an extraordinary trap: Lind moves on foot at once."""

    to: int


@dataclass(frozen=True)
class DeclineExtraordinaryMovement(Command):
    """After a detective suffered an extraordinary trap: Lind stays."""


@dataclass(frozen=True)
class MoveDetective(Command):
    """A detective's action: move by "foot" or "cab"."""

    detective: str
    to: int
    by: str


@dataclass(frozen=True)
class GatherInformation(Command):
    """A detective's action on the special location he entered last action:
    discard its instrument and reveal where Lind was four route cards ago."""

    detective: str


COMMANDS = (
    PlaceDetective,
    EquipDetective,
    AppearLind,
    MoveLind,
    HideLind,
    MoveLindExtraordinarily,
    DeclineExtraordinaryMovement,
    MoveDetective,
    GatherInformation,
)

# Events --------------------------------------------------------------------


@dataclass(frozen=True)
class GameStarted(Event):
    """The game begins: its seats, its options, and which detective seat directs
    each detective (drawn by lot)."""

    seats: tuple[str, ...]
    last_turn: int
    equipment: str
    shared_control: bool
    control: tuple[tuple[str, str], ...]  # (detective, seat) pairs


@dataclass(frozen=True)
class DetectiveEquipped(Event):
    """A detective got his five cards: dealt at setup (equipment recommended or
    random) or picked by his seat (EquipDetective)."""

    detective: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class DetectivePlaced(Event):
    """Setup: a detective took the location where he starts (PlaceDetective)."""

    detective: str
    location: int


@dataclass(frozen=True)
class LindAppeared(Event):
    """Turn 1: Lind appeared, his location the first route card. Only Lind's
    player and the referee see where; everyone else gets the type alone."""

    location: int  # hidden


@dataclass(frozen=True)
class LindMoved(Event):
    """One per Lind turn, whatever he did. ``by`` is foot, cab, underground or
    hide; ``to`` is the new location, or the decoy for a hide; ``card`` the card
    he left on the previous route card (None, a trap, ticket, note, turn-skip);
    ``stole`` whether he took a jewel. Only ``card is not None`` and ``stole``
    are public."""

    to: int
    by: str
    card: str | None
    stole: bool


@dataclass(frozen=True)
class LindMovedExtraordinarily(Event):
    """Lind's answer to an extraordinary trap: ``to`` None when he stayed."""

    to: int | None
    stole: bool


@dataclass(frozen=True)
class DetectiveMoved(Event):
    """A detective's action: he moved along one line, by cab spending a ticket."""

    detective: str
    to: int
    by: str


@dataclass(frozen=True)
class InformationGathered(Event):
    """A detective's action: he discarded his special location's instrument; the
    RouteCardRevealed after it opens the route card four places before Lind's last."""

    detective: str
    instrument: str


@dataclass(frozen=True)
class RouteCardRevealed(Event):
    """A route card turned face up. ``hide`` cards show no location; the card
    lying on it is shown only when ``card_shown``."""

    index: int
    location: int | None
    hide: bool
    card: str | None
    card_shown: bool


@dataclass(frozen=True)
class TrapDefused(Event):
    """A detective entered a route card's location holding the instrument its
    trap names: he discarded it, and the trap is spent."""

    detective: str
    index: int
    trap: str
    instrument: str


@dataclass(frozen=True)
class TrapSuffered(Event):
    """A detective entered a route card's location without the instrument its
    trap names: the trap acts on him, and is spent."""

    detective: str
    index: int
    trap: str
    effect: str
    extraordinary: bool


@dataclass(frozen=True)
class TurnEnded(Event):
    """Every detective has acted (or lost his action): the turn is over and
    Lind moves next."""

    turn: int


@dataclass(frozen=True)
class LindCaught(Event):
    """``detective`` None: Lind had no legal action on his turn."""

    detective: str | None
    location: int


@dataclass(frozen=True)
class LindWon(Event):
    """Lind won, and the game is over."""

    reason: str  # "jewels" or "time"


@dataclass(frozen=True)
class LindResigned(Event):
    """Lind's seat resigned: the detectives win."""


@dataclass(frozen=True)
class DetectivesHandedOver(Event):
    """A detective seat resigned: ``control`` gives each of its detectives to
    another detective seat (empty when no other seat is left: a bot plays it)."""

    seat: str
    control: tuple[tuple[str, str], ...]  # (detective, seat) pairs


EVENTS = (
    GameStarted,
    DetectiveEquipped,
    DetectivePlaced,
    LindAppeared,
    LindMoved,
    LindMovedExtraordinarily,
    DetectiveMoved,
    InformationGathered,
    RouteCardRevealed,
    TrapDefused,
    TrapSuffered,
    TurnEnded,
    LindCaught,
    LindWon,
    LindResigned,
    DetectivesHandedOver,
)
