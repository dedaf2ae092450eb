"""The service's ``Scheduler`` on RQ: one queue, one job id per thing to do.

A deadline is the job ``deadline-<game>-<version>``, scheduled for the
deadline; a game's scoring is the job ``score-<game>``, run now and retried
with backoff. The ids are deterministic, so the service's call after a commit
and the sweeper's repair of a flushed Redis name the same job, and asking
twice for a job that is still on its way does nothing.

Redis is not the truth: a job that runs twice or late is harmless, because the
service re-checks the game's version in PostgreSQL before it writes.
"""

from __future__ import annotations

import datetime as dt
import logging
import math

from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.scheduler import RQScheduler as RQSchedulerLoop

from api.service.settings import env_number
from api.service.games import Scheduler

log = logging.getLogger("boardlog.workers")

QUEUE_NAME = "boardlog"
DEADLINE_JOB = "workers.jobs.fire_deadline"
ABSENCE_JOB = "workers.jobs.mark_absences"
SCORING_JOB = "workers.jobs.score_game"
BOT_JOB = "workers.bots.play_bots"
REMINDER_JOB = "workers.jobs.send_reminders"

# A job started longer ago than its timeout plus this is not running any more:
# its worker died (RQ's horse would have been stopped at the timeout).
STALE_GRACE_SECONDS = 5
# Each worker keeps the key alive_key(name) alive while it lives, refreshed at
# every heartbeat (every ALIVE_SECONDS / 3 while it runs a job). A job started
# more than ALIVE_SECONDS ago whose worker's key is gone lost its worker (a
# SIGKILL, an out-of-memory kill, a machine gone): the sweeper makes it again
# without waiting for the job's timeout.
ALIVE_SECONDS = 15


def alive_key(worker_name: str) -> str:
    return f"boardlog:alive:{worker_name}"
# The RQ scheduler moves due jobs every second; one that is due longer than
# this has no scheduler looking after it (say, its lock holder was killed).
OVERDUE_GRACE_SECONDS = 10

# What _ensure did with a job id.
KEPT, CREATED, REPLACED, MOVED, FAILED = "kept", "created", "replaced", "moved", "failed"


def deadline_job_id(game_id, version: int) -> str:
    return f"deadline-{game_id}-{version}"


def bot_job_id(game_id, version: int) -> str:
    return f"bot-{game_id}-{version}"


def reminder_job_id(game_id, at: dt.datetime) -> str:
    """Named by the second it is due: each reminder time is one job, and a
    job made again for the same time (the sweeper's) is the same job."""
    return f"remind-{game_id}-{int(_whole_second_after(at).timestamp())}"


def scoring_job_id(game_id) -> str:
    return f"score-{game_id}"


def default_job_timeout() -> int:
    return env_number("BOARDLOG_JOB_TIMEOUT", 60, minimum=1)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _aware(moment: dt.datetime) -> dt.datetime:
    return moment.replace(tzinfo=dt.timezone.utc) if moment.tzinfo is None else moment


