"""Who is to act, and every legal command of a seat: complete and exact
(``decide`` accepts a command if and only if it is listed here). The rules
both sides need live here once: whose action may be taken, which lines a
player may buy, which rogues the Rue de l'Egyptienne may move; the Plot
cards' own rules live in plots.py."""

from __future__ import annotations

from . import messages as m
from .data import (
    ACTION_OF,
    LINE_BY_NUMBER,
    LINES,
    NEIGHBOURHOOD_IDS,
    RIGHT_HAND_LINE,
    SWORDSMAN,
)
from .flow import courtesan_waiting
from .plots import plot_commands
from .state import State


def to_act(state: State) -> frozenset[str]:
    if state is None or state.phase == "over":
        return frozenset()
    if state.phase == "standoff":
        st = state.standoff
        if st.awaiting:
            return frozenset(st.awaiting)
        if courtesan_waiting(state):
            return frozenset({st.winner})
        return frozenset()
    return frozenset({state.active})


def moves(pairs, free) -> list[tuple[str, int, str, int]]:
    return [(n, s, tn, ts) for n, s in pairs for tn, ts in free]


def action_neighbourhoods(state: State) -> list[str]:
    """Whose action the active player may take now (The Magician: another's instead)."""
    t = state.turn
    if state.phase != "act" or t.action_done or t.placed_neighbourhood is None:
        return []
    if t.magician:
        return [n for n in NEIGHBOURHOOD_IDS if n != t.placed_neighbourhood]
    return [t.placed_neighbourhood]


def line_refusal(state: State, seat: str, line: int) -> str | None:
    """Why ``seat`` may not buy Renown on ``line`` now, or None if he may."""
    found = LINE_BY_NUMBER.get(line) if isinstance(line, int) else None
    me = state.player(seat)
    if found is None:
        return f"the Renown Square lines are numbered 1 to {len(LINES)}"
    if line in me.lines:
        return "you already have a Renown token on that line (one per player per line)"
    if me.coins < found.toll:
        return f"line {found.line} costs {found.toll} coins and you have {me.coins}"
    if found.line == RIGHT_HAND_LINE and not me.right_hand_parked:
        return f"your Right-Hand has already been taken back: line {RIGHT_HAND_LINE} is closed to you"
    return None


def affordable_lines(state: State, seat: str) -> list[int]:
    return [line.line for line in LINES if line_refusal(state, seat, line.line) is None]


def shift_sources(state: State) -> list[tuple[str, int]]:
    """The rogues the Rue de l'Egyptienne may move: any but the one just placed."""
    placed = (state.turn.placed_neighbourhood, state.turn.placed_spot)
    return [(n, s) for n, s, o in state.spots() if o is not None and (n, s) != placed]


def action_commands(state: State, seat: str) -> list:
    s = state
    result: list = []
    for n in action_neighbourhoods(s):
        action = ACTION_OF[n]
        if action == "recruit" and s.bag:
            result.append(m.Recruit())
        elif action == "shift":
            result.extend(m.ShiftRogue(*move) for move in moves(shift_sources(s), s.free_spots()))
        elif action == "renown":
            result.extend(m.BuyRenown(line) for line in affordable_lines(s, seat))
        elif action == "plot":
            result.append(m.DrawPlot())
        elif action == "coins":
            result.append(m.TakeCoins())
    return result


def placement_commands(state: State, seat: str) -> list:
    s = state
    free = s.free_spots()
    supply = s.player(seat).supply
    if supply:
        return [m.PlaceRogue(kind, n, sp) for kind in sorted(set(supply)) for n, sp in free]
    return [m.MoveRogue(*move) for move in moves(s.on_board(seat), free)]


def discard_pool(state: State, seat: str) -> tuple[str, ...]:
    """The rogues one of which goes to the Seine: those out of play and the one drawn."""
    return state.player(seat).supply + (state.drawn,)


def swordsmen_payable(state: State, seat: str) -> range:
    """How many of his Swordsmen in the Standoff ``seat`` may pay for: each costs 2 coins."""
    swords = sum(1 for owner, _, kind in state.standoff.rogues if owner == seat and kind == "swordsman")
    return range(min(swords, state.player(seat).coins // SWORDSMAN["price"]) + 1)


def legal_commands(state: State, seat: str) -> list:
    s = state
    if seat not in to_act(s):
        return []
    if s.phase == "place":
        return plot_commands(s, seat) + placement_commands(s, seat)
    if s.phase == "act":
        return action_commands(s, seat) + plot_commands(s, seat) + [m.EndTurn()]
    if s.phase == "recruit":
        return [m.DiscardRogue(kind) for kind in sorted(set(discard_pool(s, seat)))] + plot_commands(s, seat)
    if s.phase == "wrath":
        return [m.ChooseWrath(n) for n in NEIGHBOURHOOD_IDS] + plot_commands(s, seat)
    if s.phase == "standoffs":
        return [m.SettleStandoff(n) for n in s.queue] + plot_commands(s, seat)
    if s.phase == "standoff":
        if seat in s.standoff.awaiting:
            return [m.PaySwordsmen(c) for c in swordsmen_payable(s, seat)]
        return [m.PlaceCourtesanRenown(n) for n in NEIGHBOURHOOD_IDS]
    return []


def act_phase_finished(state: State) -> bool:
    """After the action, the turn ends by itself when no Plot card may be played
    any more: the hand is empty or this turn's card was played. (Not "when no
    card in hand is playable": that would tell the others what kind of cards
    the hand holds.)"""
    return state.turn.action_done and (state.turn.plot_played or not state.player(state.active).hand)
