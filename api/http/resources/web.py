"""The web client at ``/``: a page and its ES modules, styles and icon, from
api/web/static/. The client is built on the public API alone (it is the
reference frontend); this blueprint only serves files, under a strict
Content-Security-Policy: scripts, styles, images and connections from this
origin only, no inline script, no frames, no plugins."""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, abort, request, send_from_directory

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
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
    return _file("index.html")


@blp.get("/sw.js")
def service_worker():
    """The service worker that shows Web Push notifications; at the root,
    because a worker's scope cannot reach above its own path and the client
    lives at /."""
    return _file("sw.js")


@blp.get("/web/<name>")
def asset(name: str):
    if Path(name).suffix not in TYPES or not (STATIC / name).is_file():
        abort(404)
    return _file(name)


GZIP_MIN_BYTES = 1024


def _file(name: str) -> Response:
    """The file, gzipped for a browser that takes it (the modules carry their
    JSDoc types, which compress to a fifth), with an ETag of its own form."""
    path = STATIC / name
    stat = path.stat()
    if stat.st_size < GZIP_MIN_BYTES or request.accept_encodings.quality("gzip") <= 0:
        response = send_from_directory(STATIC, name)
    else:
        body, tag = _gzipped(name, stat.st_mtime_ns)
        response = Response(body, mimetype=mimetypes.guess_type(name)[0])
        response.headers["Content-Encoding"] = "gzip"
        response.set_etag(tag)
        response = response.make_conditional(request)
    response.vary.add("Accept-Encoding")
    return response


@lru_cache(maxsize=64)
def _gzipped(name: str, mtime_ns: int) -> tuple[bytes, str]:
    """The file's gzip form and its ETag, made once per version of the file."""
    body = gzip.compress((STATIC / name).read_bytes(), compresslevel=9, mtime=0)
    return body, f"gz-{hashlib.sha256(body).hexdigest()[:32]}"
