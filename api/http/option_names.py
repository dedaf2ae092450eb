"""One name for one idea across games: options renamed at the API, with the
old names still taken (and marked deprecated in the catalogue and the
document). The games' own rules and their stored events keep the old names,
so games created before a rename replay unchanged.

Coronation's ``detective_seats`` (how many players share the detectives) is
``players`` (every seat, Lind's included: detective seats + 1), as in the
other games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from domain import games as registry
from domain.engine import InvalidOption
from domain.session import MAX_TURN_SECONDS

from ..service import errors

BOTS = "bots"
TURN_SECONDS = {
    "name": "turn_seconds",
    "kind": "int",
    "default": None,
    "description": "seconds each turn may last before the seats to act time out; off when null",
    "minimum": 1,
    "maximum": MAX_TURN_SECONDS,
}


@dataclass(frozen=True)
class Renamed:
    old: str
    new: str
    offset: int  # new = old + offset
    description: str

    def entry(self, old_entry: dict) -> dict:
        """The catalogue entry of the new name, from the old one's."""
        entry = {**old_entry, "name": self.new, "description": self.description}
        for bound in ("default", "minimum", "maximum"):
            if isinstance(entry.get(bound), int):
                entry[bound] += self.offset
        return entry


RENAMED: dict[str, tuple[Renamed, ...]] = {
    "coronation": (Renamed("detective_seats", "players", 1, "number of players: Lind's and the detective seats"),),
}


def incoming(game: str, options: Mapping[str, Any]) -> dict:
    """Options as the game's rules name them; a name the game does not take
    (its own options, the engine's, the deprecated names) refused first."""
    options = dict(options)
    if game in registry.REGISTRY:
        options = _whole_numbers(game, options)
        known = set(every_name(game))
        unknown = sorted(name for name in options if name not in known)
        if unknown:
            raise InvalidOption(f"unknown option(s) {', '.join(unknown)}", unknown[0])
    for renamed in RENAMED.get(game, ()):
        if renamed.new not in options:
            continue
        if renamed.old in options:
            raise InvalidOption(f"give option {renamed.new} or its deprecated name {renamed.old}, not both",
                                renamed.old)
        value = options.pop(renamed.new)
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOption(f"option {renamed.new} must be a whole number", renamed.new)
        declared = next((o for o in registry.REGISTRY[game].options if o.name == renamed.old), None)
        low, high = (declared.minimum, declared.maximum) if declared else (None, None)
        if low is not None and high is not None and not low <= value - renamed.offset <= high:
            raise InvalidOption(f"option {renamed.new} must be from {low + renamed.offset} to "
                                f"{high + renamed.offset}, not {value}", renamed.new)
        options[renamed.old] = value - renamed.offset
    return options


def _whole_numbers(game: str, options: dict) -> dict:
    """A whole number sent as a float (``8220293.0``) is an integer in JSON
    Schema's sense, which the document's integer options promise to take:
    made the int the rules check."""
    integers = {entry["name"] for entry in every_option(game) if entry["kind"] == "int"}
    return {name: int(value) if name in integers and isinstance(value, float) and value.is_integer() else value
            for name, value in options.items()}


def outgoing(game: str, options: Mapping[str, Any]) -> dict:
    """Stored options with the new names beside the old."""
    options = dict(options)
    for renamed in RENAMED.get(game, ()):
        if isinstance(options.get(renamed.old), int):
            options[renamed.new] = options[renamed.old] + renamed.offset
    return options


def catalogue(game: str, entries: list[dict]) -> list[dict]:
    """The catalogue's options: each new name in place of the old, the old
    one after them, marked deprecated."""
    renames = {renamed.old: renamed for renamed in RENAMED.get(game, ())}
    current, deprecated = [], []
    for entry in entries:
        renamed = renames.get(entry["name"])
        if renamed is None:
            current.append(entry)
            continue
        current.append(renamed.entry(entry))
        deprecated.append({**entry, "deprecated": True,
                           "description": f"deprecated: use {renamed.new} (= {entry['name']} + {renamed.offset})"})
    return current + deprecated


def refused(game: str, error: InvalidOption) -> errors.InvalidOption:
    """The problem of a refused option: its path, the reason, and every
    option the game takes (the engine's included), so a misspelling can be
    put right from the answer alone."""
    takes = ", ".join(every_name(game)) if game in registry.REGISTRY else "none"
    title = registry.REGISTRY[game].title if game in registry.REGISTRY else game
    return errors.InvalidOption(f"{error.message}; a game of {title} takes the options {takes}",
                                option=error.option)


def every_option(game: str) -> list[dict]:
    """The catalogue entries of every option a host may give when creating
    a game of ``game``, bots aside: the game's own (new names first), then
    the engine's: turn_seconds and those of a game's life (domain.lifecycle)."""
    from domain.lifecycle import decide as lifecycle

    entries = registry.REGISTRY[game].catalogue()["options"]
    return [*catalogue(game, entries), TURN_SECONDS, *lifecycle.described_options()]


def every_name(game: str) -> list[str]:
    """Every option's name, as a host may give it, bots included."""
    return [entry["name"] for entry in every_option(game)] + [BOTS]
