"""A worker told to stop lets go of its Redis channel at once. RQ's
teardown unsubscribes its listening thread, then stops it; with redis-py 8
(whose stop waits for the thread), a listening thread that heard the
unsubscribe's answer before the stop went into a 60 s wait for a
subscription, and the SIGTERM took a minute (CI met it twice in one run:
the notifier test's worker, and `boardlog serve`'s streams waiting on its
worker's stop)."""

from __future__ import annotations

import pytest

from tests.support.waiting import wait_until
from workers.runner import make_worker


# A hang bound, not a speed claim: in RQ's order the stop below waits a whole minute.
@pytest.mark.timeout(30)
def test_a_worker_ends_its_listening_thread_even_when_it_heard_the_unsubscribe_first(redis, database_url):
    worker = make_worker(redis, database_url)
    worker.subscribe()
    wait_until(lambda: worker.pubsub.subscribed, what="the worker's subscription")
    send = worker.pubsub.unsubscribe

    def unsubscribe_heard_before_the_stop(*args, **kwargs):
        # The stopping thread descheduled right after sending (a loaded machine): the listener answers first.
        send(*args, **kwargs)
        wait_until(lambda: not worker.pubsub.subscribed, what="the listening thread to hear the unsubscribe")

    worker.pubsub.unsubscribe = unsubscribe_heard_before_the_stop
    worker.unsubscribe()
    worker.pubsub_thread.join(5)
    assert not worker.pubsub_thread.is_alive(), "the listening thread outlived the stop"
