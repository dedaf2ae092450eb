"""Deciding a command: each handler refuses what the rules forbid, with a
sentence, at the point where it decides, then turns the command into events;
the automatic steps that follow (flow.advance) run until a player must choose.
The Plot cards decide in plots.py."""

from __future__ import annotations

import random

from ...engine import IllegalCommand, not_your_turn
from ...kit import Draft
from . import messages as m
from .data import ACTION_OF, INDEX, LINE_BY_NUMBER, NEIGHBOURHOODS
from .flow import (
    advance,
    apply_bonus,
    begin_standoff,
    courtesan_waiting,
    draft,
    draw_plots,
    end_turn,
    finish_standoff,
    over,
    place_renown,
    take_coins,
)
from .legal import (
    act_phase_finished,
    action_neighbourhoods,
    discard_pool,
    line_refusal,
    shift_sources,
    swordsmen_payable,
    to_act,
)
from .plots import play_plot
from .refusals import check_neighbourhood, check_spot, expect_phase
from .state import State

ACTIONS = {m.Recruit: "recruit", m.ShiftRogue: "shift", m.BuyRenown: "renown", m.DrawPlot: "plot",
           m.TakeCoins: "coins"}


def decide(state: State, seat: str, command, rng: random.Random) -> list:
    if seat not in to_act(state):
        raise not_your_turn(seat, to_act(state))
    d, c = draft(state, rng), command
    if isinstance(c, m.PlayPlot):
        play_plot(d, seat, c)
    elif isinstance(c, (m.PlaceRogue, m.MoveRogue)):
        _place(d, seat, c)
    elif type(c) in ACTIONS:
        _action(d, seat, c)
    elif isinstance(c, m.EndTurn):
        expect_phase(state, c, "act")
        end_turn(d)
    elif isinstance(c, m.DiscardRogue):
        _discard(d, seat, c)
    elif isinstance(c, m.ChooseWrath):
        _choose_wrath(d, seat, c)
    elif isinstance(c, m.SettleStandoff):
        _settle(d, c)
    elif isinstance(c, m.PaySwordsmen):
        _pay_swordsmen(d, seat, c)
    elif isinstance(c, m.PlaceCourtesanRenown):
        _courtesan(d, seat, c)
    else:
        raise IllegalCommand(f"{type(c).__name__} is not a command of this game")
    advance(d, act_phase_finished)
    return d.events


def _place(d: Draft, seat: str, c) -> None:
    """Step 1: a rogue of the supply placed face down, or (all in play) one moved; then the spot's bonus."""
    s = d.state
    expect_phase(s, c, "place")
    check_spot(c.neighbourhood, c.spot)
    me = s.player(seat)
    if isinstance(c, m.PlaceRogue):
        if c.rogue not in me.supply:
            raise IllegalCommand(f"you have no {c.rogue!r} rogue out of play to place")
        if s.occupant(c.neighbourhood, c.spot) is not None:
            raise IllegalCommand("that spot is already occupied")
        d.emit(m.RoguePlaced(seat, c.rogue, c.neighbourhood, c.spot))
        n, spot = c.neighbourhood, c.spot
    else:
        check_spot(c.to_neighbourhood, c.to_spot)
        if me.supply:
            raise IllegalCommand("you may only move a rogue when all your rogues are in play")
        occupant = s.occupant(c.neighbourhood, c.spot)
        if occupant is None or occupant[0] != seat:
            raise IllegalCommand("you have no rogue on that spot")
        if s.occupant(c.to_neighbourhood, c.to_spot) is not None:
            raise IllegalCommand("the rogue must go to a free spot")
        d.emit(m.RoguePlaced(seat, occupant[1], c.to_neighbourhood, c.to_spot, c.neighbourhood, c.spot))
        n, spot = c.to_neighbourhood, c.to_spot
    effect = NEIGHBOURHOODS[INDEX[n]].spots[spot - 1]
    apply_bonus(d, seat, effect.effect, effect.amount * (2 if s.turn.devil else 1))


