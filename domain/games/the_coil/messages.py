"""Commands (imperative) and events (past tense) of The Coil."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import Command, Event

# ---------------------------------------------------------------- commands


@dataclass(frozen=True)
class ChooseNation(Command):
    """Setup: choose a nation card that nobody has chosen yet (seat order, p1 first)."""

    nation: str


@dataclass(frozen=True)
class Expand(Command):
    """Expansion: flip the top card of your homeland deck into the Coil."""


@dataclass(frozen=True)
class Muster(Command):
    """Muster: roll the dice your nation card shows into your reserves.
    ``fixed`` is Ignixior's ability: one mustered die takes that value."""

    fixed: int | None = None


@dataclass(frozen=True)
class Recruit(Command):
    """Escalation: roll one die from your population into your reserves."""


@dataclass(frozen=True)
class Scout(Command):
    """Escalation: draw the top card of ``nation``'s homeland deck, flip the next."""

    nation: str


@dataclass(frozen=True)
class Strategize(Command):
    """Escalation: draw the top strategy card onto your old one."""


@dataclass(frozen=True)
class EndEscalation(Command):
    """Escalation: take no more actions this turn."""


@dataclass(frozen=True)
class Deploy(Command):
    """Battle: move a die showing ``value`` from your reserves onto ``region``."""

    value: int
    region: str


@dataclass(frozen=True)
class PlayTactic(Command):
    """Battle: play a tactic card from your hand on dice of your reserves,
    named by their values (ascending, except for swap_pip: raised die first).
    ``value`` is the chosen value of a set_value tactic."""

    card: str
    dice: tuple[int, ...]
    value: int | None = None


@dataclass(frozen=True)
class ShiftDie(Command):
    """Battle, Celestos only, once per Battle phase: raise (up) or lower one die by 1."""

    value: int
    up: bool


@dataclass(frozen=True)
class EndTurn(Command):
    """Battle: pass the turn to the player on your left."""


@dataclass(frozen=True)
class Stop(Command):
    """Battle: say "Stop", ending the Battle phase for everyone."""


@dataclass(frozen=True)
class PlaceRegions(Command):
    """Conquest, when claimed regions overflow an area of your strategy card:
    the regions (ids in increasing order) placed face down on the strategy
    card; your other claimed regions go to your hand as tactics."""

    regions: tuple[str, ...]


@dataclass(frozen=True)
class ChooseStrategy(Command):
    """End of game: choose which of your strategy cards to score."""

    card: str


# ---------------------------------------------------------------- events


@dataclass(frozen=True)
class GameStarted(Event):
    """``nations`` per seat when dealt at random; empty when the seats choose them."""

    seats: tuple[str, ...]
    nations: tuple[str, ...]
    neutral: str | None


@dataclass(frozen=True)
class NationChosen(Event):
    """Setup: a seat took a nation card (seat order, p1 first)."""

    seat: str
    nation: str


@dataclass(frozen=True)
class NeutralNationDrawn(Event):
    """Two players: the third nation, drawn at random from those not chosen."""

    nation: str


@dataclass(frozen=True)
class DeckShuffled(Event):
    """A homeland deck formed (setup) or re-formed from its discard area."""

    nation: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class StrategyDeckShuffled(Event):
    """Setup: the strategy deck shuffled (its order is hidden from every seat)."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class StrategyDrawn(Event):
    """Setup: one strategy card dealt to a seat (seen by that seat only)."""

    seat: str
    card: str | None


@dataclass(frozen=True)
class CardsDrawn(Event):
    """Cards from ``nation``'s homeland deck into ``seat``'s hand (the starting tactics)."""

    seat: str
    nation: str
    cards: tuple[str | None, ...]


@dataclass(frozen=True)
class RoundBegan(Event):
    """A new round (1-4) begins; the northern die is turned to its number."""

    round: int


@dataclass(frozen=True)
class PhaseBegan(Event):
    """``seats``: who must act (simultaneous phases) or the turn order."""

    phase: str
    seats: tuple[str, ...]


@dataclass(frozen=True)
class RegionFlipped(Event):
    """``seat`` flipped the top of ``nation``'s deck into the Coil (None: the neutral nation)."""

    seat: str | None
    nation: str
    card: str


