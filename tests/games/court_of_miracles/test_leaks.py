"""Seat life: a player who resigned or was abandoned sees what a spectator
sees (the whole-game leak comparison of every seat and the spectator is the
conformance suite's, tests/games/test_conformance.py, over RULES.twin)."""

from __future__ import annotations

from dataclasses import replace

from domain.games.court_of_miracles import messages as m



def _spectators_twin_state(state, rng):
    """Every fact a spectator may not know drawn again (counts kept): hands,
    supplies, the kinds of the rogues on the board, the drawn rogue, sealed
    Swordsmen answers, the pile's and the bag's order and the Seine."""
    from domain.games.court_of_miracles.data import PLOT_KINDS, ROGUES

    kinds = sorted(ROGUES)
    players = tuple(replace(p, hand=tuple(rng.choice(PLOT_KINDS) for _ in p.hand),
                            supply=tuple(sorted(rng.choice(kinds) for _ in p.supply))) for p in state.players)
    board = tuple(tuple(None if o is None else (o[0], rng.choice(kinds)) for o in row) for row in state.board)
    standoff = state.standoff
    if standoff is not None:
        standoff = replace(standoff, chosen=tuple((s, rng.randint(0, 3)) for s, _ in standoff.chosen))
    return replace(state, players=players, board=board, standoff=standoff,
                   drawn=None if state.drawn is None else rng.choice(kinds),
                   pile=tuple(rng.sample(state.pile, len(state.pile))), bag=tuple(rng.sample(state.bag, len(state.bag))),
                   seine=tuple(rng.choice(kinds) for _ in state.seine))


def _spectators_twin_event(event, rng):
    from domain.games.court_of_miracles.data import PLOT_KINDS, ROGUES

    if isinstance(event, m.PlotsDrawn):
        return replace(event, cards=tuple(rng.choice(PLOT_KINDS) for _ in event.cards))
    if isinstance(event, (m.RoguePlaced, m.RogueDrawn, m.RogueDiscarded)):
        return replace(event, rogue=rng.choice(sorted(ROGUES)))
    if isinstance(event, m.SwordsmenChosen):
        return replace(event, count=rng.randint(0, 3))
    if isinstance(event, m.PlotPileReshuffled):
        return replace(event, pile=tuple(rng.sample(event.pile, len(event.pile))))
    return event
