"""Fixtures for real servers live in tests/support: PostgreSQL (DATABASE_URL or
an embedded PostgreSQL) and Redis (REDIS_URL or an embedded Valkey)."""

pytest_plugins = ["tests.support.postgres", "tests.support.redis"]
