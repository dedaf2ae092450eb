"""A notification's payload as stored, and as its readers are given it.

What a webhook is sent (and signs), what a push says and what a mail says
are built from the payload derive.py makes: ``id``, ``kind``, ``game_id``,
``game``, ``version``, ``seat``, ``seats``, ``data`` and ``occurred_at``.
Five of those are the row's own columns again (``id``, ``kind``,
``game_id``, ``version``, ``event_at``): stored twice they were some 190 B
of a ``turn``'s 314 B, on a row a move (issue 37); and ``game``, the
game's name, is its games row's. So the ``payload`` column keeps only what
those do not hold, and ``readable`` puts the rest back where the payload is
read (the delivery loop's claim).

A field is left out only when the columns give it back exactly, checked
for each notification: the game id in the uuid column's text form, the
time as the isoformat of ``event_at`` in UTC (a notifier whose PostgreSQL
session is not in UTC got another offset, and keeps its field); ``seat``
only when null; ``game`` only when named: derive.py took the name from the
games row, whose ``game`` never changes and which is never deleted (a null
name, a game without a row then, is kept: a row may come later). A field the row stores wins over its
column's: so the rows written before this, which hold every field, read
exactly as they were, and are not rewritten (the table grows by a row a
move and is never pruned: a migration rewriting it would hold its lock,
and double it on disk, for as long as it is big).

``readable`` gives the fields in the order the readers always had them:
the payload came back from a ``jsonb`` column, whose keys are in jsonb's
order (shorter first, then bytewise), not the order derive.py wrote them
in; a webhook's body, and its signature, depend on it.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

# What a readable payload has besides its columns' fields: null when not stored.
NULL_WHEN_ABSENT = ("seat",)


def occurred_at(event_at: dt.datetime) -> str:
    """The payload's ``occurred_at`` as the columns give it back."""
    return event_at.astimezone(dt.timezone.utc).isoformat()


def _from_columns(notification_id: str, kind: str, game_id: Any, version: int,
                  event_at: dt.datetime, game: str | None) -> dict[str, Any]:
    return {"id": notification_id, "kind": kind, "game_id": _uuid_text(game_id), "version": version,
            "occurred_at": occurred_at(event_at), "game": game, **{name: None for name in NULL_WHEN_ABSENT}}


def _uuid_text(game_id: Any) -> object:
    """The uuid column's text form of ``game_id`` (what no payload equals, for what is no uuid)."""
    try:
        return str(uuid.UUID(str(game_id)))
    except ValueError:
        return object()


def stored(payload: dict, notification_id: str, kind: str, game_id: str, version: int,
           event_at: dt.datetime) -> dict:
    """``payload`` without what the row's columns give back exactly."""
    given_back = _from_columns(notification_id, kind, game_id, version, event_at, payload.get("game"))
    if given_back["game"] is None:
        del given_back["game"]  # no games row when it was derived: one may come, and must not name it then
    return {name: value for name, value in payload.items()
            if name not in given_back or given_back[name] != value or type(given_back[name]) is not type(value)}


def readable(payload: dict, notification_id: str, kind: str, game_id: Any, version: int | None,
             event_at: dt.datetime, game: str | None) -> dict:
    """The whole payload of a stored notification, as its readers are given
    it (``game``: the name its games row holds, None without one); one that
    no event caused (a confirmation mail: no game, no version) is its
    payload alone."""
    if game_id is None or version is None:
        return payload
    whole = {**_from_columns(notification_id, kind, game_id, version, event_at, game), **payload}
    return dict(sorted(whole.items(), key=lambda item: _jsonb_key_order(item[0])))


def _jsonb_key_order(name: str) -> tuple[int, bytes]:
    """jsonb keeps an object's keys shortest first, then by their bytes."""
    encoded = name.encode()
    return len(encoded), encoded
