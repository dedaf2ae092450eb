"""Player names: what other players will read, so nothing that hides or
reverses text.

A name is trimmed and normalised to Unicode NFC (so "é" typed two ways is
one name), then refused when it is empty, holds a control or format
character (zero-width spaces and joiners, bidirectional overrides and
isolates, soft hyphens, byte order marks), a private-use or unassigned code
point, a line break, or has nothing a reader can see (only fillers such as
U+3164 or blank Braille). The one exception is the zero-width joiner inside
an emoji sequence (👩‍🚀), where it is part of one visible picture. Bounded
in characters (what a person sees) and in UTF-8 bytes (what is stored).
"""

from __future__ import annotations

import unicodedata

MAX_CHARACTERS = 80
MAX_BYTES = 200
ZERO_WIDTH_JOINER = "\u200d"
# Letters and symbols that render as blank space.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
HIDDEN_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
VISIBLE_CATEGORIES = ("L", "N", "P", "S", "M")


class BadName(ValueError):
    pass


def normalise_name(text: str) -> str:
    """The name as stored and shown, or BadName saying what is wrong."""
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise BadName("a name must have at least one visible character")
    for index, char in enumerate(name):
        if unicodedata.category(char) in HIDDEN_CATEGORIES and not _joins_emoji(name, index):
            raise BadName(f"a name may not contain U+{ord(char):04X} ({_char_name(char)}): "
                          "it is invisible or changes how the text around it reads")
    if not any(unicodedata.category(c)[0] in VISIBLE_CATEGORIES[:4] and c not in BLANK_LOOKING for c in name):
        raise BadName("a name must have at least one visible character")
    if len(name) > MAX_CHARACTERS:
        raise BadName(f"a name has at most {MAX_CHARACTERS} characters, not {len(name)}")
    size = len(name.encode("utf-8"))
    if size > MAX_BYTES:
        raise BadName(f"a name takes at most {MAX_BYTES} bytes in UTF-8, not {size}")
    return name


def _joins_emoji(name: str, index: int) -> bool:
    """A zero-width joiner between two pictographs (an emoji sequence)."""
    if name[index] != ZERO_WIDTH_JOINER or not 0 < index < len(name) - 1:
        return False
    before = name[index - 1]
    if before == "\ufe0f" and index > 1:  # emoji presentation selector
        before = name[index - 2]
    return unicodedata.category(before) in ("So", "Sk") and unicodedata.category(name[index + 1]) == "So"


def _char_name(char: str) -> str:
    return unicodedata.name(char, "unnamed").lower()
