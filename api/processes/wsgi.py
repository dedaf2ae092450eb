"""The WSGI entry point for production servers: `gunicorn api.processes.wsgi:app`.
Reads DATABASE_URL, REDIS_URL and the BOARDLOG_* settings from the environment,
and logs one line per request to standard error."""

from ..http.app import create_app
from ..service.logs import configure_logging

configure_logging()
app = create_app()
