"""The pieces the engine shares with games: messages, codecs, options,
standings, refusals and the random source of randomness version 1 (what a
game is made of, and the functions it gives, is ``domain.kit.game``).

Randomness only ever comes from the injected ``rng``, and whatever it yields is
written into events, so that ``evolve`` never rolls and replay is exact.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import random
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping

# The viewer who sees everything: the referee, Lind's own view of his route,
# or anyone once the game is over.
EVERYONE = "*"


class IllegalCommand(Exception):
    """A command the rules refuse, with a reason a player can act on."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class InvalidOption(IllegalCommand):
    """An option given at creation that is unknown, of the wrong type, out of
    bounds or at odds with another; ``option`` is its path, such as
    ``rounds`` or ``bots.p2``."""

    def __init__(self, message: str, option: str):
        super().__init__(message)
        self.option = option


class NotYourTurn(IllegalCommand):
    """A command from a seat that is not to act now."""


class DecodeError(ValueError):
    """JSON that does not describe a known command or event."""


class UnreadableHistory(Exception):
    """A stored game this installation cannot replay faithfully: recorded under
    rules, data or an event shape it does not have. Never replayed anyway, under
    other rules: that would show a game that was not played."""

    kind = "unreadable-history"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class UnknownRulesVersion(UnreadableHistory):
    """The game was created under a rules version this installation lacks
    (typically: a newer export audited by an older boardlog)."""

    kind = "rules-version-unknown"


class ChangedDataFile(UnreadableHistory):
    """A data file of a released rules version differs from the one the game
    was created with: it was edited in place instead of versioned."""

    kind = "data-file-changed"


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    if isinstance(value, dict):
        return {key: _freeze(item) for key, item in value.items()}
    return value


_PLAIN = frozenset((str, int, float, bool, type(None)))


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


@functools.cache
def _required_names(cls: type) -> tuple[str, ...]:
    """The fields a message of ``cls`` must be given (those without a default)."""
    return tuple(f.name for f in dataclasses.fields(cls)
                 if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)


