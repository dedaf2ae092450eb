"""Coronation: options, seats, setup, timeouts, standings and resignation;
the behaviour switch of rules version 2."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...engine import Option, Resignation, Standing, not_your_turn, rank_by
from . import messages as m
from .data import BOARD
from .legal import LIND_SEAT, legal_commands, to_act
from .state import OVER, TICKET, State

EQUIPMENT = ("recommended", "random", "choose")
DECOYS_STAY_CLOSED_FROM = 2  # rules version

OPTIONS = (
    Option("detective_seats", "int", 1, "how many players share the five detectives", minimum=1, maximum=5),
    Option("last_turn", "int", BOARD.last_turn, "Lind wins when this turn ends and he is not caught",
           minimum=1, maximum=60),
    Option("equipment", "choice", "recommended",
           "how detectives get their five cards: recommended (2 cab tickets and 3 random instruments), "
           "random (5 random cards) or choose (the detective seats pick from the deck)",
           choices=EQUIPMENT),
    Option("shared_control", "bool", False, "any detective seat may direct any detective"),
)

VERSIONS = {
    1: "as first released: a decoy location whose card an extraordinary move took off the table is open "
       "to Lind again",
    2: "a location where Lind dropped a decoy stays closed to him for the rest of the game",
}
STATE_VERSION = 3  # 2: State.decoys and State.decoys_stay_closed; 3: State.retired


def switches(version: int) -> dict[str, Any]:
    """The one switch of version 2, named; version 1 games keep the old way."""
    return {"decoys_stay_closed": version >= DECOYS_STAY_CLOSED_FROM}


def seats(options: Mapping[str, Any]) -> tuple[str, ...]:
    count = options.get("detective_seats", 1)
    return (LIND_SEAT, *(f"detective-{n}" for n in range(1, count + 1)))


def setup(seats: tuple[str, ...], options: Mapping[str, Any], rng: random.Random) -> list[m.Event]:
    detective_seats = [seat for seat in seats if seat != LIND_SEAT]
    characters = list(BOARD.detectives)
    rng.shuffle(characters)  # the players draw lots for the character cards
    control = []
    for seat, share in zip(detective_seats, BOARD.distribution[len(detective_seats)]):
        control.extend((characters.pop(0), seat) for _ in range(share))
    control.sort(key=lambda pair: BOARD.detectives.index(pair[0]))
    events: list[m.Event] = [
        m.GameStarted(
            seats=tuple(seats),
            last_turn=options.get("last_turn", BOARD.last_turn),
            equipment=options.get("equipment", "recommended"),
            shared_control=options.get("shared_control", False),
            control=tuple(control),
        )
    ]
    return events + deal(options.get("equipment", "recommended"), rng)


def on_timeout(state: State, seat: str, rng: random.Random) -> m.Command:
    commands = legal_commands(state, seat)
    if not commands:
        raise not_your_turn(seat, to_act(state))
    return timeout_choice(commands, rng)


def outcome(state: State | None) -> str | None:
    return state.result if state is not None and state.phase == OVER else None


def resign(state: State, seat: str) -> Resignation:
    """Lind resigns: the detectives win. A detective seat hands its
    detectives to the detective seats still playing, in turn (seat order);
    the last one leaves Lind the last seat standing, and he wins at once
    (a bot playing on for the detectives could only produce a result the
    standings contradict: a resigned seat ranks last, so Lind ranks first)."""
    if seat == LIND_SEAT:
        return Resignation((m.LindResigned(),), bot=False, last_standing_wins=False)
    others = [s for s in state.seats if s not in (LIND_SEAT, seat) and s not in state.retired]
    if not others:
        return Resignation((), bot=False, last_standing_wins=True)
    mine = [d.id for d in state.detectives if d.seat == seat]
    control = tuple((detective, others[n % len(others)]) for n, detective in enumerate(mine))
    return Resignation((m.DetectivesHandedOver(seat, control),), bot=False, last_standing_wins=False)


def score(state: State) -> list[Standing]:
    """The detective seats are one side: they share one result."""
    points = {seat: int((seat == LIND_SEAT) == (state.winner == LIND_SEAT)) for seat in state.seats}
    ranks = rank_by(points)
    return [Standing(seat, ranks[seat], points[seat]) for seat in state.seats]


def action_kind(command: m.Command) -> str:
    """The kind of a command for the timeout bot: its type, the detective it
    moves, the way it goes, and whether it sets a trap."""
    return "/".join(
        (
            type(command).__name__,
            str(getattr(command, "detective", "")),
            str(getattr(command, "by", "")),
            "trap" if getattr(command, "trap", None) else "",
        )
    )


HIDE_CHANCE = 0.1  # how often a timed-out Lind who could move hides instead


def timeout_choice(commands: list[m.Command], rng: random.Random) -> m.Command:
    """A legal random action that first draws a kind of action, then one of
    that kind; a Lind who may move hides only now and then. Otherwise his ~90
    possible decoys would make a timed-out Lind hide nearly every time and
    spend both turn-skip cards at once."""
    kinds: dict[str, list[m.Command]] = {}
    for command in commands:
        kinds.setdefault(action_kind(command), []).append(command)
    hides = [kind for kind in kinds if kind.startswith(m.HideLind.__name__)]
    if len(kinds) > len(hides) and rng.random() >= HIDE_CHANCE:
        for kind in hides:
            del kinds[kind]
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def deal(equipment: str, rng: random.Random) -> list[m.Event]:
    """The dealt equipment of options "recommended" and "random" (none for "choose")."""
    tools = [tool for tool in BOARD.instruments for _ in range(BOARD.deck_each_instrument)]
    order = (TICKET,) + BOARD.instruments
    if equipment == "recommended":
        rng.shuffle(tools)
        n = BOARD.recommended_instruments
        hands = [
            (TICKET,) * BOARD.recommended_tickets + tuple(tools[i * n : (i + 1) * n])
            for i in range(len(BOARD.detectives))
        ]
    elif equipment == "random":
        deck = [TICKET] * BOARD.deck_tickets + tools
        rng.shuffle(deck)
        size = BOARD.hand_size
        hands = [tuple(deck[i * size : (i + 1) * size]) for i in range(len(BOARD.detectives))]
    else:
        return []
    return [
        m.DetectiveEquipped(detective, tuple(sorted(hand, key=order.index)))
        for detective, hand in zip(BOARD.detectives, hands)
    ]
