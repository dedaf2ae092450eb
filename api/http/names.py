"""Player names: what other players will read, so nothing that hides or
reverses text (domain.readable, the rule of every free text people read;
a name takes no line break either).

A name is trimmed and normalised to Unicode NFC (so "é" typed two ways is
one name), then refused when it is empty or domain.readable refuses it.
Bounded in characters (what a person sees) and in UTF-8 bytes (what is
stored).
"""

from __future__ import annotations

import unicodedata

from domain.readable import unreadable

MAX_CHARACTERS = 80
MAX_BYTES = 200


class BadName(ValueError):
    pass


def normalise_name(text: str) -> str:
    """The name as stored and shown, or BadName saying what is wrong."""
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise BadName("a name must have at least one visible character")
    why = unreadable(name, "a name")
    if why:
        raise BadName(why)
    if len(name) > MAX_CHARACTERS:
        raise BadName(f"a name has at most {MAX_CHARACTERS} characters, not {len(name)}")
    size = len(name.encode("utf-8"))
    if size > MAX_BYTES:
        raise BadName(f"a name takes at most {MAX_BYTES} bytes in UTF-8, not {size}")
    return name
