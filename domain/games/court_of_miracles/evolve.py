"""The fold: one event applied to the state. Never random, never raises on a stored event."""

from __future__ import annotations

from dataclasses import replace

from . import messages as m
from .data import COINS_RESERVE, INDEX, NEIGHBOURHOODS, STARTING_SET, SWORDSMAN, starting_coins
from .state import Player, Standoff, State, Turn, swordsman_askers


def _remove_one(items: tuple, item) -> tuple:
    items = list(items)
    if item in items:
        items.remove(item)
    return tuple(items)


def _set_spot(state: State, neighbourhood: str, spot: int, occupant) -> State:
    board = [list(row) for row in state.board]
    board[INDEX[neighbourhood]][spot - 1] = occupant
    return replace(state, board=tuple(tuple(row) for row in board))


def _set_controller(state: State, neighbourhood: str, seat: str | None) -> State:
    controllers = list(state.controllers)
    controllers[INDEX[neighbourhood]] = seat
    return replace(state, controllers=tuple(controllers))


def _coins(state: State, seat: str, delta: int) -> State:
    return state.with_player(seat, coins=state.player(seat).coins + delta)


def _game_set_up(state, e: m.GameSetUp) -> State:
    first = e.seats.index(e.first)
    players = []
    for i, seat in enumerate(e.seats):
        supply = _remove_one(STARTING_SET, "right-hand")
        coins = starting_coins((i - first) % len(e.seats))
        players.append(Player(seat, coins=coins, supply=tuple(sorted(supply))))
    return State(
        seats=e.seats,
        players=tuple(players),
        reserve=COINS_RESERVE - sum(p.coins for p in players),
        board=tuple(tuple(None for _ in n.spots) for n in NEIGHBOURHOODS),
        controllers=tuple(None for _ in NEIGHBOURHOODS),
        pile=e.pile,
        bag=e.bag,
        active=e.first,
    )


def _rogue_placed(s: State, e: m.RoguePlaced) -> State:
    if e.from_neighbourhood is None:
        s = s.with_player(e.seat, supply=_remove_one(s.player(e.seat).supply, e.rogue))
    else:
        s = _set_spot(s, e.from_neighbourhood, e.from_spot, None)
    s = _set_spot(s, e.neighbourhood, e.spot, (e.seat, e.rogue))
    turn = replace(s.turn, placed_neighbourhood=e.neighbourhood, placed_spot=e.spot)
    return replace(s, turn=turn, phase="act")


def _rogue_shifted(s: State, e: m.RogueShifted) -> State:
    occupant = s.occupant(e.neighbourhood, e.spot)
    s = _set_spot(s, e.neighbourhood, e.spot, None)
    return _set_spot(s, e.to_neighbourhood, e.to_spot, occupant)


def _king_moved(s: State, e: m.KingMoved) -> State:
    turn = s.turn
    if e.wrath is not None:
        turn = replace(turn, wrath=e.wrath, king_stopped=True)
    return replace(s, king=e.end, turn=turn)


def _plots_drawn(s: State, e: m.PlotsDrawn) -> State:
    s = s.with_player(e.seat, hand=s.player(e.seat).hand + e.cards)
    return replace(s, pile=s.pile[len(e.cards):])


def _plot_played(s: State, e: m.PlotPlayed) -> State:
    s = s.with_player(e.seat, hand=_remove_one(s.player(e.seat).hand, e.card))
    turn = replace(s.turn, plot_played=True)
    if e.card == "devil":
        turn = replace(turn, devil=True)
    if e.card == "magician":
        turn = replace(turn, magician=True)
    return replace(s, discards=s.discards + (e.card,), turn=turn)


def _plot_taken(s: State, e: m.PlotTaken) -> State:
    s = s.with_player(e.seat, hand=s.player(e.seat).hand + (e.card,))
    return replace(s, discards=_remove_one(s.discards, e.card))


def _rogue_drawn(s: State, e: m.RogueDrawn) -> State:
    return replace(s, bag=s.bag[1:], drawn=e.rogue, resume=s.phase, phase="recruit")


def _rogue_discarded(s: State, e: m.RogueDiscarded) -> State:
    p = s.player(e.seat)
    pool = p.supply + ((s.drawn,) if s.drawn is not None else ())
    s = s.with_player(e.seat, supply=tuple(sorted(_remove_one(pool, e.rogue))))
    return replace(s, seine=s.seine + (e.rogue,), drawn=None, phase=s.resume)


def _renown_placed(s: State, e: m.RenownPlaced) -> State:
    if e.neighbourhood is not None:
        return _set_controller(s, e.neighbourhood, e.seat)
    lines = tuple(sorted(set(s.player(e.seat).lines) | {e.line}))
    return s.with_player(e.seat, lines=lines)


