"""Work shared by every waiter of one process.

When 1,000 spectators and 5 seats wait on one game and it moves, each of
them needs the new session, the new events and a view. Here the session is
loaded once (one waiter loads, the others wait for its result), the events
are read once, and each view or redacted event is computed and serialized
once per (version, seat or viewer), then handed to every waiter as the same
string; and what a stream writes for a move (its messages, as bytes) is
composed once per (catch-up, viewer) and written as is by every stream
that writes the same. The caches are bounded and keyed by version, so
nothing in them is ever stale: a new version is a new key.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections import OrderedDict
from typing import Any, Callable

from domain import session as sessions

from .views import envelope, feed_item, named, viewer_seat
from .games import GameService, stream_of


class _Pending:
    __slots__ = ("done", "result", "error")

    def __init__(self):
        self.done = threading.Event()
        self.result = None
        self.error: BaseException | None = None


class _Bounded(OrderedDict):
    def __init__(self, capacity: int):
        super().__init__()
        self.capacity = capacity

    def put(self, key, value):
        self[key] = value
        if len(self) > self.capacity:
            self.popitem(last=False)
        return value


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, default=_default)


def _default(value):
    if isinstance(value, uuid.UUID):
        return str(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"cannot serialize {type(value).__name__}")


class SharedWork:
    def __init__(self, service: GameService, capacity: int = 4096):
        self.service = service
        self._lock = threading.Lock()
        self._pending: dict[Any, _Pending] = {}
        self._views = _Bounded(capacity)
        self._events = _Bounded(capacity * 8)
        self._records = _Bounded(capacity * 8)
        self._frames = _Bounded(capacity)
        # How often each kind of work was really done (tests compare it with
        # the number of waiters served); "spared": reads not made, the events
        # being this process's own.
        self.computed = {"loads": 0, "reads": 0, "spared": 0, "views": 0, "events": 0, "frames": 0}

    def _once(self, key, work: Callable[[], Any]):
        """``work()`` run by one caller at a time per key; callers that come
        while it runs get its result (or its exception) instead of running it again."""
        with self._lock:
            pending = self._pending.get(key)
            mine = pending is None
            if mine:
                pending = self._pending[key] = _Pending()
        if not mine:
            pending.done.wait()
            if pending.error is not None:
                raise pending.error
            return pending.result
        try:
            pending.result = work()
            return pending.result
        except BaseException as error:
            pending.error = error
            raise
        finally:
            with self._lock:
                del self._pending[key]
            pending.done.set()

    def once(self, key, work: Callable[[], Any]):
        """``work()`` done once for every caller that asks by ``key`` while it runs (other kinds of shared work)."""
        return self._once(key, work)

    def session(self, game_id: uuid.UUID, at_least: int = 0):
        """(rules, session) at ``at_least`` or newer: the process's cached
        session when it is new enough, else one load for all who ask."""
        cached = self.service.cached(game_id)
        if cached is not None and cached[1].version >= at_least:
            return cached
        for _ in range(3):
            rules, session = self._once(("load", game_id), lambda: self._load(game_id))
            if session.version >= at_least:
                break  # else a load that began before the version was committed: once more
        return rules, session

    def current(self, game_id: uuid.UUID):
        """(rules, session) now, for a stream that opens: the process's cached
        session when it is at the version the process knows the game to be at
        (eventstore/versions.py; no query), else one load shared by every
        newcomer that comes meanwhile, so that a herd of reconnecting clients
        costs one read, not one each. A version the process does not know is
        read once for all of them (and known from then on, the LISTEN
        connection keeping it up to date), not a load each."""
        known = self.version(game_id)
        cached = self.service.cached(game_id)
        if cached is not None and known == cached[1].version:
            return cached
        return self.session(game_id, known)

    def version(self, game_id: uuid.UUID) -> int:
        """The game's version as the process knows it (no query), else one
        read for every caller that asks meanwhile (0: no such game)."""
        store = self.service.store
        stream = stream_of(game_id)
        known = store.known_version(stream)
        if known is None:
            known = self._once(("version", game_id), lambda: store.recent_version(stream))
        return known

    def _load(self, game_id):
        """The session now; the events read to bring it there kept for ``records``: one read for both."""
        self.computed["loads"] += 1

        def keep(tail) -> None:
            for record in tail:
                self._records.put((game_id, record.version), record)

        return self.service.load(game_id, keep_tail=keep)

    def view_json(self, game_id: uuid.UUID, rules, session, seat: str | None) -> str:
        """The envelope of GET /view for ``seat`` at the session's version, serialized."""

        def answer():
            shown = envelope(game_id, rules, session, seat, naming=self.service.player_names.naming(session))
            shown["receipt"] = self.service.heads.receipt_for(game_id, session)
            return shown

        return self._serialized_once(self._views, "views", (game_id, session.version, seat), answer)

    def records(self, game_id: uuid.UUID, after: int, upto: int) -> list:
        """The stored events after ``after`` up to ``upto``, read once for
        all, or not at all when this process appended them (api/service/appended.py)."""
        wanted = range(after + 1, upto + 1)
        missing = [v for v in wanted if (game_id, v) not in self._records]
        if missing:
            first, last = missing[0], missing[-1]

            def read():
                found = self.service.appended.between(game_id, first, last)
                if found is not None:
                    self.computed["spared"] += 1
                else:
                    self.computed["reads"] += 1
                    found = self.service.store.read_stream(stream_of(game_id), first, last)
                for record in found:
                    self._records.put((game_id, record.version), record)

            self._once(("read", game_id, first, last), read)
        found = [self._records.get((game_id, v)) for v in wanted]
        if any(record is None for record in found):  # pushed out of the cache meanwhile
            return self.service.store.read_stream(stream_of(game_id), after + 1, upto)
        return found

    def events_json(self, game_id: uuid.UUID, rules, session, records, player: str | None) -> list[tuple[int, str]]:
        """Each record as ``player`` may see it at the session's version
        (as the seat he sees at the record's version), serialized: (version, json)."""
        out = []
        holders = (tuple(sorted(session.players.items())), tuple(sorted(session.life.bots)))
        for record in records:
            seat = viewer_seat(session, player, record.version)
            # Who holds the seats names them in the text: a replaced holder is a new key.
            key = (game_id, record.version, sessions.viewer_for(session, seat), holders)
            text = self._serialized_once(self._events, "events", key,
                                         lambda: self._feed_item(game_id, rules, session, record, seat))
            out.append((record.version, text))
        return out

    def _feed_item(self, game_id: uuid.UUID, rules, session, record, seat) -> dict:
        item = feed_item(rules, session, record, seat)
        named([item], self.service.player_names.naming(session, [item["text"]]))
        item["receipt"] = self.service.heads.receipt_for(game_id, session, record.version, record.hash)
        return item

    def frame(self, key: tuple, compose: Callable[[], bytes]) -> bytes:
        """What a stream writes, ``compose()``, once for every stream of the
        process whose ``key`` is the same: 30 spectators of a game caught up
        from one version to the next write one object, not 30 copies each
        formatted and encoded. The key must name all the frame depends on (a
        version, never "now")."""
        return self._kept_once(self._frames, "frames", key, compose)

    def _serialized_once(self, cache: _Bounded, kind: str, key, compute: Callable[[], Any]) -> str:
        """``cache[key]``, else ``compute()`` serialized into it."""
        return self._kept_once(cache, kind, key, lambda: dumps(compute()))

    def _kept_once(self, cache: _Bounded, kind: str, key, compute: Callable[[], Any]):
        """``cache[key]``, else ``compute()`` put there. Waiters woken
        together miss the cache together: one computes, the others take its result."""
        kept = cache.get(key)
        if kept is not None:
            return kept

        def for_all():
            done = cache.get(key)  # by a caller that finished as this one asked
            if done is not None:
                return done
            self.computed[kind] += 1
            return cache.put(key, compute())

        return self._once((kind, *key), for_all)