@dataclass(frozen=True)
class DiceMustered(Event):
    """Muster: dice rolled from a seat's population into its reserves."""

    seat: str
    values: tuple[int, ...]
    fixed: int | None


@dataclass(frozen=True)
class Recruited(Event):
    """Escalation: one die rolled from a seat's population into its reserves."""

    seat: str
    value: int


@dataclass(frozen=True)
class Scouted(Event):
    """Escalation: the top card of a homeland deck drawn into a seat's hand, the next flipped into the Coil."""

    seat: str
    nation: str
    card: str | None
    flipped: str | None


@dataclass(frozen=True)
class Strategized(Event):
    """Escalation: the top strategy card drawn onto the seat's old one (seen by that seat only)."""

    seat: str
    card: str | None


@dataclass(frozen=True)
class EscalationTurnEnded(Event):
    """A seat's Escalation turn is over (its actions used up, or EndEscalation)."""

    seat: str


@dataclass(frozen=True)
class ReservesRerolled(Event):
    """First Battle turn with no deployable die: all dice rerolled until one can be deployed."""

    seat: str
    values: tuple[int, ...]
    attempts: int


@dataclass(frozen=True)
class DieDeployed(Event):
    """Battle: a die moved from a seat's reserves onto the top of a region."""

    seat: str
    value: int
    region: str


@dataclass(frozen=True)
class TacticPlayed(Event):
    """Battle: a tactic card played from a hand on dice of the seat's reserves, then discarded."""

    seat: str
    card: str
    dice: tuple[int, ...]
    value: int | None
    reserves: tuple[int, ...]


@dataclass(frozen=True)
class DieShifted(Event):
    """Battle: Celestos' ability raised or lowered one die of its reserves by 1 (once per Battle phase)."""

    seat: str
    value: int
    up: bool


@dataclass(frozen=True)
class BattleTurnEnded(Event):
    """A seat's Battle turn is over; the next seat in the turn order plays."""

    seat: str


@dataclass(frozen=True)
class Stopped(Event):
    """Battle: a seat said Stop, ending the Battle phase for everyone; Conquest follows."""

    seat: str


@dataclass(frozen=True)
class RegionsClaimed(Event):
    """Conquest: (card, area) pairs; area is west, home, east or hand. The
    regions stay in the Coil (with their dice) until DiceReturned."""

    seat: str
    regions: tuple[tuple[str | None, str], ...]


@dataclass(frozen=True)
class RegionsLeftPlay(Event):
    """Two players: the neutral nation collects its undisputed homeland regions."""

    nation: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class DiceReturned(Event):
    """All dice leave the Coil for their populations, except ``kept`` (seat, value)."""

    kept: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class StrategyChosen(Event):
    """End of game: the strategy card a seat scores with (seen by that seat only until the game is over)."""

    seat: str
    card: str | None


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over after round 4: scores and standings are final."""


COMMANDS = (ChooseNation, Expand, Muster, Recruit, Scout, Strategize, EndEscalation, Deploy, PlayTactic, ShiftDie,
            EndTurn, Stop, PlaceRegions, ChooseStrategy)
EVENTS = (GameStarted, NationChosen, NeutralNationDrawn, DeckShuffled, StrategyDeckShuffled, StrategyDrawn, CardsDrawn, RoundBegan, PhaseBegan,
          RegionFlipped, DiceMustered, Recruited, Scouted, Strategized, EscalationTurnEnded, ReservesRerolled,
          DieDeployed, TacticPlayed, DieShifted, BattleTurnEnded, Stopped, RegionsClaimed, RegionsLeftPlay,
          DiceReturned, StrategyChosen, GameEnded)
