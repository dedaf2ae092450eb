"""Headers that keep a browser from misreading or framing any answer, set
once after every request (api/http/app.py):

- ``X-Content-Type-Options: nosniff`` on every answer: a JSON answer (or a
  problem) is never sniffed into something a browser would run;
- framing refused everywhere (``frame-ancestors 'none'`` and, for older
  browsers, ``X-Frame-Options: DENY``): no page of this origin can be laid
  under another site's clicks (the unsubscribe button, the docs);
- a Content-Security-Policy on every answer that has none of its own (the
  web client's blueprint sets its own, api/http/resources/web.py): nothing may
  load, run or be submitted anywhere but here. The mail pages are plain
  HTML with one form, so ``default-src 'none'`` holds them; the docs page
  (Swagger UI) loads its scripts and styles from this origin and runs one
  inline script, allowed by its sha256, computed from the page served.
"""

from __future__ import annotations

import base64
import hashlib
import re

from flask import request

STRICT = "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
DOCS = "/v1/docs"
INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.S)


# What every answer of a JSON resource carries, also those answered before Flask (api/http/polls.py).
JSON_ANSWER = (("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Content-Security-Policy", STRICT))


def apply(response) -> None:
    headers = response.headers
    if "X-Content-Type-Options" not in headers:
        headers.add("X-Content-Type-Options", "nosniff")
    if "X-Frame-Options" not in headers:
        headers.add("X-Frame-Options", "DENY")
    if "Content-Security-Policy" not in headers:
        docs = response.mimetype == "text/html" and request.path.startswith(DOCS)
        headers.add("Content-Security-Policy", _docs_policy(response) if docs else STRICT)


def _docs_policy(response) -> str:
    """Swagger UI: its files from here, its one inline script by hash, its
    inline styles (it sets them as it draws), images from here or data: URLs."""
    scripts = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'"
                       for body in INLINE_SCRIPT.findall(response.get_data()))
    return (f"default-src 'none'; script-src 'self' {scripts}; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
