"""The ETag of a view: the game's version and who looks at it,
``"<version>-<12 hex of sha256(player id, or 'public')>"``, so that one
viewer's tag never gives another viewer a 304, and ``"<version>-<...'*'>"``
for the whole game once it is over."""

from __future__ import annotations

import hashlib
from functools import lru_cache

MAX_VERSION = 2**31 - 1  # versions are PostgreSQL integers


@lru_cache(maxsize=65536)
def _viewer(player: str | None) -> str:
    # Every poll names its viewer: a hash per poll would be a tenth of a 304.
    return hashlib.sha256((player or "public").encode()).hexdigest()[:12]


def view_etag(version: int, player: str | None) -> str:
    return f'"{version}-{_viewer(player)}"'


def parse_version(text: str) -> int | None:
    """A version written in a header, or None. ASCII digits only (str.isdigit
    also takes "²", which int() refuses) and no more than a version can be
    (an int() of thousands of digits is slow, and past 4,300 digits raises)."""
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(MAX_VERSION))):
        return None
    version = int(text)
    return version if version <= MAX_VERSION else None


def known_version(tags, player: str | None) -> int | None:
    """The version of the first of ``tags`` (unquoted strong tags, as
    werkzeug's If-None-Match set gives them) that is this viewer's."""
    for tag in tags:
        if not tag:  # werkzeug reads If-None-Match: "" as a None tag
            continue
        version = parse_version(tag.partition("-")[0])
        if version is not None and view_etag(version, player).strip('"') == tag:
            return version
    return None


def single_tag_version(header: str, player: str | None) -> int | None:
    """The version named by an If-None-Match that is exactly one strong tag,
    this viewer's; None for anything else (a list, a weak tag, ``*``,
    another viewer's), which the full path reads."""
    if len(header) < 4 or header[0] != '"' or header[-1] != '"':
        return None
    version = parse_version(header[1:-1].partition("-")[0])
    if version is None or view_etag(version, player) != header:
        return None
    return version
