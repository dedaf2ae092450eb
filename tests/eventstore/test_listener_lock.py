"""The LISTEN connection's registry of watches under the garbage collector:
a watch closed by a finalizer that runs while its own thread holds the
registry's lock (as a collection inside an allocation does) returns, instead
of waiting for itself for ever."""

from __future__ import annotations

import threading

from eventstore.listener import VersionListener, Watch


def _listener() -> VersionListener:
    # Never started: the registry alone, no connection.
    return VersionListener(connect=lambda: None, current_version=lambda stream_id: 0)


def test_a_watch_closed_while_its_own_thread_holds_the_registry_lock_does_not_deadlock():
    listener = _listener()
    watch = Watch(listener, ["game-1"])
    listener._add(watch, watch.streams)
    done = threading.Event()

    def finalizer_inside_the_lock():
        with listener._lock:  # as _add does, when a collection runs a stream's finally inside it
            watch.close()
        done.set()

    threading.Thread(target=finalizer_inside_the_lock, daemon=True).start()
    assert done.wait(5), "closing a watch inside the registry's lock waited for the lock it held"
    assert listener._watches == {} and listener._all == set()


def test_a_watch_removed_inside_another_watchs_addition_leaves_the_registry_whole():
    listener = _listener()
    first, second = Watch(listener, ["game-1", "game-2"]), Watch(listener, ["game-2"])
    listener._add(first, first.streams)
    with listener._lock:
        listener._add(second, second.streams)
        first.close()
    assert listener._watches == {"game-2": {second}} and listener._all == {second}
