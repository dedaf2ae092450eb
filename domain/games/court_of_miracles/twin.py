"""A twin of a played game: a history a viewer cannot tell from it.

Every physical Plot card and rogue token is followed through the game's
events (``Tokens``); the twin gives other kinds to tokens the viewer never
sees (``Relabelling``):
- at setup, the Plot cards of the pile that the viewer never draws and nobody
  ever plays (other players' hands, the pile's order) are re-dealt among
  themselves, and so are the bag's rogues that the viewer never draws and no
  Standoff ever reveals;
- during the game, for every other player, at one moment when that player
  takes a rogue from his supply (to place or to discard it), his rogues out
  of play that no later Standoff reveals are re-dealt among themselves, so
  that he places (or sends to the Seine) another kind.
A pile re-made from the discards keeps its order: that order comes from the
game's random source and the discards are public. The twin is a real game:
each command, with the twin's kinds, decided again on the twin's states
with the same random sources gives exactly the twin's events."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from ...engine import EVERYONE, Event
from ...kit import Step
from . import messages as m
from .data import STARTING_SET


def _take(tokens, kind_a, kind):
    token = next(t for t in tokens if kind_a[t] == kind)
    tokens.remove(token)
    return token


class Tokens:
    """Follows every physical Plot card and rogue token through the game's events."""

    def __init__(self, events):
        self.kind = {}  # token -> its kind in the game given
        self.refs = {}  # event index -> the tokens named by the event's kind fields, in order
        self.revealed = defaultdict(list)  # rogue token -> indices of the Standoffs that reveal it
        self.played = set()  # Plot tokens played (public)
        self.drawn_by = defaultdict(set)  # token -> seats who drew it (Plot cards, rogues from the bag)
        self.takes = []  # (index, seat, rogues out of play just before the seat takes one of them)
        self.setup_pile, self.setup_bag = [], []
        pile, discards, bag, board = [], [], [], {}
        hand, supply, parked, owner = defaultdict(list), defaultdict(list), {}, {}
        drawn = None
        for i, e in enumerate(events):
            refs = ()
            if isinstance(e, m.GameSetUp):
                pile = self.setup_pile = [self._new(f"plot-{j}", k) for j, k in enumerate(e.pile)]
                bag = self.setup_bag = [self._new(f"bag-{j}", k) for j, k in enumerate(e.bag)]
                pile, bag = list(pile), list(bag)
                start_kinds = list(STARTING_SET)
                start_kinds.remove("right-hand")
                for seat in e.seats:
                    supply[seat] = [self._new(f"{seat}-{j}", k, owner, seat) for j, k in enumerate(start_kinds)]
                    parked[seat] = self._new(f"{seat}-right-hand", "right-hand", owner, seat)
                refs = (*pile, *bag)
            elif isinstance(e, m.PlotsDrawn):
                refs = tuple(pile[: len(e.cards)])
                del pile[: len(e.cards)]
                hand[e.seat].extend(refs)
                for t in refs:
                    self.drawn_by[t].add(e.seat)
            elif isinstance(e, m.PlotPileReshuffled):
                pile = [_take(discards, self.kind, k) for k in e.pile]
                discards = []
                refs = tuple(pile)
            elif isinstance(e, m.PlotPlayed):
                token = _take(hand[e.seat], self.kind, e.card)
                discards.append(token)
                self.played.add(token)
                refs = (token,)
            elif isinstance(e, m.PlotTaken):
                token = _take(discards, self.kind, e.card)
                hand[e.seat].append(token)
                refs = (token,)
            elif isinstance(e, m.RoguePlaced):
                if e.from_neighbourhood is not None:
                    token = board.pop((e.from_neighbourhood, e.from_spot))
                else:
                    self.takes.append((i, e.seat, tuple(supply[e.seat])))
                    token = _take(supply[e.seat], self.kind, e.rogue)
                board[(e.neighbourhood, e.spot)] = token
                refs = (token,)
            elif isinstance(e, m.RogueShifted):
                board[(e.to_neighbourhood, e.to_spot)] = board.pop((e.neighbourhood, e.spot))
            elif isinstance(e, m.RogueDrawn):
                drawn = bag.pop(0)
                owner[drawn] = e.seat
                self.drawn_by[drawn].add(e.seat)
                refs = (drawn,)
            elif isinstance(e, m.RogueDiscarded):
                self.takes.append((i, e.seat, tuple(supply[e.seat])))
                pool = supply[e.seat] + [drawn]
                token = _take(pool, self.kind, e.rogue)
                supply[e.seat], drawn = pool, None
                refs = (token,)
            elif isinstance(e, m.RightHandTaken):
                supply[e.seat].append(parked[e.seat])
            elif isinstance(e, m.StandoffBegan):
                refs = tuple(board[(e.neighbourhood, spot)] for _, spot, _ in e.rogues)
                for t in refs:
                    self.revealed[t].append(i)
            elif isinstance(e, m.RoguesReturned):
                for place in [p for p in board if p[0] == e.neighbourhood]:
                    token = board.pop(place)
                    supply[owner[token]].append(token)
            self.refs[i] = refs

    def _new(self, token, kind, owner=None, seat=None):
        self.kind[token] = kind
        if owner is not None:
            owner[token] = seat
        return token


