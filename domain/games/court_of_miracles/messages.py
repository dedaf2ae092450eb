"""Commands (what a player asks for) and events (what happened) of The Court of Miracles.

Neighbourhoods are named by their id in board.json ("taverne", "egyptienne",
"halles", "chatelet", "grande-cour"); spots by their number 1-3 (distance to
the symbol); Renown Square lines by 1-5; rogues by kind ("henchman", ...)."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import Command, Event

# ---------------------------------------------------------------- commands


@dataclass(frozen=True)
class PlaceRogue(Command):
    """Step 1: place a rogue of your supply face down on a free spot."""

    rogue: str
    neighbourhood: str
    spot: int


@dataclass(frozen=True)
class MoveRogue(Command):
    """Step 1 when all your rogues are in play: move one of them to a free spot."""

    neighbourhood: str
    spot: int
    to_neighbourhood: str
    to_spot: int


@dataclass(frozen=True)
class Recruit(Command):
    """Taverne action: draw a rogue from the bag (then DiscardRogue)."""


@dataclass(frozen=True)
class ShiftRogue(Command):
    """Rue de l'Egyptienne action: move another rogue to any free spot (no spot effect)."""

    neighbourhood: str
    spot: int
    to_neighbourhood: str
    to_spot: int


@dataclass(frozen=True)
class BuyRenown(Command):
    """Les Halles action: pay a line's toll, place Renown on it, take its bonus."""

    line: int


@dataclass(frozen=True)
class DrawPlot(Command):
    """Le Chatelet action: draw 1 Plot card."""


@dataclass(frozen=True)
class TakeCoins(Command):
    """La Grande Cour des Miracles action: take 2 coins."""


@dataclass(frozen=True)
class EndTurn(Command):
    """Finish the turn (skipping the neighbourhood action if not taken); Standoffs follow."""


@dataclass(frozen=True)
class DiscardRogue(Command):
    """After drawing a rogue (Taverne, Strength): discard one of your rogues not in play,
    the drawn one included, to the Seine."""

    rogue: str


@dataclass(frozen=True)
class PlayPlot(Command):
    """Play a Plot card; set the fields the card needs and leave the others out:
    fool, judgment, devil, magician, strength: none; chariot, hermit, justice:
    neighbourhood; death: take (a card of the discard pile); empress: neighbourhood
    or line (your Renown token) and to_neighbourhood (uncontrolled); hanged-man:
    neighbourhood, spot (an opponent's rogue), to_neighbourhood, to_spot (free);
    wheel: player (another seat)."""

    card: str
    neighbourhood: str | None = None
    spot: int | None = None
    to_neighbourhood: str | None = None
    to_spot: int | None = None
    line: int | None = None
    player: str | None = None
    take: str | None = None


@dataclass(frozen=True)
class ChooseWrath(Command):
    """Wrath of the King: the neighbourhood where you start a second Standoff."""

    neighbourhood: str


@dataclass(frozen=True)
class SettleStandoff(Command):
    """With several Standoffs waiting, the one to settle next."""

    neighbourhood: str


@dataclass(frozen=True)
class PaySwordsmen(Command):
    """During a Standoff: how many of your Swordsmen there you pay 2 coins each for."""

    count: int


@dataclass(frozen=True)
class PlaceCourtesanRenown(Command):
    """A winning Courtesan: the neighbourhood where your Renown token goes."""

    neighbourhood: str


COMMANDS = (
    PlaceRogue, MoveRogue, Recruit, ShiftRogue, BuyRenown, DrawPlot, TakeCoins, EndTurn,
    DiscardRogue, PlayPlot, ChooseWrath, SettleStandoff, PaySwordsmen, PlaceCourtesanRenown,
)

# ------------------------------------------------------------------ events


@dataclass(frozen=True)
class GameSetUp(Event):
    """Seats in clockwise order, the first player, the shuffled Plot pile and bag (hidden)."""

    seats: tuple[str, ...]
    first: str
    pile: tuple[str, ...]
    bag: tuple[str, ...]


@dataclass(frozen=True)
class TurnBegan(Event):
    """A player's turn begins (step 1: place a rogue)."""

    seat: str


@dataclass(frozen=True)
class PlotsDrawn(Event):
    """Cards from the top of the pile into a hand (hidden from the others)."""

    seat: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class PlotPileReshuffled(Event):
    """The empty pile re-made from the discards, in this (hidden) order."""

    pile: tuple[str, ...]


@dataclass(frozen=True)
class PlotPlayed(Event):
    """A Plot card played from a hand to the discard pile; its effect follows in the next events."""

    seat: str
    card: str


@dataclass(frozen=True)
class PlotTaken(Event):
    """Death: a card taken from the discard pile."""

    seat: str
    card: str


