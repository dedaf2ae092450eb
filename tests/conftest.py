"""Fixtures for real servers live in tests/support: PostgreSQL (DATABASE_URL or
an embedded PostgreSQL) and Redis (REDIS_URL or an embedded Valkey); the
seeds of the games tests create, and the report of a failing test's seeds,
in tests/support/seeds.py."""

pytest_plugins = ["tests.support.postgres", "tests.support.redis", "tests.support.seeds"]
