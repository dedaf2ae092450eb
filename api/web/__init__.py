"""The web client's static files (static/): plain ES modules, no build step,
served at / by api/http/resources/web.py. It speaks to the API only through the
public, documented endpoints under /v1."""
