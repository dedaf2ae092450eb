"""The state of a game of Coronation and the fold ``evolve`` that builds it.

The route is stored the way the public sees it: the card Lind leaves when he
moves on (or the turn-skip card when he hides) lies on the route card he was
on, i.e. on the last route card at that moment. ``evolve`` never rolls and
never raises on a stored event."""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import messages as m
from .data import BOARD

TURN_SKIP = "turn-skip"
TICKET = "ticket"
NOTE = "note"

# Phases
SETUP = "setup"
APPEAR = "appear"
LIND = "lind"
DETECTIVES = "detectives"
EXTRAORDINARY = "extraordinary"
OVER = "over"


@dataclass(frozen=True)
class Detective:
    id: str
    seat: str
    location: int | None = None
    equipped: bool = False
    tickets: int = 0
    instruments: tuple[str, ...] = ()
    stunned: bool = False  # loses his next action
    at_special: bool = False  # his last action ended on a special location


@dataclass(frozen=True)
class RouteCard:
    location: int
    hide: bool = False  # a decoy card under a turn-skip: Lind was never there
    card: str | None = None  # the card lying on it once Lind moved on
    location_shown: bool = False
    card_shown: bool = False
    spent: bool = False  # its trap has acted


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    last_turn: int
    equipment: str
    shared: bool
    detectives: tuple[Detective, ...]
    hand: tuple[tuple[str, int], ...]  # Lind's cards by kind
    deck: tuple[tuple[str, int], ...]  # detective cards not yet dealt
    phase: str = SETUP
    turn: int = 0
    acted: tuple[str, ...] = ()
    route: tuple[RouteCard, ...] = ()
    lind_at: int | None = None
    stolen: tuple[int, ...] = ()
    winner: str | None = None
    result: str | None = None
    decoys: tuple[int, ...] = ()  # every location where Lind dropped a decoy, in order
    # Rules version 2 on: a decoy location stays closed to Lind for the rest of
    # the game. Set from the Rules object's version when the state is created.
    decoys_stay_closed: bool = True
    retired: tuple[str, ...] = ()  # detective seats that resigned and handed their detectives over

    def detective(self, detective_id: str) -> Detective | None:
        for detective in self.detectives:
            if detective.id == detective_id:
                return detective
        return None

    def count(self, card: str) -> int:
        return dict(self.hand).get(card, 0)

    @property
    def cards_left(self) -> int:
        return sum(n for _, n in self.hand)

    @property
    def on_table(self) -> frozenset[int]:
        return frozenset(card.location for card in self.route)

    @property
    def closed_to_lind(self) -> frozenset[int]:
        """Locations Lind may not enter: every card on the table, and under
        rules version 2 every location he ever dropped a decoy on, even one
        whose card an extraordinary move took off the table."""
        return self.on_table | frozenset(self.decoys) if self.decoys_stay_closed else self.on_table

    @property
    def detective_locations(self) -> frozenset[int]:
        return frozenset(d.location for d in self.detectives if d.location is not None)

    @property
    def jewels_left(self) -> int:
        return len(BOARD.jewels) - len(self.stolen)


def lind_deck() -> tuple[tuple[str, int], ...]:
    cards = {NOTE: BOARD.lind_notes, TICKET: BOARD.lind_tickets, TURN_SKIP: BOARD.lind_turn_skips}
    cards.update({trap: BOARD.lind_each_trap for trap in BOARD.traps})
    return tuple(sorted(cards.items()))


def detective_deck() -> tuple[tuple[str, int], ...]:
    cards = {TICKET: BOARD.deck_tickets}
    cards.update({tool: BOARD.deck_each_instrument for tool in BOARD.instruments})
    return tuple(sorted(cards.items()))


def _take(pile: tuple[tuple[str, int], ...], card: str | None) -> tuple[tuple[str, int], ...]:
    if card is None:
        return pile
    return tuple((kind, max(0, n - 1) if kind == card else n) for kind, n in pile)


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    if item not in items:
        return items
    index = items.index(item)
    return items[:index] + items[index + 1 :]


def _set_detective(state: State, detective_id: str, **changes) -> State:
    return replace(
        state,
        detectives=tuple(replace(d, **changes) if d.id == detective_id else d for d in state.detectives),
    )


def _set_route(state: State, index: int, **changes) -> State:
    if not 0 <= index < len(state.route):
        return state
    route = list(state.route)
    route[index] = replace(route[index], **changes)
    return replace(state, route=tuple(route))


def _acted(state: State, detective_id: str) -> tuple[str, ...]:
    return state.acted if detective_id in state.acted else state.acted + (detective_id,)


def _steal(state: State, stole: bool) -> tuple[int, ...]:
    if stole and state.lind_at is not None and state.lind_at not in state.stolen:
        return state.stolen + (state.lind_at,)
    return state.stolen


def evolve(state: State | None, event: m.Event) -> State | None:
    handler = _HANDLERS.get(type(event))
    if handler is None or (state is None and not isinstance(event, m.GameStarted)):
        return state
    return handler(state, event)


def _started(state, e: m.GameStarted) -> State:
    return State(
        seats=tuple(e.seats),
        last_turn=e.last_turn,
        equipment=e.equipment,
        shared=e.shared_control,
        detectives=tuple(Detective(id=d, seat=seat) for d, seat in e.control),
        hand=lind_deck(),
        deck=detective_deck(),
    )


def _after_setup_step(state: State) -> State:
    if state.phase == SETUP and all(d.equipped and d.location is not None for d in state.detectives):
        return replace(state, phase=APPEAR)
    return state


