"""The web client at ``/``: a page and its ES modules, styles and icon, from
api/web/static/. The client is built on the public API alone (it is the
reference frontend); this blueprint only serves files, under a strict
Content-Security-Policy: scripts, styles, images and connections from this
origin only, no inline script, no frames, no plugins."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, send_from_directory

STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
TYPES = {".js", ".css", ".svg", ".html"}

CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
                           "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                           "frame-ancestors 'none'")

blp = Blueprint("web", __name__)


@blp.after_request
def _guarded(response):
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    # Revalidated on each load (an ETag and If-None-Match keep that cheap), so
    # that an upgraded server is never paired with yesterday's modules.
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.get("/")
def index():
    return send_from_directory(STATIC, "index.html")


@blp.get("/web/<name>")
def asset(name: str):
    if Path(name).suffix not in TYPES or not (STATIC / name).is_file():
        abort(404)
    return send_from_directory(STATIC, name)