class Relabelling:
    """The kinds of the twin: per token, a list of (from event index, kind)."""

    def __init__(self, tokens: Tokens):
        self.timeline = {t: [(0, k)] for t, k in tokens.kind.items()}

    def kind(self, token, index):
        return [k for start, k in self.timeline[token] if start <= index][-1]

    def redeal(self, tokens, index, rng):
        """The kinds of ``tokens`` (all in one place at ``index``) dealt again among them."""
        kinds = [self.kind(t, index) for t in tokens]
        new = list(kinds)
        rng.shuffle(new)
        for t, old, k in zip(tokens, kinds, new):
            if k != old:
                self.timeline[t] = [(s, x) for s, x in self.timeline[t] if s < index] + [(index, k)]

    def event(self, e, index, refs):
        ks = [self.kind(t, index) for t in refs]
        if isinstance(e, m.GameSetUp):
            return replace(e, pile=tuple(ks[: len(e.pile)]), bag=tuple(ks[len(e.pile):]))
        if isinstance(e, (m.PlotsDrawn,)):
            return replace(e, cards=tuple(ks))
        if isinstance(e, m.PlotPileReshuffled):
            return replace(e, pile=tuple(ks))
        if isinstance(e, (m.PlotPlayed, m.PlotTaken)):
            return replace(e, card=ks[0])
        if isinstance(e, (m.RoguePlaced, m.RogueDrawn, m.RogueDiscarded)):
            return replace(e, rogue=ks[0])
        if isinstance(e, m.StandoffBegan):
            return replace(e, rogues=tuple((o, s, k) for (o, s, _), k in zip(e.rogues, ks)))
        return e


def twin(setup_events: Sequence[Event], steps: Sequence[Step], viewer: str | None,
         rng: random.Random) -> list[Event]:
    """The whole history (setup, then every step's events) re-dealt where ``viewer`` cannot see."""
    events = [*setup_events, *(e for s in steps for e in s.events)]
    if viewer == EVERYONE:
        return events
    tokens = Tokens(events)
    b = Relabelling(tokens)
    b.redeal([t for t in tokens.setup_pile if t not in tokens.played and viewer not in tokens.drawn_by[t]], 0, rng)
    b.redeal([t for t in tokens.setup_bag if not tokens.revealed[t] and viewer not in tokens.drawn_by[t]], 0, rng)
    for seat in sorted({seat for _, seat, _ in tokens.takes} - {viewer}):
        takes = [(i, supply) for i, s, supply in tokens.takes if s == seat]
        for i, supply in rng.sample(takes, len(takes)):
            hidden = [t for t in supply if not any(r >= i for r in tokens.revealed[t])]
            if len({b.kind(t, i) for t in hidden}) > 1:
                b.redeal(hidden, i, rng)
                break
    return [b.event(e, i, tokens.refs[i]) for i, e in enumerate(events)]
