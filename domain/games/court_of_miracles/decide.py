"""Deciding a command: refuse it with a reason, or turn it into events.

A command is accepted exactly when ``legal_commands`` lists it; ``explain``
finds the sentence that says why another one is refused."""

from __future__ import annotations

import random

from . import messages as m
from .data import (ACTION_OF, INDEX, LINE_BY_NUMBER, NEIGHBOURHOOD_IDS, NEIGHBOURHOODS, PLOT_KINDS,
                   SPOTS_PER_NEIGHBOURHOOD)
from .flow import (Draft, advance, apply_bonus, begin_standoff, draw_plots, end_turn, finish_standoff, give_coins,
                   place_renown, take_coins)
from .legal import (BEFORE_PLACING, act_phase_finished, action_neighbourhoods, legal_commands, plot_phases,
                    to_act)
from .state import State
from ...engine import IllegalCommand, not_your_turn

_PHASE_WORDS = {
    "place": "you must place (or move) a rogue first",
    "act": "your rogue is placed: take the neighbourhood action, play a Plot card or end your turn",
    "recruit": "you must first choose which rogue to discard to the Seine",
    "wrath": "you must first choose the neighbourhood of the Wrath Standoff",
    "standoffs": "you must first choose which Standoff to settle next",
    "standoff": "a Standoff is being settled",
    "over": "the game is over",
}

_EXPECTS = {
    m.PlaceRogue: ("place",), m.MoveRogue: ("place",), m.Recruit: ("act",), m.ShiftRogue: ("act",),
    m.BuyRenown: ("act",), m.DrawPlot: ("act",), m.TakeCoins: ("act",), m.EndTurn: ("act",),
    m.DiscardRogue: ("recruit",), m.PlayPlot: (), m.ChooseWrath: ("wrath",),
    m.SettleStandoff: ("standoffs",), m.PaySwordsmen: ("standoff",), m.PlaceCourtesanRenown: ("standoff",),
}

_ACTION_OF_COMMAND = {m.Recruit: "recruit", m.ShiftRogue: "shift", m.BuyRenown: "renown", m.DrawPlot: "plot",
                      m.TakeCoins: "coins"}


def _where(state: State, neighbourhood, spot) -> str | None:
    """Why a (neighbourhood, spot) pair names no spot, or None if it does."""
    if not isinstance(neighbourhood, str) or neighbourhood not in INDEX:
        return f"there is no neighbourhood {neighbourhood!r}; they are {', '.join(NEIGHBOURHOOD_IDS)}"
    if spot is not None and (not isinstance(spot, int) or not 1 <= spot <= SPOTS_PER_NEIGHBOURHOOD):
        return f"spots are numbered 1 to {SPOTS_PER_NEIGHBOURHOOD}, not {spot!r}"
    return None


def explain(state: State, seat: str, command) -> str:
    """A sentence saying why a command not in legal_commands is refused."""
    try:
        return _explain(state, seat, command)
    except (TypeError, ValueError, KeyError):  # fields of the wrong shape
        return f"{type(command).__name__} is not possible with these values now"


