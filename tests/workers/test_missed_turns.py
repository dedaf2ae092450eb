"""A missed turn counts once towards abandonment, however many steps the
turn has: one deadline that passes over a seat plays out its whole turn.

Through the real service (GameService.fire_deadline on PostgreSQL, its
deadlines scheduled in Redis), with a clock of the test's own so that an
hour-long deadline can pass at once. Whatever deadline the game holds that
is already due when the test looks fires again at once, as the worker's
scheduler would fire it.
"""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from api.service.games import GameService
from domain import audit, playout
from domain.engine import rng_for
from tests.support.hosted import seated
from tests.support.seeds import TEST_SEEDS

HOUR = 3600


class Clock:
    """Now, as the service sees it: the real time plus what the test let pass."""

    def __init__(self):
        self.passed = dt.timedelta()
        self.stopped_at: dt.datetime | None = None  # a moment the test holds it at, as a recorder's frozen clock

    def __call__(self) -> dt.datetime:
        return self.stopped_at or dt.datetime.now(dt.timezone.utc) + self.passed

    def pass_to(self, moment: dt.datetime) -> None:
        self.passed += max(dt.timedelta(), moment - self())


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def timed_service(event_store, scheduler, clock):
    return GameService(event_store, scheduler, clock=clock, seeds=TEST_SEEDS)


def deadline_of(service, game_id) -> tuple[int, dt.datetime | None]:
    with service.pool.connection() as conn:
        return conn.execute("select version, deadline from games where id = %s", (game_id,)).fetchone()


def fire_what_is_due(service, clock, game_id) -> int:
    """Every deadline due by now fires, one after the other (a deadline
    scheduled in the past fires at once). How many fired."""
    fired = 0
    while True:
        version, deadline = deadline_of(service, game_id)
        if deadline is None or deadline > clock() or not service.fire_deadline(game_id, version):
            return fired
        fired += 1


class EndedEarly(Exception):
    """The deal let the others end the game before the target missed its turns."""


def others_play_until_alone(service, game_id, target: str, players: dict) -> None:
    """The other seats play at once (no time passes) until ``target`` is the
    one seat to act."""
    for step in range(2000):
        rules, session = service.load(game_id)
        if session.status != "active":
            raise EndedEarly(f"the game ended before {target} missed its turns")
        to_act = sorted(rules.to_act(session.state))
        if to_act == [target]:
            return
        seat = next(s for s in to_act if s != target)
        command = playout.random_command(rules, session.state, seat, rng_for(b"others", session.version))
        service.act(game_id, players[seat], command.to_json())
    raise AssertionError(f"{target} never came to be the one seat to act")


def started(service, players, game: str, options: dict) -> uuid.UUID:
    host, guest = players
    game_id = service.create(host, game, {"turn_seconds": HOUR, "abandon_after": 3, **options}, None)
    service.join(game_id, guest, None)
    service.start(game_id, host)
    return game_id


# Every game whose turns can have more than one step when timed out:
# Cronberg draws then lays, Coronation's Lind appears then moves (and one
# detective seat moves all five), The Court of Miracles places then acts,
# Runebound moves then ends its turn, The Coil musters again in escalation.
# Every seat of every hosted game, at its fewest seats.
GAMES = seated()


@pytest.mark.parametrize("game, options, target", GAMES, ids=[f"{g}-{s}" for g, _, s in GAMES])
def test_abandon_after_three_abandons_a_seat_only_after_three_missed_turns_whatever_their_steps(
    timed_service, clock, table, game, options, target
):
    service = timed_service
    for attempt in range(8):  # each game is dealt from a new random seed; a few end too soon (Lind caught)
        try:
            game_id = _three_missed_turns(service, clock, table, game, options, target)
            break
        except EndedEarly:
            continue
    else:
        raise AssertionError(f"eight games in a row ended before {target} missed three turns")
    abandoned = [r for r in table.events(game_id) if r.type == "SeatAbandoned"]
    assert [(r.data["seat"], r.data["timeouts"]) for r in abandoned] == [(target, 3)]
    records = [{"type": r.type, "schema_version": r.schema_version, "data": r.data, "metadata": r.metadata}
               for r in table.events(game_id)]
    rerun = audit.rerun(service.load(game_id)[0], records, secret_seed=service.seed(game_id))
    assert rerun.ok, "the audit re-runs every step of the timed-out turns: " + "; ".join(rerun.problems)


def _three_missed_turns(service, clock, table, game, options, target):
    game_id = started(service, table.players, game, options)
    players = dict(service.load(game_id)[1].players)
    for missed in (1, 2, 3):
        others_play_until_alone(service, game_id, target, players)
        version, deadline = deadline_of(service, game_id)
        clock.pass_to(deadline + dt.timedelta(seconds=1))  # the target's deadline passes: one missed turn
        assert fire_what_is_due(service, clock, game_id) == 1, "one deadline passed, so one fired"
        rules, session = service.load(game_id)
        assert (target in session.life.abandoned) == (missed == 3), \
            f"after {missed} missed turn(s), abandoned: {session.life.abandoned}"
        if missed < 3 and target in rules.to_act(session.state):
            _, next_deadline = deadline_of(service, game_id)
            assert next_deadline >= clock() + dt.timedelta(seconds=HOUR - 60), \
                "a seat still to act after its timed-out turn has a fresh deadline"
    return game_id