def _renown_returned(s: State, e: m.RenownReturned) -> State:
    if e.neighbourhood is not None:
        return _set_controller(s, e.neighbourhood, None)
    return s.with_player(e.seat, lines=tuple(l for l in s.player(e.seat).lines if l != e.line))


def _right_hand_taken(s: State, e: m.RightHandTaken) -> State:
    p = s.player(e.seat)
    return s.with_player(e.seat, right_hand_parked=False, supply=tuple(sorted(p.supply + ("right-hand",))))


def _turn_ended(s: State, e: m.TurnEnded) -> State:
    return replace(s, queue=e.standoffs, phase="wrath" if s.turn.wrath is not None else "standoffs")


def _wrath_chosen(s: State, e: m.WrathChosen) -> State:
    queue = tuple(n for n in INDEX if n in s.queue or n == e.neighbourhood)
    return replace(s, queue=queue, phase="standoffs")


def _standoff_began(s: State, e: m.StandoffBegan) -> State:
    standoff = Standoff(e.neighbourhood, e.rogues, e.chariot, s.phase, swordsman_askers(s, e.rogues))
    return replace(s, standoff=standoff, phase="standoff")


def _swordsmen_chosen(s: State, e: m.SwordsmenChosen) -> State:
    st = s.standoff
    if st is None:
        return s
    st = replace(st, awaiting=tuple(a for a in st.awaiting if a != e.seat), chosen=st.chosen + ((e.seat, e.count),))
    return replace(s, standoff=st)


def _swordsmen_paid(s: State, e: m.SwordsmenPaid) -> State:
    st = s.standoff
    if st is not None:
        st = replace(st, awaiting=tuple(a for a in st.awaiting if a != e.seat), paid=st.paid + ((e.seat, e.count),))
    price = e.count * SWORDSMAN["price"]
    s = _coins(s, e.seat, -price)
    return replace(s, standoff=st, reserve=s.reserve + price)


def _standoff_won(s: State, e: m.StandoffWon) -> State:
    if s.standoff is None:
        return s
    return replace(s, standoff=replace(s.standoff, won=True, winner=e.winner))


def _rogues_returned(s: State, e: m.RoguesReturned) -> State:
    for owner, spot, kind in s.rogues_in(e.neighbourhood):
        s = s.with_player(owner, supply=tuple(sorted(s.player(owner).supply + (kind,))))
        s = _set_spot(s, e.neighbourhood, spot, None)
    if s.turn.placed_neighbourhood == e.neighbourhood:
        s = replace(s, turn=replace(s.turn, placed_spot=None))
    return s


def _standoff_ended(s: State, e: m.StandoffEnded) -> State:
    st = s.standoff
    if st is not None and st.chariot:
        return replace(s, standoff=None, phase=st.resume)
    return replace(s, standoff=None, phase="standoffs", queue=tuple(n for n in s.queue if n != e.neighbourhood))


_HANDLERS = {
    m.TurnBegan: lambda s, e: replace(s, active=e.seat, phase="place", turn=Turn(), queue=()),
    m.PlotsDrawn: _plots_drawn,
    m.PlotPileReshuffled: lambda s, e: replace(s, pile=e.pile, discards=()),
    m.PlotPlayed: _plot_played,
    m.PlotTaken: _plot_taken,
    m.RoguePlaced: _rogue_placed,
    m.RogueShifted: _rogue_shifted,
    m.KingMoved: _king_moved,
    m.CoinsTaken: lambda s, e: replace(_coins(s, e.seat, e.amount), reserve=s.reserve - e.amount),
    m.CoinsPaid: lambda s, e: replace(_coins(s, e.seat, -e.amount), reserve=s.reserve + e.amount),
    m.CoinsGiven: lambda s, e: _coins(_coins(s, e.giver, -e.amount), e.receiver, e.amount),
    m.ActionTaken: lambda s, e: replace(s, turn=replace(s.turn, action_done=True)),
    m.RogueDrawn: _rogue_drawn,
    m.RogueDiscarded: _rogue_discarded,
    m.RenownPlaced: _renown_placed,
    m.RenownReturned: _renown_returned,
    m.RightHandTaken: _right_hand_taken,
    m.TurnEnded: _turn_ended,
    m.WrathChosen: _wrath_chosen,
    m.StandoffBegan: _standoff_began,
    m.SwordsmenChosen: _swordsmen_chosen,
    m.SwordsmenPaid: _swordsmen_paid,
    m.StandoffWon: _standoff_won,
    m.RoguesReturned: _rogues_returned,
    m.StandoffEnded: _standoff_ended,
    m.GameEnded: lambda s, e: replace(s, winners=e.winners, end_reason=e.reason, phase="over"),
}


def evolve(state: State | None, event) -> State:
    if isinstance(event, m.GameSetUp):
        return _game_set_up(state, event)
    handler = _HANDLERS.get(type(event))
    if handler is None or state is None:
        return state
    return handler(state, event)