def _whole_second_after(moment: dt.datetime) -> dt.datetime:
    """RQ keeps schedules in whole seconds, rounding down; round up instead so
    that a deadline never fires before the time the players were shown."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    return dt.datetime.fromtimestamp(math.ceil(moment.timestamp()), dt.timezone.utc)


class RQScheduler(Scheduler):
    def __init__(
        self,
        redis,
        queue_name: str = QUEUE_NAME,
        job_timeout: int | None = None,
        scoring_retry: Retry | None = None,
        deadline_retry: Retry | None = None,
    ):
        self.redis = redis
        self.queue = Queue(queue_name, connection=redis)
        self.job_timeout = job_timeout or default_job_timeout()
        self.scoring_retry = scoring_retry or Retry(max=5, interval=[5, 30, 120, 600, 1800])
        self.deadline_retry = deadline_retry or Retry(max=3, interval=[5, 60, 600])
        self._queued_ids: set[str] = set()  # the queue's job ids as the sweep at ``_queued_at`` read them
        self._queued_at: dt.datetime | None = None
        self._read: dict[str, Job | None] = {}  # jobs a sweep read at once (``read_ahead``), each used once
        self._due_at: dict[str, float] | None = None  # the schedule as the sweep read it

    def read_ahead(self, job_ids) -> None:
        """Read the jobs a sweep is about to look at, and the schedule, in a
        few round trips rather than one or two a job (10,000 games took a
        worker 5 to 10 s out of every 30). What is read is at most a sweep
        old, as the sweep's reading of PostgreSQL is; what would move a job
        is read again first (its status off the queue, the schedule's removal)."""
        ids = list(dict.fromkeys(job_ids))
        for start in range(0, len(ids), 1000):
            chunk = ids[start:start + 1000]
            self._read.update(zip(chunk, Job.fetch_many(chunk, connection=self.redis)))
        self._due_at = {job_id.decode(): score for job_id, score in self.redis.zrange(
            self.queue.scheduled_job_registry.key, 0, -1, withscores=True)}

    def forget_read_ahead(self) -> None:
        self._read, self._due_at = {}, None

    # The service's calls, after each commit

    def schedule_deadline(self, game_id: str, version: int, at: dt.datetime) -> None:
        self.ensure_deadline(game_id, version, at)

    def schedule_absence_check(self, game_id: str, version: int, at: dt.datetime) -> None:
        """A look at the players' absences at ``at`` (their start or end),
        beside the game's own deadline job: its id names the moment too."""
        now = utcnow()
        at = _whole_second_after(at)
        self._ensure(f"absence-{game_id}-{version}-{int(at.timestamp())}", ABSENCE_JOB, (str(game_id), int(version)),
                     at if at > now else None, self.deadline_retry, now)

    def schedule_scoring(self, game_id: str) -> None:
        """Right after the commit that ended the game: its scoring job cannot
        be there yet unless a sweep made it since, so it is made first and
        read only if RQ refuses a second one: one Redis round trip less (the
        read cost 160 us of CPU of the 690 the scheduling took, measured one
        call after another)."""
        try:
            self.queue.enqueue(SCORING_JOB, str(game_id), **self._options(scoring_job_id(game_id), SCORING_JOB,
                                                                          (str(game_id),), self.scoring_retry))
        except DuplicateJobError:  # there is one: judged as a sweep judges it
            self.ensure_scoring(game_id)

    def schedule_bot(self, game_id: str, version: int, at: dt.datetime) -> None:
        self.ensure_bot(game_id, version, at)

    def schedule_reminder(self, game_id: str, at: dt.datetime) -> None:
        self.ensure_reminder(game_id, at)

    # The same, answering what was done (for the sweeper and its tests)

    def ensure_reminder(self, game_id, at: dt.datetime, now: dt.datetime | None = None) -> str:
        """The game's reminders due at ``at`` (now when that has passed: late, not lost)."""
        now = now or utcnow()
        due = _whole_second_after(at)
        return self._ensure(reminder_job_id(game_id, at), REMINDER_JOB, (str(game_id),),
                            due if due > now else None, self.deadline_retry, now)

    def ensure_deadline(self, game_id, version: int, at: dt.datetime, now: dt.datetime | None = None) -> str:
        now = now or utcnow()
        at = _whole_second_after(at)
        return self._ensure(
            deadline_job_id(game_id, version), DEADLINE_JOB, (str(game_id), int(version)),
            at if at > now else None, self.deadline_retry, now,
        )

    def ensure_bot(self, game_id, version: int, at: dt.datetime, now: dt.datetime | None = None) -> str:
        """The bots' move at ``version`` (``bot-<game>-<version>``), at ``at`` or now if that has passed."""
        now = now or utcnow()  # no rounding up: a bot promised nobody a time
        return self._ensure(
            bot_job_id(game_id, version), BOT_JOB, (str(game_id), int(version)),
            at if at > now else None, self.deadline_retry, now,
        )

    def ensure_scoring(self, game_id, now: dt.datetime | None = None) -> str:
        return self._ensure(scoring_job_id(game_id), SCORING_JOB, (str(game_id),), None, self.scoring_retry,
                            now or utcnow())

    def _ensure(self, job_id: str, func: str, args: tuple, at: dt.datetime | None, retry: Retry,
                now: dt.datetime) -> str:
        """Make sure the job will run (at ``at``, or now when None), without
        a second copy of one that is already on its way."""
        job = self._fetch(job_id)
        replaced = False
        if job is not None:
            verdict = self._verdict(job, now)
            if verdict in (KEPT, FAILED):
                return verdict
            if verdict == MOVED:
                if not self._enqueue_now(job):
                    return KEPT  # another sweep moved it just now
                log.info("job %s was overdue in the schedule; enqueued it now", job_id)
                return MOVED
            job.delete()  # finished, stopped, canceled or abandoned: make it again
            self.redis.lrem(self.queue.intermediate_queue_key, 0, job_id)  # popped and lost, if it was
            replaced = True
        try:
            options = self._options(job_id, func, args, retry)
            if at is None:
                self.queue.enqueue(func, *args, **options)
            else:
                self.queue.enqueue_at(at, func, *args, **options)
        except DuplicateJobError:  # another process made it just now
            return KEPT
        return REPLACED if replaced else CREATED

    def _options(self, job_id: str, func: str, args: tuple, retry: Retry) -> dict:
        return dict(job_id=job_id, job_timeout=self.job_timeout, retry=retry, unique=True,
                    description=f"{func.rsplit('.', 1)[-1]}{args}")

    def _verdict(self, job: Job, now: dt.datetime) -> str:
        status = job.get_status(refresh=False)
        if status == JobStatus.QUEUED and self._off_the_queue(job, now):
            return REPLACED
        if status in (JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.READY_TO_ENQUEUE):
            return KEPT
        if status == JobStatus.SCHEDULED:
            try:
                due = self._scheduled_time(job)
            except NoSuchJobError:  # scheduled but in no schedule: lost
                return REPLACED
            overdue = (now - due).total_seconds() > OVERDUE_GRACE_SECONDS
            # RQ's scheduler, while one holds its lock, moves the job itself (late, on a busy machine):
            # moved by both, it would be twice in the queue and run twice.
            return MOVED if overdue and not self._scheduler_alive() else KEPT
        if status == JobStatus.STARTED:
            started = job.started_at or job.enqueued_at or now
            if started.tzinfo is None:
                started = started.replace(tzinfo=dt.timezone.utc)
            age = (now - started).total_seconds()
            if age > (job.timeout or self.job_timeout) + STALE_GRACE_SECONDS:
                return REPLACED
            if age > ALIVE_SECONDS and job.worker_name and not self.redis.exists(alive_key(job.worker_name)):
                return REPLACED  # its worker stopped living: killed under the job
            return KEPT
        if status == JobStatus.FAILED:
            return FAILED  # stays in the failed job registry, for a person to look at
        if status == JobStatus.FINISHED and _aware(job.ended_at or now - dt.timedelta(days=1)) >= now:
            # It ran after ``now``, the moment the caller (a sweep) read PostgreSQL: the row asking for
            # it is older than its run, which saw fresher state. Made again, it ran twice (a sweep of
            # thousands of games behind a busy queue did so dozens of times).
            return KEPT
        return REPLACED

    def _off_the_queue(self, job: Job, now: dt.datetime) -> bool:
        """Queued for longer than the grace, yet in no queue: a worker took
        it (a pop) and its next write, marking it started, was lost with a
        Redis master that died in between; the replica Sentinel promoted had
        the pop and not the mark, and no worker will ever run it. The queue's
        ids are read once per sweep (one ``now``), not once per job."""
        enqueued = job.enqueued_at or job.created_at
        if enqueued is None:
            return False
        if enqueued.tzinfo is None:
            enqueued = enqueued.replace(tzinfo=dt.timezone.utc)
        if (now - enqueued).total_seconds() <= OVERDUE_GRACE_SECONDS:
            return False
        if self._queued_at != now:
            self._queued_ids, self._queued_at = set(self.queue.get_job_ids()), now
        if job.id in self._queued_ids:
            return False
        # Not in the queue as this sweep read it. Look again, now: a worker
        # moves the job it pops to RQ's intermediate queue, then marks it
        # started; made again between the two, it would run twice.
        if job.get_status(refresh=True) != JobStatus.QUEUED or self.redis.lpos(self.queue.key, job.id) is not None:
            return False
        if self.redis.lpos(self.queue.intermediate_queue_key, job.id) is None:
            return True
        # Popped and not marked started: being taken now, or for good if the
        # mark was lost. Stuck if still so OVERDUE_GRACE_SECONDS after a sweep first saw it.
        marker = f"boardlog:taking:{job.id}"
        if self.redis.set(marker, now.timestamp(), nx=True, ex=600):
            return False
        return now.timestamp() - float(self.redis.get(marker) or now.timestamp()) > OVERDUE_GRACE_SECONDS

    def _scheduler_alive(self) -> bool:
        return bool(self.redis.exists(RQSchedulerLoop.get_locking_key(self.queue.name)))

    def _scheduled_time(self, job: Job) -> dt.datetime:
        score = (self._due_at or {}).get(job.id)
        if score:
            return dt.datetime.fromtimestamp(score, tz=dt.timezone.utc)
        return self.queue.scheduled_job_registry.get_scheduled_time(job)  # raises NoSuchJobError

    def _fetch(self, job_id: str) -> Job | None:
        if job_id in self._read:
            job = self._read.pop(job_id)
            if job is not None:
                return job  # one read just now with the others; one not found is looked for again
        try:
            return Job.fetch(job_id, connection=self.redis)
        except NoSuchJobError:
            return None

    def _enqueue_now(self, job: Job) -> bool:
        """Whether this call moved the job: of two sweeps (two workers'),
        only the one whose removal from the schedule took it enqueues it."""
        # Two steps; should the second not happen, the next sweep finds the
        # job scheduled but in no schedule, and makes it again.
        if not self.queue.scheduled_job_registry.remove(job):
            return False
        self.queue.enqueue_job(job)
        return True

    # What there is to see

    def failed_job_ids(self) -> list[str]:
        return self.queue.failed_job_registry.get_job_ids()

    def scheduled_job_ids(self) -> list[str]:
        return self.queue.scheduled_job_registry.get_job_ids()
