"""The twelve Plot cards, each once: when it may be played, the fields it
needs and the values they may take (``targets``: every accepted set of
fields, from which legal_commands lists the cards and by which decide
refuses the others), why a card is refused, and what it does.

A Plot card's fields are those of PlayPlot that are set; a card takes
exactly the fields it needs and no other."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...engine import IllegalCommand
from ...kit import Draft
from . import messages as m
from .data import NEIGHBOURHOOD_IDS, PLOT_KINDS
from .flow import begin_standoff, give_coins, place_renown, take_coins
from .refusals import check_spot, expect_phase
from .state import State

PLOT_PHASES = ("place", "act")  # rules version 1: plot cards only while placing and acting
# Rules version 2: any moment of one's own turn but not during a Standoff.
PLOT_PHASES_ANY_MOMENT = ("place", "act", "recruit", "wrath", "standoffs")
FIELDS = ("neighbourhood", "spot", "to_neighbourhood", "to_spot", "line", "player", "take")

Fields = dict  # the fields of a PlayPlot that are set, by name


def plot_phases(state: State) -> tuple[str, ...]:
    return PLOT_PHASES_ANY_MOMENT if state.plot_any_moment else PLOT_PHASES


def _may_play_now(state: State, seat: str) -> bool:
    return state.phase in plot_phases(state) and seat == state.active and not state.turn.plot_played


# ------------------------------------------------------- targets of each card


def _alone(state: State, seat: str) -> list[Fields]:
    return [{}]


def _before_placing(state: State) -> str | None:
    return None if state.phase == "place" else "acts when you place a rogue: play it before placing"


def _one_drawn_rogue_at_a_time(state: State) -> str | None:
    if state.drawn is not None:
        return "a recruited rogue already waits for your choice: keep or discard it before drawing another"
    return None if state.bag else "the bag is empty: there is no rogue to draw"


def _chariot(state: State, seat: str) -> list[Fields]:
    return [{"neighbourhood": n} for n in NEIGHBOURHOOD_IDS if len({o for o, _, _ in state.rogues_in(n)}) >= 2]


def _death(state: State, seat: str) -> list[Fields]:
    return [{"take": card} for card in sorted(set(state.discards))]


def _empress(state: State, seat: str) -> list[Fields]:
    mine = [n for n in NEIGHBOURHOOD_IDS if state.controller(n) == seat]
    result: list[Fields] = []
    for t in (n for n in NEIGHBOURHOOD_IDS if state.controller(n) is None):
        result += [{"neighbourhood": n, "to_neighbourhood": t} for n in mine]
        result += [{"line": line, "to_neighbourhood": t} for line in state.player(seat).lines]
    return result


def _hanged_man(state: State, seat: str) -> list[Fields]:
    theirs = [(n, sp) for n, sp, o in state.spots() if o is not None and o[0] != seat]
    return [{"neighbourhood": n, "spot": sp, "to_neighbourhood": tn, "to_spot": ts}
            for n, sp in theirs for tn, ts in state.free_spots()]


def _hermit(state: State, seat: str) -> list[Fields]:
    return [{"neighbourhood": n} for n in NEIGHBOURHOOD_IDS if state.controller(n) == seat]


def _justice(state: State, seat: str) -> list[Fields]:
    return [{"neighbourhood": n} for n in NEIGHBOURHOOD_IDS if state.rogues_in(n)]


def _wheel(state: State, seat: str) -> list[Fields]:
    return [{"player": p} for p in state.seats if p != seat]


# ------------------------------------------------------------ their effects


def _fool(d: Draft, seat: str, c: m.PlayPlot) -> None:
    for p in d.state.seats:
        if p != seat and d.state.player(p).coins >= 5:
            give_coins(d, p, seat, 1)


def _judgment(d: Draft, seat: str, c: m.PlayPlot) -> None:
    s = d.state
    mine = s.renown_placed(seat)
    for p in s.seats:
        if p != seat and s.renown_placed(p) > mine:
            give_coins(d, p, seat, 1)


def _nothing_more(d: Draft, seat: str, c: m.PlayPlot) -> None:
    """The Devil and the Magician act through the turn (PlotPlayed marks it)."""


def _empress_effect(d: Draft, seat: str, c: m.PlayPlot) -> None:
    d.emit(m.RenownReturned(seat, neighbourhood=c.neighbourhood, line=c.line))
    place_renown(d, seat, neighbourhood=c.to_neighbourhood)


def _hermit_effect(d: Draft, seat: str, c: m.PlayPlot) -> None:
    d.emit(m.RenownReturned(seat, neighbourhood=c.neighbourhood))
    take_coins(d, seat, 5)


def _wheel_effect(d: Draft, seat: str, c: m.PlayPlot) -> None:
    take_coins(d, seat, 3)
    take_coins(d, c.player, 1)


@dataclass(frozen=True)
class Card:
    targets: Callable[[State, str], list[Fields]]
    hint: str  # what the card needs, said when the fields given are not among its targets
    effect: Callable[[Draft, str, m.PlayPlot], None]
    # Why the card may not be played at all now (whatever its fields), or None.
    unavailable: Callable[[State], str | None] = lambda state: None


ALONE = "this card takes no other field"

CARDS: dict[str, Card] = {
    "chariot": Card(_chariot, "name a neighbourhood with rogues of at least 2 different players",
                    lambda d, seat, c: begin_standoff(d, c.neighbourhood, chariot=True)),
    "death": Card(_death, "name (take=) a card of the discard pile",
                  lambda d, seat, c: d.emit(m.PlotTaken(seat, c.take))),
    "devil": Card(_alone, ALONE, _nothing_more, _before_placing),
    "empress": Card(_empress, "name one of your Renown tokens (neighbourhood= or line=) and an uncontrolled "
                              "to_neighbourhood", _empress_effect),
    "fool": Card(_alone, ALONE, _fool),
    "hanged-man": Card(_hanged_man, "name an opponent's rogue (neighbourhood, spot) and a free to_neighbourhood, "
                                    "to_spot",
                       lambda d, seat, c: d.emit(m.RogueShifted(c.neighbourhood, c.spot, c.to_neighbourhood,
                                                                c.to_spot))),
    "hermit": Card(_hermit, "name a neighbourhood you control", _hermit_effect),
    "judgment": Card(_alone, ALONE, _judgment),
    "justice": Card(_justice, "name a neighbourhood with rogues in it",
                    lambda d, seat, c: d.emit(m.RoguesReturned(c.neighbourhood))),
    "magician": Card(_alone, ALONE, _nothing_more, _before_placing),
    "strength": Card(_alone, ALONE, lambda d, seat, c: d.emit(m.RogueDrawn(seat, d.state.bag[0])),
                     _one_drawn_rogue_at_a_time),
    "wheel": Card(_wheel, "name (player=) another player", _wheel_effect),
}
if set(CARDS) != set(PLOT_KINDS):
    raise RuntimeError(f"cards.json's Plot cards {sorted(PLOT_KINDS)} have no rules here: {sorted(CARDS)}")


def plot_commands(state: State, seat: str) -> list[m.PlayPlot]:
    """Every Plot card ``seat`` may play now, with every set of fields it accepts."""
    if not _may_play_now(state, seat):
        return []
    return [m.PlayPlot(card, **fields)
            for card in sorted(set(state.player(seat).hand)) if CARDS[card].unavailable(state) is None
            for fields in CARDS[card].targets(state, seat)]


def play_plot(d: Draft, seat: str, c: m.PlayPlot) -> None:
    s = d.state
    if s.phase not in plot_phases(s):
        if s.phase == "standoff":
            raise IllegalCommand("no Plot card may be played during a Standoff")
        expect_phase(s, c, *plot_phases(s))
    if c.neighbourhood is not None:
        check_spot(c.neighbourhood, c.spot, needed=False)
    if c.to_neighbourhood is not None:
        check_spot(c.to_neighbourhood, c.to_spot, needed=False)
    if not isinstance(c.card, str) or c.card not in CARDS:
        raise IllegalCommand(f"there is no Plot card {c.card!r}; they are {', '.join(PLOT_KINDS)}")
    if c.card not in s.player(seat).hand:
        raise IllegalCommand(f"you have no {c.card!r} card in hand")
    if s.turn.plot_played:
        raise IllegalCommand("you have already played a Plot card this turn (one per turn)")
    card = CARDS[c.card]
    why_not = card.unavailable(s)
    if why_not is not None:
        raise IllegalCommand(f"{c.card!r}: {why_not}")
    given = {name: getattr(c, name) for name in FIELDS if getattr(c, name) is not None}
    if given not in card.targets(s, seat):
        raise IllegalCommand(f"{c.card!r}: {card.hint}")
    d.emit(m.PlotPlayed(seat, c.card))
    card.effect(d, seat, c)