def _equipped(state: State, e: m.DetectiveEquipped) -> State:
    deck = state.deck
    for card in e.cards:
        deck = _take(deck, card)
    tools = tuple(card for card in e.cards if card != TICKET)
    state = _set_detective(
        state, e.detective, equipped=True, tickets=e.cards.count(TICKET), instruments=tools
    )
    return _after_setup_step(replace(state, deck=deck))


def _placed(state: State, e: m.DetectivePlaced) -> State:
    return _after_setup_step(_set_detective(state, e.detective, location=e.location))


def _appeared(state: State, e: m.LindAppeared) -> State:
    return replace(state, route=(RouteCard(e.location),), lind_at=e.location, turn=1, phase=LIND)


def _lind_moved(state: State, e: m.LindMoved) -> State:
    hide = e.by == "hide"
    route = state.route
    if route:
        route = route[:-1] + (replace(route[-1], card=e.card),)
    route = route + (RouteCard(e.to, hide=hide),)
    stunned = tuple(d.id for d in state.detectives if d.stunned)
    detectives = tuple(
        replace(d, stunned=False, at_special=False) if d.stunned else d for d in state.detectives
    )
    return replace(
        state,
        route=route,
        hand=_take(state.hand, e.card),
        stolen=_steal(state, e.stole),
        lind_at=state.lind_at if hide else e.to,
        decoys=state.decoys + (e.to,) if hide else state.decoys,
        detectives=detectives,
        acted=stunned,
        phase=DETECTIVES,
    )


def _extraordinary(state: State, e: m.LindMovedExtraordinarily) -> State:
    state = replace(state, phase=DETECTIVES)
    if e.to is None or not state.route:
        return state
    return replace(
        state,
        route=state.route[:-1] + (RouteCard(e.to),),
        stolen=_steal(state, e.stole),
        lind_at=e.to,
    )


def _detective_moved(state: State, e: m.DetectiveMoved) -> State:
    detective = state.detective(e.detective)
    if detective is None:
        return state
    tickets = detective.tickets - 1 if e.by == "cab" else detective.tickets
    location = BOARD.locations.get(e.to)
    special = location is not None and location.instrument is not None
    state = _set_detective(
        state, e.detective, location=e.to, tickets=max(0, tickets), at_special=special
    )
    return replace(state, acted=_acted(state, e.detective))


def _gathered(state: State, e: m.InformationGathered) -> State:
    detective = state.detective(e.detective)
    if detective is None:
        return state
    state = _set_detective(
        state, e.detective, instruments=_without(detective.instruments, e.instrument), at_special=False
    )
    return replace(state, acted=_acted(state, e.detective))


def _revealed(state: State, e: m.RouteCardRevealed) -> State:
    if not 0 <= e.index < len(state.route):
        return state
    shown = state.route[e.index].card_shown or e.card_shown
    return _set_route(state, e.index, location_shown=True, card_shown=shown)


def _defused(state: State, e: m.TrapDefused) -> State:
    detective = state.detective(e.detective)
    if detective is not None:
        state = _set_detective(state, e.detective, instruments=_without(detective.instruments, e.instrument))
    return _set_route(state, e.index, spent=True)


def _suffered(state: State, e: m.TrapSuffered) -> State:
    detective = state.detective(e.detective)
    if detective is not None:
        if e.effect == "lose-next-action":
            state = _set_detective(state, e.detective, stunned=True)
        elif e.effect == "discard-ticket":
            state = _set_detective(state, e.detective, tickets=max(0, detective.tickets - 1))
    state = _set_route(state, e.index, spent=True)
    return replace(state, phase=EXTRAORDINARY) if e.extraordinary else state


def _turn_ended(state: State, e: m.TurnEnded) -> State:
    return replace(state, turn=e.turn + 1, phase=LIND, acted=())


def _caught(state: State, e: m.LindCaught) -> State:
    place = BOARD.name(e.location) if e.location in BOARD.locations else str(e.location)
    if e.detective is None:
        result = f"The detectives win: Doctor Lind had no legal action at {place} and was caught"
    else:
        who = BOARD.detective_names.get(e.detective, e.detective)
        result = f"The detectives win: {who} caught Doctor Lind at {place}"
    return replace(state, phase=OVER, winner="detectives", result=result)


def _won(state: State, e: m.LindWon) -> State:
    if e.reason == "jewels":
        result = "Doctor Lind wins: he stole every coronation jewel"
    else:
        result = f"Doctor Lind wins: turn {state.last_turn} ended and he was never caught"
    return replace(state, phase=OVER, winner="lind", result=result)


def _lind_resigned(state: State, e: m.LindResigned) -> State:
    return replace(state, phase=OVER, winner="detectives", result="The detectives win: Doctor Lind resigned")


def _handed_over(state: State, e: m.DetectivesHandedOver) -> State:
    control = dict(e.control)
    detectives = tuple(replace(d, seat=control.get(d.id, d.seat)) for d in state.detectives)
    retired = state.retired + (e.seat,) if e.control or state.shared else state.retired
    return replace(state, detectives=detectives, retired=retired)


_HANDLERS = {
    m.GameStarted: _started,
    m.DetectiveEquipped: _equipped,
    m.DetectivePlaced: _placed,
    m.LindAppeared: _appeared,
    m.LindMoved: _lind_moved,
    m.LindMovedExtraordinarily: _extraordinary,
    m.DetectiveMoved: _detective_moved,
    m.InformationGathered: _gathered,
    m.RouteCardRevealed: _revealed,
    m.TrapDefused: _defused,
    m.TrapSuffered: _suffered,
    m.TurnEnded: _turn_ended,
    m.LindCaught: _caught,
    m.LindWon: _won,
    m.LindResigned: _lind_resigned,
    m.DetectivesHandedOver: _handed_over,
}
