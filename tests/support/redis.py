"""Redis for tests: the server at REDIS_URL (CI), on a database number of its
own so that tests may flush it (each xdist worker is a session of its own); or else an embedded Redis (eventstore/embedded.py) in a temporary
folder, stopped and removed at the end.

On a shared server, each test session claims a free database number (15,
then 14, 13...) with a key that expires, so that two sessions running at once
(several people on one machine) do not flush each other's jobs.
BOARDLOG_TEST_REDIS_DB names the number instead.

``redis_url`` is per session; ``redis`` is a client on it, flushed before
each test.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest
from redis import Redis

CANDIDATE_DBS = tuple(range(15, 0, -1))  # a server's 16 databases but the 0th, every session (and xdist worker) its own
CLAIM_SECONDS = 3600


def with_db(url: str, db: int) -> str:
    """The same server with another database number (path for redis://,
    the ``db`` parameter for unix://)."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = [(k, v) for k, v in parse_qsl(parts.query) if k != "db"] + [("db", str(db))]
        return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), parts.fragment))
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


@pytest.fixture(scope="session")
def redis_url():
    url = os.environ.get("REDIS_URL")
    if url:
        chosen = os.environ.get("BOARDLOG_TEST_REDIS_DB")
        if chosen:
            yield with_db(url, int(chosen))
            return
        with Redis.from_url(url) as admin:
            db, key, token = _claim(admin)
            try:
                yield with_db(url, db)
            finally:
                if admin.get(key) == token:  # still ours: leave no jobs behind for the next session
                    with Redis.from_url(with_db(url, db)) as used:
                        used.flushdb()
                    admin.delete(key)
        return
    from eventstore.embedded import EmbeddedRedis

    folder = Path(tempfile.mkdtemp(prefix="boardlog-redis-"))
    server = EmbeddedRedis(folder, folder / "run", persist=False)
    try:
        yield f"{server.start()}?db=0"
    finally:
        server.stop()  # whoever still holds a connection
        shutil.rmtree(folder, ignore_errors=True)


def _claim(admin: Redis) -> tuple[int, str, bytes]:
    token = uuid.uuid4().hex.encode()
    own = admin.connection_pool.connection_kwargs.get("db", 0)
    for db in CANDIDATE_DBS:
        key = f"boardlog:test-session:db{db}"
        if db != own and admin.set(key, token, nx=True, ex=CLAIM_SECONDS):
            return db, key, token
    raise RuntimeError(f"every Redis database in {CANDIDATE_DBS} is claimed by another test session "
                       f"(keys boardlog:test-session:db*); set BOARDLOG_TEST_REDIS_DB to share one")


@pytest.fixture
def redis(redis_url):
    client = Redis.from_url(redis_url)
    client.flushdb()
    try:
        yield client
    finally:
        client.close()
