"""PostgreSQL for tests: the server at DATABASE_URL (CI), or an embedded PostgreSQL.

Each test session gets its own fresh database ``boardlog_test_<random>``,
migrated, and dropped at the end; the embedded server (if any) is stopped and
its folder removed, so a run leaves nothing behind.
"""

from __future__ import annotations

import os

import pytest

from eventstore import PostgresEventStore, migrate
from eventstore.servers import temporary_database, temporary_server, with_database

__all__ = ["database_url", "event_store", "with_database"]


@pytest.fixture(scope="session")
def database_url():
    with temporary_server(os.environ.get("DATABASE_URL")) as server_url:
        with temporary_database(server_url) as url:
            migrate(url)
            yield url


@pytest.fixture(scope="session")
def event_store(database_url):
    store = PostgresEventStore.connect(database_url, min_size=1, max_size=20)
    try:
        yield store
    finally:
        store.close()
