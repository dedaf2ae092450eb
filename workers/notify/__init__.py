"""Notifications: a subscription to the global feed turns events into
notifications for the players they concern (an outbox in PostgreSQL), and a
delivery loop sends them to webhooks and by e-mail, at least once.
See runner.py for how the pieces run."""
