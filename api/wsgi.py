"""The WSGI entry point for production servers: `gunicorn api.wsgi:app`.
Reads DATABASE_URL, REDIS_URL and the BOARDLOG_* settings from the environment."""

from .app import create_app

app = create_app()
