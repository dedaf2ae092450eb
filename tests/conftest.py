"""Fixtures for real servers live in tests/support: PostgreSQL (DATABASE_URL or
an embedded PostgreSQL) and Redis (REDIS_URL or an embedded Valkey); the
seeds of the games tests create, and the report of a failing test's seeds,
in tests/support/seeds.py."""

import os

# The suite's deadline tests are about timeouts: this server-wide switch
# (docs/operators.md) is off for them, and the tests of a day spent instead
# of a timeout (tests/workers/test_absence_spent.py) turn it on.
os.environ.setdefault("BOARDLOG_ABSENCE_SPENT_BEFORE_TIMEOUT", "0")

pytest_plugins = ["tests.support.postgres", "tests.support.redis", "tests.support.seeds"]
