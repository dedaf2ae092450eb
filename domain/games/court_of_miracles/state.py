"""The state of a game of The Court of Miracles, and the queries on it.

Phases: "place" (step 1, plot cards allowed), "act" (steps 2-3 done or waiting:
neighbourhood action, plot cards, EndTurn), "recruit" (a drawn rogue waits for
DiscardRogue), "wrath" (the active player names the second Wrath Standoff),
"standoffs" (several Standoffs wait for the active player's order),
"standoff" (one is being settled: Swordsmen, then a Courtesan's choice), "over"."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .data import INDEX, NEIGHBOURHOOD_IDS, STRENGTH, SWORDSMAN

Occupant = tuple  # (owner seat, rogue kind)


@dataclass(frozen=True)
class Player:
    seat: str
    coins: int = 0
    hand: tuple[str, ...] = ()
    supply: tuple[str, ...] = ()  # rogue kinds not in play, sorted
    right_hand_parked: bool = True
    lines: tuple[int, ...] = ()  # Renown Square lines holding this player's Renown, sorted


@dataclass(frozen=True)
class Turn:
    placed_neighbourhood: str | None = None
    placed_spot: int | None = None
    plot_played: bool = False  # one Plot card per turn
    devil: bool = False
    magician: bool = False
    action_done: bool = False
    king_stopped: bool = False
    wrath: str | None = None  # neighbourhood pointed at by a Wrath space reached this turn


@dataclass(frozen=True)
class Standoff:
    neighbourhood: str
    rogues: tuple[tuple[str, int, str], ...]  # (owner, spot, kind), by spot
    chariot: bool
    resume: str  # phase to go back to after a Chariot's Standoff
    awaiting: tuple[str, ...]  # seats still to say how many Swordsmen they pay
    chosen: tuple[tuple[str, int], ...] = ()  # sealed answers (seat, Swordsmen to pay)
    paid: tuple[tuple[str, int], ...] = ()  # payments made public once all have answered
    won: bool = False
    winner: str | None = None


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    players: tuple[Player, ...]
    reserve: int
    board: tuple[tuple[Occupant | None, ...], ...]  # [neighbourhood][spot - 1]
    controllers: tuple[str | None, ...]  # per neighbourhood
    king: int = 0
    pile: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()
    bag: tuple[str, ...] = ()
    seine: tuple[str, ...] = ()
    active: str = ""
    phase: str = "place"
    turn: Turn = Turn()
    queue: tuple[str, ...] = ()  # Standoffs waiting at the end of the turn
    standoff: Standoff | None = None
    drawn: str | None = None  # rogue drawn from the bag, waiting for DiscardRogue
    resume: str = "place"  # phase after the DiscardRogue
    winners: tuple[str, ...] = ()
    end_reason: str | None = None
    # Rules version 2 on: a Plot card may be played at any moment of one's own
    # turn outside a Standoff (also while choosing the Wrath neighbourhood,
    # ordering Standoffs, or keeping a recruited rogue). Set on the first
    # state by the rules version's switches (rules.switches).
    plot_any_moment: bool = True

    # ---------------------------------------------------------- players
    def player(self, seat: str) -> Player:
        return self.players[self.seats.index(seat)]

    def with_player(self, seat: str, **changes) -> "State":
        i = self.seats.index(seat)
        players = list(self.players)
        players[i] = replace(players[i], **changes)
        return replace(self, players=tuple(players))

    def next_seat(self, seat: str) -> str:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def controlled(self, seat: str) -> int:
        return sum(1 for c in self.controllers if c == seat)

    def renown_placed(self, seat: str) -> int:
        return self.controlled(seat) + len(self.player(seat).lines)

    # ------------------------------------------------------------ board
    def occupant(self, neighbourhood: str, spot: int) -> Occupant | None:
        return self.board[INDEX[neighbourhood]][spot - 1]

    def controller(self, neighbourhood: str) -> str | None:
        return self.controllers[INDEX[neighbourhood]]

    def spots(self):
        """(neighbourhood, spot, occupant) for every spot of the board."""
        for n, row in zip(NEIGHBOURHOOD_IDS, self.board):
            for i, occupant in enumerate(row):
                yield n, i + 1, occupant

    def free_spots(self) -> list[tuple[str, int]]:
        return [(n, s) for n, s, o in self.spots() if o is None]

    def full(self, neighbourhood: str) -> bool:
        return all(o is not None for o in self.board[INDEX[neighbourhood]])

    def rogues_in(self, neighbourhood: str) -> tuple[tuple[str, int, str], ...]:
        row = self.board[INDEX[neighbourhood]]
        return tuple((o[0], i + 1, o[1]) for i, o in enumerate(row) if o is not None)

    def on_board(self, seat: str) -> list[tuple[str, int]]:
        return [(n, s) for n, s, o in self.spots() if o is not None and o[0] == seat]


def swordsman_askers(state: State, rogues) -> tuple[str, ...]:
    """Seats with a Swordsman in the Standoff who could pay for it."""
    seats = {owner for owner, _, kind in rogues if kind == "swordsman"}
    return tuple(s for s in state.seats if s in seats and state.player(s).coins >= SWORDSMAN["price"])


def totals(standoff: Standoff) -> dict[str, int]:
    paid = dict(standoff.paid)
    result: dict[str, int] = {}
    for owner, _, kind in standoff.rogues:
        strength = STRENGTH[kind]
        if kind == "swordsman" and paid.get(owner, 0) > 0:
            paid[owner] -= 1
            strength = SWORDSMAN["paid_strength"]
        result[owner] = result.get(owner, 0) + strength
    return result


def standoff_winner(standoff: Standoff) -> tuple[str | None, dict[str, int]]:
    """Highest total wins; a tie goes to the tied player whose rogue is closest to the symbol."""
    scores = totals(standoff)
    if not scores:
        return None, scores
    best = max(scores.values())
    tied = {seat for seat, total in scores.items() if total == best}
    closest = min((spot, owner) for owner, spot, _ in standoff.rogues if owner in tied)
    return closest[1], scores


def king_winners(state: State) -> tuple[str, ...]:
    """King ending: most Renown placed, then most neighbourhoods controlled; else shared."""
    key = {s: (state.renown_placed(s), state.controlled(s)) for s in state.seats}
    best = max(key.values())
    return tuple(s for s in state.seats if key[s] == best)
