"""Numbers read from the environment: a value that is not one stops the
process with a sentence naming the variable, not a traceback from int()."""

from __future__ import annotations

import os


class SettingError(SystemExit):
    """A setting the process cannot start with (exits with its message)."""


def env_number(name: str, default: float, minimum: float = 0, kind: type = int):
    text = os.environ.get(name)
    if text is None or not text.strip():
        return default
    try:
        value = kind(text.strip()) if len(text) <= 20 else None
    except ValueError:
        value = None
    if value is None or value != value or value < minimum or value in (float("inf"), float("-inf")):
        raise SettingError(f"{name} must be a {'whole ' if kind is int else ''}number of at least {minimum}, "
                           f"not {text[:40]!r}")
    return value
