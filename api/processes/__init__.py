"""The processes: the `boardlog` console script, `boardlog serve` and its supervision, the WSGI
entry point and gunicorn's settings, and the commands an operator runs."""
