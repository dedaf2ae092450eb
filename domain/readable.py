"""One rule for every free text other people read (player names, table
talk): nothing that hides or reverses text.

Refused: a control or format character (zero-width spaces and joiners,
bidirectional overrides and isolates, soft hyphens, byte order marks), a
private-use, surrogate or unassigned code point, a line or paragraph
separator, and text with nothing a reader can see (only fillers such as
U+3164 or blank Braille). The one exception is the zero-width joiner inside
an emoji sequence (👩‍🚀), where it is part of one visible picture. Each kind
of text says which ordinary layout characters it also takes (a message:
newline and tab; a name: none).
"""

from __future__ import annotations

import unicodedata

ZERO_WIDTH_JOINER = "\u200d"
# Letters and symbols that render as blank space.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
VISIBLE_CATEGORIES = ("L", "N", "P", "S")


def unreadable(text: str, what: str, layout: str = "") -> str | None:
    """Why ``text`` (already trimmed and NFC) may not be shown to others, a
    sentence naming ``what`` it is ("a name", "a message"), or None. The
    characters of ``layout`` are allowed although they are controls."""
    for index, char in enumerate(text):
        if char in layout:
            continue
        if unicodedata.category(char) in HIDDEN_CATEGORIES and not _joins_emoji(text, index):
            return (f"{what} may not contain U+{ord(char):04X} ({unicodedata.name(char, 'unnamed').lower()}): "
                    "it is invisible or changes how the text around it reads")
    if not any(unicodedata.category(c)[0] in VISIBLE_CATEGORIES and c not in BLANK_LOOKING for c in text):
        return f"{what} must have at least one visible character"
    return None


def _joins_emoji(text: str, index: int) -> bool:
    """A zero-width joiner between two pictographs (an emoji sequence)."""
    if text[index] != ZERO_WIDTH_JOINER or not 0 < index < len(text) - 1:
        return False
    before = text[index - 1]
    if before == "\ufe0f" and index > 1:  # emoji presentation selector
        before = text[index - 2]
    return unicodedata.category(before) in ("So", "Sk") and unicodedata.category(text[index + 1]) == "So"