@dataclass(frozen=True)
class RoguePlaced(Event):
    """A rogue put face down on a spot; from_* set when it moved from another spot.
    The kind is seen by its owner only."""

    seat: str
    rogue: str
    neighbourhood: str
    spot: int
    from_neighbourhood: str | None = None
    from_spot: int | None = None


@dataclass(frozen=True)
class RogueShifted(Event):
    """A rogue moved without spot effect (Rue de l'Egyptienne, The Hanged Man)."""

    neighbourhood: str
    spot: int
    to_neighbourhood: str
    to_spot: int


@dataclass(frozen=True)
class KingMoved(Event):
    """The Penniless King moved along his path; he stops on the first Wrath space he reaches."""

    start: int
    end: int
    wrath: str | None = None  # neighbourhood the Wrath space points at


@dataclass(frozen=True)
class CoinsTaken(Event):
    """From the reserve."""

    seat: str
    amount: int


@dataclass(frozen=True)
class CoinsPaid(Event):
    """To the reserve."""

    seat: str
    amount: int


@dataclass(frozen=True)
class CoinsGiven(Event):
    """Coins passed from one player to another (The Fool, Judgment; a Standoff's winner to each
    other player with a Beggar there)."""

    giver: str
    receiver: str
    amount: int


@dataclass(frozen=True)
class ActionTaken(Event):
    """The neighbourhood action of this turn was used (``neighbourhood`` names whose)."""

    seat: str
    neighbourhood: str


@dataclass(frozen=True)
class RogueDrawn(Event):
    """A rogue drawn from the bag; its kind is seen by the drawer only."""

    seat: str
    rogue: str


@dataclass(frozen=True)
class RogueDiscarded(Event):
    """A rogue put face down in the Seine; its kind is seen by its owner only."""

    seat: str
    rogue: str


@dataclass(frozen=True)
class RenownPlaced(Event):
    """On a neighbourhood (taking control) or on a Renown Square line."""

    seat: str
    neighbourhood: str | None = None
    line: int | None = None


@dataclass(frozen=True)
class RenownReturned(Event):
    """A Renown token back to its owner's hand, from a neighbourhood (control lost) or a Renown Square line."""

    seat: str
    neighbourhood: str | None = None
    line: int | None = None


@dataclass(frozen=True)
class RightHandTaken(Event):
    """Renown Square line 3: the Right-Hand parked there joins its owner's supply."""

    seat: str


@dataclass(frozen=True)
class TurnEnded(Event):
    """Step 4 begins: full neighbourhoods (and the Wrath one) wait for their Standoffs."""

    seat: str
    standoffs: tuple[str, ...]


@dataclass(frozen=True)
class WrathChosen(Event):
    """Wrath of the King: the neighbourhood chosen for the second Standoff."""

    seat: str
    neighbourhood: str


@dataclass(frozen=True)
class StandoffBegan(Event):
    """Rogues revealed: (owner, spot, kind) for each."""

    neighbourhood: str
    rogues: tuple[tuple[str, int, str], ...]
    chariot: bool = False


@dataclass(frozen=True)
class SwordsmenChosen(Event):
    """A player's sealed answer on his Swordsmen: the count is seen by that
    player only; once every player asked has answered, SwordsmenPaid makes the
    payments public."""

    seat: str
    count: int


@dataclass(frozen=True)
class SwordsmenPaid(Event):
    """2 coins per Swordsman paid for, to the reserve (public)."""

    seat: str
    count: int


@dataclass(frozen=True)
class StandoffWon(Event):
    """Totals as (seat, strength); winner None when no rogue was there."""

    neighbourhood: str
    winner: str | None
    totals: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class RoguesReturned(Event):
    """Every rogue of a neighbourhood goes back to its owner's supply."""

    neighbourhood: str


@dataclass(frozen=True)
class StandoffEnded(Event):
    """The Standoff is over: the next waiting one follows, or the next turn (after The Chariot, the
    turn goes on)."""

    neighbourhood: str


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over: a player placed his sixth Renown token, or the King reached the end of his path."""

    winners: tuple[str, ...]
    reason: str  # "renown" | "king"


EVENTS = (
    GameSetUp, TurnBegan, PlotsDrawn, PlotPileReshuffled, PlotPlayed, PlotTaken, RoguePlaced,
    RogueShifted, KingMoved, CoinsTaken, CoinsPaid, CoinsGiven, ActionTaken, RogueDrawn,
    RogueDiscarded, RenownPlaced, RenownReturned, RightHandTaken, TurnEnded, WrathChosen,
    StandoffBegan, SwordsmenChosen, SwordsmenPaid, StandoffWon, RoguesReturned, StandoffEnded, GameEnded,
)