def _explain(state: State, seat: str, command) -> str:
    s = state
    kind = type(command)
    if kind not in _EXPECTS:
        return f"{kind.__name__} is not a command of this game"
    if s.phase not in (plot_phases(s) if kind is m.PlayPlot else _EXPECTS[kind]):
        if kind is m.PlayPlot and s.phase == "standoff":
            return "no Plot card may be played during a Standoff"
        return f"{kind.__name__} is not possible now: {_PHASE_WORDS.get(s.phase, s.phase)}"
    for a, b in (("neighbourhood", "spot"), ("to_neighbourhood", "to_spot")):
        if getattr(command, a, None) is not None or getattr(command, b, None) is not None:
            if hasattr(command, a) and (getattr(command, a) is not None or kind is not m.PlayPlot):
                problem = _where(s, getattr(command, a), getattr(command, b, None))
                if problem:
                    return problem
    me = s.player(seat)
    if kind is m.PlaceRogue:
        if command.rogue not in me.supply:
            return f"you have no {command.rogue!r} rogue out of play to place"
        if s.occupant(command.neighbourhood, command.spot) is not None:
            return "that spot is already occupied"
    if kind is m.MoveRogue:
        if me.supply:
            return "you may only move a rogue when all your rogues are in play"
        occupant = s.occupant(command.neighbourhood, command.spot)
        if occupant is None or occupant[0] != seat:
            return "you have no rogue on that spot"
        return "the rogue must go to a free spot"
    if kind in _ACTION_OF_COMMAND:
        wanted = _ACTION_OF_COMMAND[kind]
        allowed = [ACTION_OF[n] for n in action_neighbourhoods(s)]
        if s.turn.action_done:
            return "you have already taken a neighbourhood action this turn"
        if wanted not in allowed and s.turn.magician:
            return "with The Magician, take the action of another neighbourhood than the one where you placed"
        if wanted not in allowed:
            return f"{kind.__name__} is not the action of the neighbourhood where you placed your rogue"
        if kind is m.Recruit:
            return "the bag is empty"
        if kind is m.BuyRenown:
            line = LINE_BY_NUMBER.get(command.line)
            if line is None:
                return "the Renown Square lines are numbered 1 to 5"
            if command.line in me.lines:
                return "you already have a Renown token on that line (one per player per line)"
            if me.coins < line.toll:
                return f"line {line.line} costs {line.toll} coins and you have {me.coins}"
            return "your Right-Hand has already been taken back: line 3 is closed to you"
        if kind is m.ShiftRogue:
            return "move another rogue than the one just placed, from an occupied spot to a free one"
    if kind is m.DiscardRogue:
        return f"you have no {command.rogue!r} rogue out of play"
    if kind is m.PaySwordsmen:
        return "pay for at most your Swordsmen in this Standoff, 2 coins each, with the coins you have"
    if kind is m.PlaceCourtesanRenown:
        if s.standoff is None or seat != s.standoff.winner:
            return not_your_turn(seat, to_act(s)).message
    if kind is m.SettleStandoff:
        return f"no Standoff waits in {command.neighbourhood!r}; choose one of {', '.join(s.queue)}"
    if kind is m.ChooseWrath:
        return f"there is no neighbourhood {command.neighbourhood!r}"
    if kind is m.PlayPlot:
        return _explain_plot(s, seat, command)
    return f"{kind.__name__} is not possible now"


def _explain_plot(s: State, seat: str, c: m.PlayPlot) -> str:
    if c.card not in PLOT_KINDS:
        return f"there is no Plot card {c.card!r}; they are {', '.join(PLOT_KINDS)}"
    if c.card not in s.player(seat).hand:
        return f"you have no {c.card!r} card in hand"
    if s.turn.plot_played:
        return "you have already played a Plot card this turn (one per turn)"
    if c.card in BEFORE_PLACING:
        return f"{c.card!r} acts when you place a rogue: play it before placing"
    if c.card == "strength" and s.drawn is not None:
        return "a recruited rogue already waits for your choice: keep or discard it before drawing another"
    if c.card == "strength":
        return "the bag is empty: there is no rogue to draw"
    hints = {
        "chariot": "name a neighbourhood with rogues of at least 2 different players",
        "death": "name (take=) a card of the discard pile",
        "empress": "name one of your Renown tokens (neighbourhood= or line=) and an uncontrolled to_neighbourhood",
        "hanged-man": "name an opponent's rogue (neighbourhood, spot) and a free to_neighbourhood, to_spot",
        "hermit": "name a neighbourhood you control",
        "justice": "name a neighbourhood with rogues in it",
        "wheel": "name (player=) another player",
    }
    return f"{c.card!r}: {hints.get(c.card, 'this card takes no other field')}"


# ------------------------------------------------------------------- effects


def _place(d: Draft, seat: str, c) -> None:
    s = d.state
    if isinstance(c, m.PlaceRogue):
        d.emit(m.RoguePlaced(seat, c.rogue, c.neighbourhood, c.spot))
        n, spot = c.neighbourhood, c.spot
    else:
        rogue = s.occupant(c.neighbourhood, c.spot)[1]
        d.emit(m.RoguePlaced(seat, rogue, c.to_neighbourhood, c.to_spot, c.neighbourhood, c.spot))
        n, spot = c.to_neighbourhood, c.to_spot
    effect = NEIGHBOURHOODS[INDEX[n]].spots[spot - 1]
    apply_bonus(d, seat, effect.effect, effect.amount * (2 if s.turn.devil else 1))


