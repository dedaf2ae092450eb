"""Seat-life comparisons, run by the conformance suite on every game.

A seat's player resigns, is abandoned to a bot, or is abandoned and his seat
handed to a newcomer; the game goes on, a bot's moves played by whoever is to
act. At each later position the former holder's doors, as the API shapes
them (``api.service.views``: his view now and at every version since he left,
his feed of those versions, his legal commands), must be byte-identical to a
spectator's.

Why that is enough: the conformance suite's twin check shows that no door of
a spectator tells twin histories apart, so a former holder who is shown
exactly a spectator's doors cannot tell them apart either.

What his seat showed him before he left is his to keep (the twin check covers
the seat's doors): only versions from his SeatResigned or SeatAbandoned on
are compared.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from api.service.views import envelope, feed, legal_commands, viewer_seat
from domain import session as sessions
from domain.lifecycle import decide as lifecycle

from tests.lifecycle.support import Game

GAME_ID = "00000000-0000-0000-0000-000000000000"
NEWCOMER = "newcomer"
SCENARIOS = ("resign", "abandon", "replace")


@dataclass(frozen=True)
class Record:
    """A stored event as the API's feed reads it."""

    version: int
    type: str
    schema_version: int
    data: dict
    metadata: dict
    recorded_at: Any = None


def records(events, first_version: int = 1) -> list[Record]:
    out = []
    for version, event in enumerate(events, first_version):
        data = event.to_json()
        name = data.pop("type")
        out.append(Record(version, name, event.schema_version, data, {}))
    return out


def dump(value) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def leave(table: Game, seat: str, scenario: str) -> str:
    """The seat's player leaves it as ``scenario`` says; returns that player."""
    player = table.player(seat)
    if scenario == "resign":
        table.apply(lifecycle.resign(table.rules, table.session, player, table.seed))
        return player
    limit = table.session.options["abandon_after"]
    events = table.apply(lifecycle.abandon(table.rules, table.session, seat, limit))
    assert events, "the seat was not abandoned"
    if scenario == "replace":
        code = f"code-{seat}"
        table.apply(lifecycle.issue_invite(table.session, table.session.host, seat, code))
        table.apply(lifecycle.redeem(table.session, NEWCOMER, code))
        assert table.session.players[seat] == NEWCOMER
    return player


def former_holder_doors(rules, table: Game, sessions_at: dict, player: str, since: int, session=None,
                        events=None) -> list[str]:
    """What ``player`` is shown of the game now and of every version from
    ``since`` on (views at the versions the game rested at, the feed, legal
    commands), each serialized."""
    now = session or table.session
    shown = [dump(envelope(GAME_ID, rules, now, viewer_seat(now, player))),
             dump(legal_commands(rules, now, viewer_seat(now, player)))]
    for version, at in sorted(sessions_at.items()):
        if version >= since:
            shown.append(dump(envelope(GAME_ID, rules, at, viewer_seat(now, player, version), now.over)))
    log = records(events if events is not None else table.events)
    items = feed(rules, now, [r for r in log if r.version >= since], player)
    assert all(item["text"] for item in items)  # the sentences are compared with the rest
    shown += [dump(item) for item in items]
    return shown


def compare(game, options: dict, seat: str, scenario: str, seed: int, before: int = 12, after: int = 40) -> int:
    """Play ``before`` random steps, ``scenario`` at ``seat``, then up to
    ``after`` steps, comparing the former holder's doors with a spectator's
    at each; returns how many positions were compared."""
    table = Game(game, {"abandon_after": 1, **options})
    table.fill_and_start()
    rng = random.Random(seed)
    for _ in range(before):
        if table.session.status != sessions.ACTIVE:
            return 0
        table.move(rng=rng)
    if table.session.status != sessions.ACTIVE:
        return 0
    player = leave(table, seat, scenario)
    since = table.session.life.left[player][1]
    rules = table.rules
    sessions_at = {table.session.version: table.session}
    compared = 0
    for _ in range(after):
        if table.session.status != sessions.ACTIVE:
            break
        table.move(rng=rng)
        if table.session.status != sessions.ACTIVE:
            break
        sessions_at[table.session.version] = table.session
        # view?at=V: the version he left at and the last few (every one is met as the last).
        versions = sorted(sessions_at)
        recent = {v: sessions_at[v] for v in {versions[0], *versions[-3:]}}
        spectator = former_holder_doors(rules, table, recent, None, since)
        shown = former_holder_doors(rules, table, recent, player, since)
        assert shown == spectator, (f"{rules.name}, {scenario} at version {table.session.version}: the former "
                                    f"holder of {seat} sees more than a spectator")
        compared += 1
    return compared


def compare_every_scenario(game, options: dict, seat: str, seeds=range(3), **steps) -> dict[str, int]:
    """``compare`` for each scenario over ``seeds``: positions compared per scenario."""
    return {scenario: sum(compare(game, options, seat, scenario, seed, **steps) for seed in seeds)
            for scenario in SCENARIOS}
