"""PostgreSQL is the truth, Redis is disposable: re-create every missing job
from the read models.

For each active game with a deadline, the job ``deadline-<game>-<version>``
must be on its way (scheduled, or queued now when the deadline has passed);
for each game awaiting its score, ``score-<game>``; for each active game in
which a seat a bot plays is to act, ``bot-<game>-<version>``; for each active
game with a reminder still to send, ``remind-<game>-<due second>``
(api/service/reminders.py). A job that is there
already is left alone; one that failed for good stays in the failed job
registry and is reported, so a person sees it; one whose worker died is made
again. Run at worker start and then periodically by ``workers.runner``.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import Counter
from dataclasses import dataclass, field

import psycopg
from rq.exceptions import StopRequested

from api.service.settings import env_number
from api.service import readmodels, reminders
from api.service.bots import bot_delay_seconds

from api.service.scheduling import (CREATED, FAILED, MOVED, REPLACED, RQScheduler, bot_job_id, deadline_job_id,
                                    reminder_job_id, scoring_job_id, utcnow)

log = logging.getLogger("boardlog.workers")


@dataclass
class SweepReport:
    deadlines: Counter = field(default_factory=Counter)  # what was done -> how many
    scoring: Counter = field(default_factory=Counter)
    bots: Counter = field(default_factory=Counter)
    reminders: Counter = field(default_factory=Counter)
    failed: list[str] = field(default_factory=list)  # job ids left in the failed registry
    errors: int = 0

    @property
    def repaired(self) -> int:
        return sum(c[k] for c in (self.deadlines, self.scoring, self.bots, self.reminders)
                   for k in (CREATED, REPLACED, MOVED))

    def summary(self) -> str:
        def part(counter: Counter) -> str:
            return ", ".join(f"{n} {what}" for what, n in sorted(counter.items())) or "none"

        return (f"deadlines: {part(self.deadlines)}; scoring: {part(self.scoring)}; bots: {part(self.bots)}; "
                f"reminders: {part(self.reminders)}")


# A retry with the same Idempotency-Key acts once within this time; after it,
# the key is forgotten so that the table does not grow for ever.
IDEMPOTENCY_KEYS_KEPT = dt.timedelta(days=env_number("BOARDLOG_IDEMPOTENCY_DAYS", 7, minimum=1))


def sweep(database_url: str, scheduler: RQScheduler, now: dt.datetime | None = None) -> SweepReport:
    """One pass over the read models; never raises for one game's trouble."""
    now = now or utcnow()
    with psycopg.connect(database_url, connect_timeout=10) as conn:
        deadlines = readmodels.pending_deadlines(conn)
        awaiting = readmodels.awaiting_score(conn)
        bot_turns = readmodels.pending_bot_turns(conn)
        reminder_times = reminders.pending(conn, now)
        forgotten = readmodels.forget_idempotency_keys(conn, now - IDEMPOTENCY_KEYS_KEPT)
    if forgotten:
        log.info("sweep forgot %d idempotency key(s) older than %s", forgotten, IDEMPOTENCY_KEYS_KEPT)
    report = SweepReport()
    # Every job the sweep looks at, read in a few round trips first: not one or two per game.
    scheduler.read_ahead([deadline_job_id(g, v) for g, v, _ in deadlines] + [bot_job_id(g, v) for g, v, _ in bot_turns]
                         + [reminder_job_id(g, due) for g, due in reminder_times] + [scoring_job_id(g) for g in awaiting])
    try:
        for game_id, version, deadline in deadlines:
            _count(report, report.deadlines, lambda: scheduler.ensure_deadline(game_id, version, deadline, now),
                   deadline_job_id(game_id, version))
        delay = dt.timedelta(seconds=bot_delay_seconds())
        for game_id, version, since in bot_turns:
            _count(report, report.bots, lambda: scheduler.ensure_bot(game_id, version, since + delay, now),
                   bot_job_id(game_id, version))
        for game_id, due in reminder_times:
            _count(report, report.reminders, lambda: scheduler.ensure_reminder(game_id, due, now),
                   reminder_job_id(game_id, due))
        for game_id in awaiting:
            _count(report, report.scoring, lambda: scheduler.ensure_scoring(game_id, now), scoring_job_id(game_id))
    finally:
        scheduler.forget_read_ahead()
    if report.repaired or report.errors:
        log.info("sweep re-created missing jobs: %s", report.summary())
    if report.failed:
        shown = ", ".join(report.failed[:10]) + (" ..." if len(report.failed) > 10 else "")
        log.warning("sweep: %d job(s) failed for good and wait in the failed job registry of queue %r "
                    "(requeue with `rq requeue --queue %s JOB_ID`): %s",
                    len(report.failed), scheduler.queue.name, scheduler.queue.name, shown)
    return report


def _count(report: SweepReport, counter: Counter, ensure, job_id: str) -> None:
    try:
        outcome = ensure()
    except StopRequested:  # the worker's SIGTERM, raised wherever it lands: let it stop the worker
        raise
    except Exception:
        report.errors += 1
        log.exception("sweep could not ensure job %s", job_id)
        return
    counter[outcome] += 1
    if outcome == FAILED:
        report.failed.append(job_id)
