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
    """The table is laid out: seats, heroes dealt (unless chosen), decks shuffled, every wild place's adventure
    counter and the market."""
    seats: tuple[str, ...]
    heroes: tuple[str, ...]
    decks: dict
    counters: tuple[str, ...]
    market: tuple[str, ...]
    doom_rounds: int


@dataclass(frozen=True)
class HeroChosen(Event):
    """A seat chose its hero (in seat order); the first turn begins once every seat has one."""
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
    """The active hero walked to a place (or stayed); the adventure step follows if a counter lies there, else
    the experience step."""
    seat: str
    place: str


@dataclass(frozen=True)
class AdventureSkipped(Event):
    """The hero left the adventure counter where it lies, or the adventure came to nothing (its decks ran out);
    the experience step follows."""
    seat: str


@dataclass(frozen=True)
class CardDrawn(Event):
    """A card was drawn from the top of a deck for an adventure."""
    seat: str
    deck: str
    card: str


@dataclass(frozen=True)
class CardDiscarded(Event):
    """A drawn Runebound encounter or event, discarded unresolved (Crown replacement)."""
    card: str


@dataclass(frozen=True)
class CountersReplenished(Event):
    """An event put adventure counters back on the starburst places that had lost theirs."""
    places: tuple[str, ...]


@dataclass(frozen=True)
class EncounterResolved(Event):
    """An encounter card took effect on the hero who drew it, after its test if it has one; passing wins the
    adventure counter."""
    seat: str
    card: str
    dice: tuple[int, ...]
    passed: bool


@dataclass(frozen=True)
class EventResolved(Event):
    """An event card took effect on every hero still in play; the adventure counter stays on the map."""
    seat: str
    card: str


@dataclass(frozen=True)
class CombatBegan(Event):
    """A combat began: a hero against a challenge card or a Vassal, or a challenger against the Elder King."""
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
    """Between heroes: the challenger chose, secretly, to attack or defend in this phase; the Elder King answers
    without knowing it."""
    seat: str
    action: str


@dataclass(frozen=True)
class Struck(Event):
    """A hero attacked in a combat phase: 2d10 plus the hero's attack value against the number needed."""
    seat: str
    phase: str
    dice: tuple[int, ...]
    total: int
    needed: int
    hit: bool
    damage: int


@dataclass(frozen=True)
class Suffered(Event):
    """A hero took wounds and exhaustion (exhaustion beyond stamina becomes wounds); a fighting ally may take
    the wounds first."""
    seat: str
    wounds: int
    exhaustion: int
    ally: str | None = None
    ally_wounds: int = 0


@dataclass(frozen=True)
class PhaseEnded(Event):
    """A combat phase was fought; the combat goes on in the phase and round named."""
    phase: str
    round: int


@dataclass(frozen=True)
class EnemyDefeated(Event):
    """A hero defeated the challenge card of an adventure: it is kept as a trophy, its gold won and the
    adventure counter taken."""
    seat: str
    card: str
    gold: int


@dataclass(frozen=True)
class Retreated(Event):
    """The hero left an adventure combat; the card goes back under its deck."""
    seat: str


@dataclass(frozen=True)
class CardReturned(Event):
    """An undefeated challenge card went back into its deck (under it, or just above Lord Margath)."""
    deck: str
    card: str
    position: int


@dataclass(frozen=True)
class HeroKnockedOut(Event):
    """Outside the Endgame, a hero's wounds reached his life: wounds and exhaustion discarded, half his gold
    lost, and he wakes in the nearest town."""
    seat: str
    place: str
    gold_lost: int


@dataclass(frozen=True)
class Healed(Event):
    """In a town's market, a hero paid to heal a wound."""
    seat: str
    wounds: int
    gold: int


@dataclass(frozen=True)
class Bought(Event):
    """In a town's market, a hero bought an item or hired an ally."""
    seat: str
    card: str
    gold: int


@dataclass(frozen=True)
class ItemUsed(Event):
    """A hero exhausted a healing item to heal wounds."""
    seat: str
    item: str
    healed: int


@dataclass(frozen=True)
class ExperienceGained(Event):
    """A hero spent adventure counters for an experience counter, raising one of his values and his level."""
    seat: str
    kind: str
    spent: tuple[str, ...]


@dataclass(frozen=True)
class TurnEnded(Event):
    """A hero's turn ended; the Endgame begins if he holds a set, else the next seat's turn."""
    seat: str


@dataclass(frozen=True)
class DoomFell(Event):
    """Nobody became Elder King: the doom_rounds limit passed (``reason`` "doom_rounds"), or no
    adventure is left anywhere on the map, so that nothing can change any more ("no_adventure_left")."""
    round: int
    reason: str = "doom_rounds"


@dataclass(frozen=True)
class EndgameBegan(Event):
    """A hero ended his turn holding a set: he claims the crown, and the others will challenge him in the order
    given."""
    king: str
    challengers: tuple[str, ...]
    levels: tuple[int, ...]
    random_tiebreak: tuple[str, ...]


@dataclass(frozen=True)
class ElderKingCrowned(Event):
    """A hero became the Elder King, discarding his Dragon Lords and Lord Margath; he places his Vassals next."""
    seat: str
    discarded: tuple[str, ...]


@dataclass(frozen=True)
class VassalPlaced(Event):
    """The Elder King placed one of his Vassals next in line against the challengers."""
    seat: str
    vassal: str


@dataclass(frozen=True)
class VassalsPlaced(Event):
    """The Elder King finished placing his Vassals; the Confrontation begins."""
    seat: str


@dataclass(frozen=True)
class ConfrontationBegan(Event):
    """All wounds and exhaustion discarded from Heroes, Allies and Vassals; all cards refreshed."""
    seat: str


@dataclass(frozen=True)
class VassalDefeated(Event):
    """A challenger defeated a Vassal in the Elder King's line; it is discarded and he fights the next."""
    seat: str
    vassal: str


@dataclass(frozen=True)
class HeroEliminated(Event):
    """In the Endgame, a hero's wounds reached his life: he is out of the game."""
    seat: str


@dataclass(frozen=True)
class GameWon(Event):
    """The last Elder King won the game."""
    seat: str


EVENTS = (GameStarted, HeroChosen, TurnBegan, Moved, AdventureSkipped, CardDrawn, CardDiscarded, CountersReplenished,
          EncounterResolved, EventResolved, CombatBegan, RoundBegan, ActionDeclared, Struck, Suffered,
          PhaseEnded, EnemyDefeated, Retreated, CardReturned, HeroKnockedOut, Healed, Bought, ItemUsed,
          ExperienceGained, TurnEnded, DoomFell, EndgameBegan, ElderKingCrowned, VassalPlaced, VassalsPlaced,
          ConfrontationBegan, VassalDefeated, HeroEliminated, GameWon)