def _action(d: Draft, seat: str, c) -> None:
    """Steps 2-3: the action of the neighbourhood where the rogue went, then its controller's coin."""
    s = d.state
    expect_phase(s, c, "act")
    if isinstance(c, m.ShiftRogue):
        check_spot(c.neighbourhood, c.spot)
        check_spot(c.to_neighbourhood, c.to_spot)
    if s.turn.action_done:
        raise IllegalCommand("you have already taken a neighbourhood action this turn")
    n = next((n for n in action_neighbourhoods(s) if ACTION_OF[n] == ACTIONS[type(c)]), None)
    if n is None and s.turn.magician:
        raise IllegalCommand("with The Magician, take the action of another neighbourhood than the one where you placed")
    if n is None:
        raise IllegalCommand(f"{type(c).__name__} is not the action of the neighbourhood where you placed your rogue")
    if isinstance(c, m.Recruit) and not s.bag:
        raise IllegalCommand("the bag is empty")
    if isinstance(c, m.BuyRenown) and (why_not := line_refusal(s, seat, c.line)) is not None:
        raise IllegalCommand(why_not)
    if isinstance(c, m.ShiftRogue) and ((c.neighbourhood, c.spot) not in shift_sources(s)
                                        or (c.to_neighbourhood, c.to_spot) not in s.free_spots()):
        raise IllegalCommand("move another rogue than the one just placed, from an occupied spot to a free one")
    d.emit(m.ActionTaken(seat, n))
    if isinstance(c, m.Recruit):
        d.emit(m.RogueDrawn(seat, d.state.bag[0]))
    elif isinstance(c, m.ShiftRogue):
        d.emit(m.RogueShifted(c.neighbourhood, c.spot, c.to_neighbourhood, c.to_spot))
    elif isinstance(c, m.BuyRenown):
        _buy_renown(d, seat, c.line)
    elif isinstance(c, m.DrawPlot):
        draw_plots(d, seat, 1)
    elif isinstance(c, m.TakeCoins):
        take_coins(d, seat, 2)
    controller = d.state.controller(n)
    if controller is not None:
        take_coins(d, controller, 1)


def _buy_renown(d: Draft, seat: str, number: int) -> None:
    line = LINE_BY_NUMBER[number]
    d.emit(m.CoinsPaid(seat, line.toll))
    place_renown(d, seat, line=line.line)
    if line.bonus == "right-hand":
        if not over(d):
            d.emit(m.RightHandTaken(seat))
    else:
        apply_bonus(d, seat, line.bonus, line.amount)


def _discard(d: Draft, seat: str, c: m.DiscardRogue) -> None:
    expect_phase(d.state, c, "recruit")
    if c.rogue not in discard_pool(d.state, seat):
        raise IllegalCommand(f"you have no {c.rogue!r} rogue out of play")
    d.emit(m.RogueDiscarded(seat, c.rogue))


def _choose_wrath(d: Draft, seat: str, c: m.ChooseWrath) -> None:
    expect_phase(d.state, c, "wrath")
    check_neighbourhood(c.neighbourhood)
    d.emit(m.WrathChosen(seat, c.neighbourhood))


def _settle(d: Draft, c: m.SettleStandoff) -> None:
    s = d.state
    expect_phase(s, c, "standoffs")
    check_neighbourhood(c.neighbourhood)
    if c.neighbourhood not in s.queue:
        raise IllegalCommand(f"no Standoff waits in {c.neighbourhood!r}; choose one of {', '.join(s.queue)}")
    begin_standoff(d, c.neighbourhood)


def _pay_swordsmen(d: Draft, seat: str, c: m.PaySwordsmen) -> None:
    s = d.state
    expect_phase(s, c, "standoff")
    if seat not in s.standoff.awaiting:
        raise IllegalCommand("the Standoff is won and your Swordsmen are counted: name the neighbourhood for your "
                             "Courtesan's Renown token (PlaceCourtesanRenown)")
    if c.count not in swordsmen_payable(s, seat):
        raise IllegalCommand("pay for at most your Swordsmen in this Standoff, 2 coins each, with the coins you have")
    d.emit(m.SwordsmenChosen(seat, c.count))


def _courtesan(d: Draft, seat: str, c: m.PlaceCourtesanRenown) -> None:
    s = d.state
    expect_phase(s, c, "standoff")
    if not courtesan_waiting(s) or seat != s.standoff.winner:
        raise IllegalCommand("the Standoff is not settled yet: say first how many of your Swordsmen you pay for "
                             "(PaySwordsmen)")
    check_neighbourhood(c.neighbourhood)
    finish_standoff(d, c.neighbourhood)
