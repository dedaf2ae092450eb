"""The Court of Miracles: options and rules versions, seats, setup, timeouts
and standings (the decisions where the rulebook is silent are listed in the
package's docstring)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...engine import IllegalCommand, Option, Standing, rank_by
from . import messages as m
from .data import EXTRA_ROGUES, PLOT_DECK, STARTING_PLOTS, STARTING_SET
from .flow import draft, draw_plots
from .legal import legal_commands, placement_commands
from .state import State

MAX_SEATS = 5

OPTIONS = (
    Option("players", "int", 4, "Number of players (2-5)", minimum=2, maximum=MAX_SEATS),
    Option("first_player", "int", 0,
           "Seat number of the first player: the last to have visited Notre-Dame de Paris "
           "(1 = p1, ...); 0 = chosen at random", minimum=0, maximum=MAX_SEATS),
)

VERSIONS = {
    1: "as first released: Plot cards only while placing a rogue and after placing it",
    2: "a Plot card may be played at any moment of the player's own turn outside a Standoff (also while "
       "choosing the Wrath neighbourhood, ordering Standoffs and keeping a recruited rogue); one per turn",
}
PLOT_ANY_MOMENT_FROM = 2  # rules version

# 2: Turn.plot_played (one Plot card per turn); 3: sealed Swordsman answers; 4: State.plot_any_moment
STATE_VERSION = 4


def switches(version: int) -> dict[str, Any]:
    """The one switch of version 2, named; version 1 games keep the old way."""
    return {"plot_any_moment": version >= PLOT_ANY_MOMENT_FROM}


def seats(options: Mapping[str, Any]) -> tuple[str, ...]:
    players = int(options.get("players", 4))
    first = int(options.get("first_player", 0) or 0)
    if first > players:
        raise IllegalCommand(f"option first_player must name one of the {players} seats (1-{players}) or be 0 "
                             f"(at random), not {first}")
    return tuple(f"p{i}" for i in range(1, players + 1))


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: random.Random) -> list:
    """The first player is the seat named by the option first_player (the
    last to have visited Notre-Dame de Paris), or one drawn at random when it
    is 0 ("or randomly"). The first player gets 1 coin, the next seat
    clockwise 2, the others 3; one Plot card each, Right-Hands parked on line 3, the rest of the rogues
    (absent players' starting sets and the specials) shuffled into the bag."""
    seats = tuple(seats)
    chosen = int(options.get("first_player", 0) or 0)
    first = seats[chosen - 1] if 0 < chosen <= len(seats) else rng.choice(seats)
    pile = list(PLOT_DECK)
    rng.shuffle(pile)
    bag = list(EXTRA_ROGUES) + [kind for _ in range(MAX_SEATS - len(seats)) for kind in STARTING_SET]
    rng.shuffle(bag)
    d = draft(None, rng)
    d.emit(m.GameSetUp(seats, first, tuple(pile), tuple(bag)))
    start = seats.index(first)
    for i in range(len(seats)):
        draw_plots(d, seats[(start + i) % len(seats)], STARTING_PLOTS)
    d.emit(m.TurnBegan(first))
    return d.events


def on_timeout(state: State, seat: str, rng: random.Random):
    """Skip what is optional; place a rogue on a random legal spot; discard
    the drawn rogue; pay no Swordsman; a Courtesan's Renown stays home."""
    phase = state.phase
    if phase == "place":
        return rng.choice(placement_commands(state, seat))
    if phase == "act":
        return m.EndTurn()
    if phase == "recruit":
        return m.DiscardRogue(state.drawn)
    if phase == "standoff" and seat in state.standoff.awaiting:
        return m.PaySwordsmen(0)
    if phase == "standoff":
        return m.PlaceCourtesanRenown(state.standoff.neighbourhood)
    # Choosing the Wrath neighbourhood or the next Standoff: a random one;
    # a timeout never plays a Plot card (rules version 2 lists them here).
    return rng.choice([c for c in legal_commands(state, seat) if not isinstance(c, m.PlayPlot)])


def score(state: State) -> list[Standing]:
    keys = {s: (s in state.winners, state.renown_placed(s), state.controlled(s)) for s in state.seats}
    ranks = rank_by(keys)
    return [
        Standing(s, ranks[s], state.renown_placed(s),
                 {"neighbourhoods": state.controlled(s), "coins": state.player(s).coins,
                  "winner": s in state.winners})
        for s in state.seats
    ]
