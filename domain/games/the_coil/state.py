"""The state of a game of The Coil: frozen, compared with ==, folded from events."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .data import CARDS, DICE_PER_NATION, NATION_IDS, NATIONS, STRATEGIES


SIMULTANEOUS = ("expansion", "muster", "conquest", "choose")


@dataclass(frozen=True)
class Region:
    """A homeland card in the Coil and the dice on its deployment area, bottom first."""

    card: str
    dice: tuple[tuple[str, int], ...] = ()

    @property
    def nation(self) -> str:
        return CARDS[self.card].nation

    @property
    def full(self) -> bool:
        return len(self.dice) >= CARDS[self.card].slots


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    nations: tuple[str | None, ...]             # per seat (None until chosen)
    neutral: str | None = None                  # two players: the third nation
    round: int = 0                              # = the northern die
    phase: str = "setup"                        # nations expansion muster escalation battle conquest choose over
    pending: tuple[str, ...] = ()               # simultaneous phases: who has still to act
    order: tuple[str, ...] = ()                 # escalation / battle: turn order
    turn: int = 0                               # index into order
    actions_left: int = 0                       # escalation: actions left this turn
    had_turn: tuple[str, ...] = ()              # battle: seats who have ended a turn
    acted: bool = False                         # battle: the current seat did something this turn
    deployed: bool = False                      # battle: the current seat deployed this turn
    shifted: tuple[str, ...] = ()               # battle: seats who used Celestos' ability
    decks: tuple[tuple[str, ...], ...] = ()     # per nation (NATION_IDS order), top first
    discards: tuple[tuple[str, ...], ...] = ()  # per nation, oldest first
    strategy_deck: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()     # per seat
    strategies: tuple[tuple[str, ...], ...] = ()  # per seat, oldest first (the newest governs)
    chosen: tuple[str | None, ...] = ()         # per seat: strategy card chosen at the end
    reserves: tuple[tuple[int, ...], ...] = ()  # per seat, sorted die values
    claimed: tuple[tuple[tuple[str, str], ...], ...] = ()  # per seat: (card, area)
    coil: tuple[Region, ...] = ()

    # ------------------------------------------------------------ lookups

    def index(self, seat: str) -> int:
        return self.seats.index(seat)

    def nation_of(self, seat: str) -> str:
        return self.nations[self.seats.index(seat)]

    def seat_of_nation(self, nation: str) -> str | None:
        return self.seats[self.nations.index(nation)] if nation in self.nations else None

    def table(self) -> tuple[str, ...]:
        """Nations clockwise around the table (the neutral nation after the last seat)."""
        return tuple(n for n in self.nations if n) + ((self.neutral,) if self.neutral else ())

    def west_of(self, seat: str) -> str:
        """The nation on the seat's left (the next clockwise): its western border."""
        table = self.table()
        return table[(self.index(seat) + 1) % len(table)]

    def east_of(self, seat: str) -> str:
        table = self.table()
        return table[(self.index(seat) - 1) % len(table)]

    def area_for(self, seat: str, nation: str) -> str | None:
        if nation == self.nation_of(seat):
            return "home"
        if nation == self.west_of(seat):
            return "west"
        if nation == self.east_of(seat):
            return "east"
        return None

    def deck(self, nation: str) -> tuple[str, ...]:
        return self.decks[NATION_IDS.index(nation)]

    def discard(self, nation: str) -> tuple[str, ...]:
        return self.discards[NATION_IDS.index(nation)]

    def hand(self, seat: str) -> tuple[str, ...]:
        return self.hands[self.index(seat)]

    def reserve(self, seat: str) -> tuple[int, ...]:
        return self.reserves[self.index(seat)]

    def claims(self, seat: str) -> tuple[tuple[str, str], ...]:
        return self.claimed[self.index(seat)]

    def strategy(self, seat: str) -> str:
        """The strategy card that governs the seat's capacities: the chosen one, else the newest."""
        chosen = self.chosen[self.index(seat)]
        return chosen if chosen else self.strategies[self.index(seat)][-1]

    def room_in(self, seat: str, area: str) -> int:
        used = sum(1 for _, where in self.claims(seat) if where == area)
        return STRATEGIES[self.strategy(seat)].capacity_of(area) - used

    def on_coil(self, seat: str) -> int:
        return sum(1 for region in self.coil for owner, _ in region.dice if owner == seat)

    def population(self, seat: str) -> int:
        return DICE_PER_NATION - len(self.reserve(seat)) - self.on_coil(seat)

    def region(self, card: str) -> Region | None:
        for region in self.coil:
            if region.card == card:
                return region
        return None

    def current(self) -> str | None:
        if self.phase in ("nations", "escalation", "battle") and self.turn < len(self.order):
            return self.order[self.turn]
        return None

    def to_act(self) -> frozenset[str]:
        if self.phase in SIMULTANEOUS:
            return frozenset(self.pending)
        current = self.current()
        return frozenset((current,)) if current else frozenset()

    def is_ability(self, seat: str, ability: str) -> bool:
        return NATIONS[self.nation_of(seat)].ability == ability

    def stop_allowed(self) -> bool:
        """After everyone has had a turn, at the start of one's turn."""
        return len(self.had_turn) == len(self.seats) and not self.acted


def escalation_actions(state: State, seat: str) -> int:
    """The northern die's value; Shakoom's ability adds one."""
    return state.round + (1 if state.is_ability(seat, "war_drums") else 0)


def put(values: tuple, i: int, value) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


def remove_one(values: tuple, value) -> tuple:
    i = values.index(value)
    return values[:i] + values[i + 1:]


def with_seat(state: State, field: str, seat: str, value) -> State:
    return replace(state, **{field: put(getattr(state, field), state.index(seat), value)})


def with_nation(state: State, field: str, nation: str, value) -> State:
    return replace(state, **{field: put(getattr(state, field), NATION_IDS.index(nation), value)})


def wrap(value: int) -> int:
    """Die values wrap: 7 is 1, 0 is 6."""
    return (value - 1) % 6 + 1
