"""Commands (imperative) and events (past tense) of Runebound: Crown of the Elder Kings."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import Command, Event

# Commands


@dataclass(frozen=True)
class ChooseHero(Command):
    """Choose your hero (in seat order, before the first turn)."""
    hero: str


@dataclass(frozen=True)
class MoveTo(Command):
    """Movement step: walk to a place at most the rolled number of roads away (your own place to stay)."""
    place: str


@dataclass(frozen=True)
class Adventure(Command):
    """Attempt the adventure counter where your hero stands."""


@dataclass(frozen=True)
class SkipAdventure(Command):
    """Adventure step: leave the adventure counter where it is."""


@dataclass(frozen=True)
class Attack(Command):
    """Combat: attack in this phase (2d10 + your attack value against the target)."""


@dataclass(frozen=True)
class Defend(Command):
    """Combat: defend in this phase (take no damage; costs exhaustion)."""


@dataclass(frozen=True)
class Retreat(Command):
    """Combat: leave an adventure combat before its second or a later round."""


@dataclass(frozen=True)
class Heal(Command):
    """In a town's market: pay to heal one wound."""


@dataclass(frozen=True)
class Buy(Command):
    """Market (in a town): buy an item or ally."""
    card: str


@dataclass(frozen=True)
class UseItem(Command):
    """Exhaust a healing item to heal wounds (outside combat, on your turn)."""
    item: str


@dataclass(frozen=True)
class GainExperience(Command):
    """Experience step: spend adventure counters for an experience counter (mind, body, spirit, stamina or life)."""
    kind: str


@dataclass(frozen=True)
class EndTurn(Command):
    """End your turn after the Experience step (the Endgame begins if you hold a set)."""


@dataclass(frozen=True)
class PlaceVassal(Command):
    """Elder King: place one of your Vassals next in line (up to three)."""
    vassal: str


@dataclass(frozen=True)
class FinishPlacing(Command):
    """Elder King: done placing Vassals; the Confrontation begins."""


COMMANDS = (ChooseHero, MoveTo, Adventure, SkipAdventure, Attack, Defend, Retreat, Heal, Buy, UseItem,
            GainExperience, EndTurn, PlaceVassal, FinishPlacing)

# Events


@dataclass(frozen=True)
class GameStarted(Event):
    seats: tuple[str, ...]
    heroes: tuple[str, ...]
    decks: dict
    counters: tuple[str, ...]
    market: tuple[str, ...]
    doom_rounds: int


@dataclass(frozen=True)
class HeroChosen(Event):
    seat: str
    hero: str


@dataclass(frozen=True)
class TurnBegan(Event):
    """Refresh step done (cards readied, exhaustion discarded); movement rolled."""
    seat: str
    round: int
    movement: int


@dataclass(frozen=True)
class Moved(Event):
    seat: str
    place: str


@dataclass(frozen=True)
class AdventureSkipped(Event):
    seat: str


@dataclass(frozen=True)
class CardDrawn(Event):
    seat: str
    deck: str
    card: str


@dataclass(frozen=True)
class CardDiscarded(Event):
    """A drawn Runebound encounter or event, discarded unresolved (Crown replacement)."""
    card: str


@dataclass(frozen=True)
class CountersReplenished(Event):
    places: tuple[str, ...]


@dataclass(frozen=True)
class EncounterResolved(Event):
    seat: str
    card: str
    dice: tuple[int, ...]
    passed: bool


@dataclass(frozen=True)
class EventResolved(Event):
    seat: str
    card: str


@dataclass(frozen=True)
class CombatBegan(Event):
    seat: str
    enemy: str | None
    opponent: str | None
    allies: tuple[str, ...]
    opponent_allies: tuple[str, ...]


@dataclass(frozen=True)
class RoundBegan(Event):
    """A Vassal's start-of-round text took effect."""
    seat: str
    enemy: str


@dataclass(frozen=True)
class ActionDeclared(Event):
    seat: str
    action: str


@dataclass(frozen=True)
class Struck(Event):
    seat: str
    phase: str
    dice: tuple[int, ...]
    total: int
    needed: int
    hit: bool
    damage: int


@dataclass(frozen=True)
class Suffered(Event):
    seat: str
    wounds: int
    exhaustion: int
    ally: str | None = None
    ally_wounds: int = 0


@dataclass(frozen=True)
class PhaseEnded(Event):
    phase: str
    round: int


@dataclass(frozen=True)
class EnemyDefeated(Event):
    seat: str
    card: str
    gold: int


@dataclass(frozen=True)
class Retreated(Event):
    seat: str


@dataclass(frozen=True)
class CardReturned(Event):
    deck: str
    card: str
    position: int


@dataclass(frozen=True)
class HeroKnockedOut(Event):
    seat: str
    place: str
    gold_lost: int


@dataclass(frozen=True)
class Healed(Event):
    seat: str
    wounds: int
    gold: int


@dataclass(frozen=True)
class Bought(Event):
    seat: str
    card: str
    gold: int


@dataclass(frozen=True)
class ItemUsed(Event):
    seat: str
    item: str
    healed: int


@dataclass(frozen=True)
class ExperienceGained(Event):
    seat: str
    kind: str
    spent: tuple[str, ...]


@dataclass(frozen=True)
class TurnEnded(Event):
    seat: str


@dataclass(frozen=True)
class DoomFell(Event):
    """Nobody became Elder King: the doom_rounds limit passed (``reason`` "doom_rounds"), or no
    adventure is left anywhere on the map, so that nothing can change any more ("no_adventure_left")."""
    round: int
    reason: str = "doom_rounds"


@dataclass(frozen=True)
class EndgameBegan(Event):
    king: str
    challengers: tuple[str, ...]
    levels: tuple[int, ...]
    random_tiebreak: tuple[str, ...]


@dataclass(frozen=True)
class ElderKingCrowned(Event):
    seat: str
    discarded: tuple[str, ...]


@dataclass(frozen=True)
class VassalPlaced(Event):
    seat: str
    vassal: str


@dataclass(frozen=True)
class VassalsPlaced(Event):
    seat: str


@dataclass(frozen=True)
class ConfrontationBegan(Event):
    """All wounds and exhaustion discarded from Heroes, Allies and Vassals; all cards refreshed."""
    seat: str


@dataclass(frozen=True)
class VassalDefeated(Event):
    seat: str
    vassal: str


@dataclass(frozen=True)
class HeroEliminated(Event):
    seat: str


@dataclass(frozen=True)
class GameWon(Event):
    seat: str


EVENTS = (GameStarted, HeroChosen, TurnBegan, Moved, AdventureSkipped, CardDrawn, CardDiscarded, CountersReplenished,
          EncounterResolved, EventResolved, CombatBegan, RoundBegan, ActionDeclared, Struck, Suffered,
          PhaseEnded, EnemyDefeated, Retreated, CardReturned, HeroKnockedOut, Healed, Bought, ItemUsed,
          ExperienceGained, TurnEnded, DoomFell, EndgameBegan, ElderKingCrowned, VassalPlaced, VassalsPlaced,
          ConfrontationBegan, VassalDefeated, HeroEliminated, GameWon)