def _thaw(value: Any) -> Any:
    if type(value) in _PLAIN:  # most values: answered before the checks below (legal commands are many)
        return value
    if isinstance(value, (list, tuple)):
        return [_thaw(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _thaw(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: _thaw(getattr(value, name)) for name in _field_names(type(value))}
    return value


@dataclass(frozen=True)
class Message:
    """Base of commands and events: a frozen dataclass whose JSON form is
    ``{"type": ClassName, **fields}``. Fields hold JSON values; lists are
    stored as tuples so that messages stay immutable."""

    @classmethod
    def type_name(cls) -> str:
        return cls.__name__

    def to_json(self) -> dict:
        data = {name: _thaw(getattr(self, name)) for name in _field_names(type(self))}
        return {"type": self.type_name(), **data}


@dataclass(frozen=True)
class Command(Message):
    """An imperative request from a seat (MoveLind)."""


@dataclass(frozen=True)
class Event(Message):
    """A past-tense fact (LindMoved).

    ``schema_version`` is the version of this event type's stored shape. When
    a field is added, renamed or reinterpreted, it is raised by one and an
    upcaster from the old shape is registered (domain/upcasting.py), so that
    stored rows, which never change, are read back in the current shape."""

    schema_version: ClassVar[int] = 1


class Codec:
    """Turns JSON back into the message classes it knows, by ``type``."""

    def __init__(self, classes: Iterable[type[Message]]):
        self.classes: dict[str, type[Message]] = {}
        for cls in classes:
            if cls.type_name() in self.classes:
                raise ValueError(f"two message classes named {cls.type_name()}")
            self.classes[cls.type_name()] = cls

    def __contains__(self, type_name: str) -> bool:
        return type_name in self.classes

    def decode(self, data: Mapping[str, Any]) -> Message:
        if not isinstance(data, Mapping):
            raise DecodeError("expected a JSON object with a 'type'")
        type_name = data.get("type")
        cls = self.classes.get(type_name) if isinstance(type_name, str) else None
        if cls is None:
            known = ", ".join(sorted(self.classes))
            raise DecodeError(f"unknown type {type_name!r}; known types: {known}")
        names, required = _field_names(cls), _required_names(cls)
        unknown = sorted(set(data).difference(names, ("type",)))
        if unknown:
            raise DecodeError(f"{type_name} has no field(s) {', '.join(unknown)}")
        missing = sorted(name for name in required if name not in data)
        if missing:
            raise DecodeError(f"{type_name} needs field(s) {', '.join(missing)}")
        values = {key: _freeze(value) for key, value in data.items() if key != "type"}
        return cls(**values)


def field_types(cls: type[Message]) -> dict[str, Any]:
    """The resolved annotations of a message class (used to build API schemas)."""
    return typing.get_type_hints(cls)


@dataclass(frozen=True)
class Option:
    """A declared game option. ``kind`` is "int", "bool" or "choice"."""

    name: str
    kind: str
    default: Any
    description: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: Any) -> Any:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidOption(f"option {self.name} must be true or false", self.name)
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOption(f"option {self.name} must be a whole number", self.name)
            if self.minimum is not None and value < self.minimum:
                raise InvalidOption(f"option {self.name} must be at least {self.minimum}, not {value}", self.name)
            if self.maximum is not None and value > self.maximum:
                raise InvalidOption(f"option {self.name} must be at most {self.maximum}, not {value}", self.name)
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise InvalidOption(
                    f"option {self.name} must be one of {', '.join(self.choices)}, not {value!r}", self.name
                )
            return value
        raise ValueError(f"unknown option kind {self.kind}")

    def to_json(self) -> dict:
        data = {"name": self.name, "kind": self.kind, "default": self.default, "description": self.description}
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        if self.choices:
            data["choices"] = list(self.choices)
        return data


def resolve_options(declared: Iterable[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults filled in, every value checked; unknown names refused."""
    given = dict(given or {})
    declared = {option.name: option for option in declared}
    unknown = sorted(set(given) - set(declared))
    if unknown:
        raise InvalidOption(
            f"unknown option(s) {', '.join(unknown)}; this game has {', '.join(sorted(declared)) or 'none'}",
            unknown[0],
        )
    return {name: option.check(given.get(name, option.default)) for name, option in declared.items()}


@dataclass(frozen=True)
class Standing:
    """One seat's place in the final standings; equal ranks share a place."""

    seat: str
    rank: int
    score: int | float | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"seat": self.seat, "rank": self.rank, "score": self.score, "detail": _thaw(dict(self.detail))}


def rank_by(scores: Mapping[str, Any]) -> dict[str, int]:
    """Competition ranking (1, 1, 3) of seats by a sortable key, highest first."""
    ordered = sorted(scores.values(), reverse=True)
    return {seat: 1 + ordered.index(value) for seat, value in scores.items()}


@dataclass(frozen=True)
class Resignation:
    """What a game makes of a seat's resignation: its own events (which may
    end the game), whether a bot must play the seat's turns from now on, and
    whether the last seat not to resign then wins at once (multiplayer)."""

    events: tuple[Event, ...] = ()
    bot: bool = True
    last_standing_wins: bool = True


def not_your_turn(seat: str, to_act: Iterable[str]) -> IllegalCommand:
    waiting = sorted(to_act)
    if not waiting:
        return NotYourTurn("it is not your turn: nobody is to act now")
    return NotYourTurn(f"it is not your turn: {', '.join(waiting)} {'is' if len(waiting) == 1 else 'are'} to act")


def rng_for(seed: bytes, version: int) -> random.Random:
    """The random source for the command decided at ``version`` of a game.

    Derived from the game's secret seed and the version, so that anyone who
    learns the seed at the end can re-run every decision and get the same
    shuffles and rolls. This is randomness version 1, the games recorded
    before version 2 (domain.randomness.Source chooses by the game's version)."""
    digest = hashlib.sha256(seed + b":" + str(version).encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def seed_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()