def _action(d: Draft, seat: str, c) -> None:
    wanted = _ACTION_OF_COMMAND[type(c)]
    n = next(n for n in action_neighbourhoods(d.state) if ACTION_OF[n] == wanted)
    d.emit(m.ActionTaken(seat, n))
    if isinstance(c, m.Recruit):
        d.emit(m.RogueDrawn(seat, d.state.bag[0]))
    elif isinstance(c, m.ShiftRogue):
        d.emit(m.RogueShifted(c.neighbourhood, c.spot, c.to_neighbourhood, c.to_spot))
    elif isinstance(c, m.BuyRenown):
        line = LINE_BY_NUMBER[c.line]
        d.emit(m.CoinsPaid(seat, line.toll))
        place_renown(d, seat, line=line.line)
        if line.bonus == "right-hand":
            if not d.over:
                d.emit(m.RightHandTaken(seat))
        else:
            apply_bonus(d, seat, line.bonus, line.amount)
    elif isinstance(c, m.DrawPlot):
        draw_plots(d, seat, 1)
    elif isinstance(c, m.TakeCoins):
        take_coins(d, seat, 2)
    controller = d.state.controller(n)
    if controller is not None:
        take_coins(d, controller, 1)


def _plot(d: Draft, seat: str, c: m.PlayPlot) -> None:
    d.emit(m.PlotPlayed(seat, c.card))
    s = d.state
    others = [p for p in s.seats if p != seat]
    if c.card == "fool":
        for p in others:
            if d.state.player(p).coins >= 5:
                give_coins(d, p, seat, 1)
    elif c.card == "judgment":
        mine = s.renown_placed(seat)
        for p in others:
            if s.renown_placed(p) > mine:
                give_coins(d, p, seat, 1)
    elif c.card == "chariot":
        begin_standoff(d, c.neighbourhood, chariot=True)
    elif c.card == "death":
        d.emit(m.PlotTaken(seat, c.take))
    elif c.card == "empress":
        d.emit(m.RenownReturned(seat, neighbourhood=c.neighbourhood, line=c.line))
        place_renown(d, seat, neighbourhood=c.to_neighbourhood)
    elif c.card == "hanged-man":
        d.emit(m.RogueShifted(c.neighbourhood, c.spot, c.to_neighbourhood, c.to_spot))
    elif c.card == "hermit":
        d.emit(m.RenownReturned(seat, neighbourhood=c.neighbourhood))
        take_coins(d, seat, 5)
    elif c.card == "justice":
        d.emit(m.RoguesReturned(c.neighbourhood))
    elif c.card == "strength":
        d.emit(m.RogueDrawn(seat, s.bag[0]))
    elif c.card == "wheel":
        take_coins(d, seat, 3)
        take_coins(d, c.player, 1)


def decide(state: State, seat: str, command, rng: random.Random) -> list:
    if seat not in to_act(state):
        raise not_your_turn(seat, to_act(state))
    if command not in legal_commands(state, seat):
        raise IllegalCommand(explain(state, seat, command))
    d = Draft(state, rng)
    c = command
    if isinstance(c, (m.PlaceRogue, m.MoveRogue)):
        _place(d, seat, c)
    elif type(c) in _ACTION_OF_COMMAND:
        _action(d, seat, c)
    elif isinstance(c, m.PlayPlot):
        _plot(d, seat, c)
    elif isinstance(c, m.EndTurn):
        end_turn(d)
    elif isinstance(c, m.DiscardRogue):
        d.emit(m.RogueDiscarded(seat, c.rogue))
    elif isinstance(c, m.ChooseWrath):
        d.emit(m.WrathChosen(seat, c.neighbourhood))
    elif isinstance(c, m.SettleStandoff):
        begin_standoff(d, c.neighbourhood)
    elif isinstance(c, m.PaySwordsmen):
        d.emit(m.SwordsmenChosen(seat, c.count))
    elif isinstance(c, m.PlaceCourtesanRenown):
        finish_standoff(d, c.neighbourhood)
    advance(d, act_phase_finished)
    return d.events
