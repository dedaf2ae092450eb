"""A session written down as JSON, for snapshots that outlive a refactoring.

A snapshot names no module. A class is named by whose it is and its plain
``__qualname__``: ``engine:Session`` for the engine's own (session, engine,
lifecycle and kit modules), ``<game>:State`` for one of the game's, found
among the dataclasses of the modules of the game's own package. Moving a
class to another module of the same package, or renaming the package, leaves
stored snapshots readable; renaming a class or changing its fields makes them
unreadable, and an unreadable snapshot is ignored and the game replayed from
its events (so is any snapshot of another format, old pickles included).

Values, in JSON: None, booleans, numbers and strings as themselves; a tuple
as an array; anything else as an object with one tag: ``{"list": [...]}``,
``{"dict": [[key, value], ...]}``, ``{"frozenset": [...]}``, ``{"set": [...]}``,
``{"bytes": "hex"}``, and a dataclass as ``{"class": name, "fields": {...}}``.
A tuple or dataclass the session holds more than once (the ``recent`` states
share most of theirs) is written once with an ``"id"`` (a tuple as
``{"tuple": [...], "id": n}``) and then referred to as ``{"ref": n}``.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

FORMAT = 1
ENGINE = "engine"
_ENGINE_PACKAGES = ("domain.session", "domain.engine", "domain.lifecycle", "domain.kit")
# Where a game's own functions may not be looked for its package: the
# engine's wrappers around them.
_NOT_A_GAME = ("domain.kit", "domain.engine", "domain.session", "domain.lifecycle", "builtins", "functools")


class Unwritable(Exception):
    """The session holds a value this form cannot name (the snapshot is not written)."""


class Unreadable(Exception):
    """A snapshot this code cannot read back exactly (the game is replayed instead)."""


def dumps(session: Any, rules: Any) -> bytes:
    writer = _Writer(rules)
    writer.count(session)
    document = {"format": FORMAT, "game": rules.name, "session": writer.value(session)}
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode()


def loads(data: bytes, rules: Any) -> Any:
    try:
        document = json.loads(data)
    except (UnicodeDecodeError, ValueError) as error:
        raise Unreadable(f"not a JSON snapshot ({error})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise Unreadable("not a snapshot of this format")
    if document.get("game") != rules.name:
        raise Unreadable(f"a snapshot of {document.get('game')!r}, not of {rules.name!r}")
    try:
        return _Reader(rules).value(document["session"])
    except Unreadable:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise Unreadable(f"{type(error).__name__}: {error}") from None


# Naming classes


def game_package(rules: Any) -> str | None:
    """The package of the game's own code: where its functions (or, for a
    rules class, its class) were written."""
    for candidate in (getattr(rules, "given_evolve", None), getattr(rules, "evolve", None),
                      getattr(rules, "decide", None), type(rules)):
        module = getattr(candidate, "__module__", None) or ""
        if module and not module.startswith(_NOT_A_GAME) and module in sys.modules:
            return module if hasattr(sys.modules[module], "__path__") else module.rpartition(".")[0] or module
    return None


def _dataclasses_of(prefixes: tuple[str, ...]) -> dict[str, type | None]:
    """Each dataclass defined in a loaded module under ``prefixes``, by its
    plain name; None for a name two of them share (it names neither)."""
    table: dict[str, type | None] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not any(name == p or name.startswith(p + ".") for p in prefixes):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == name:
                known = table.get(value.__qualname__, value)
                table[value.__qualname__] = value if known is value else None
    return table


# The tables built so far, by the packages they cover.
_TABLES: dict[tuple[str, ...], dict[str, type | None]] = {}


class _Classes:
    """The classes a snapshot of one game may name, and their names."""

    def __init__(self, rules: Any):
        self.game = rules.name
        package = game_package(rules)
        self.owners = {ENGINE: _ENGINE_PACKAGES, self.game: (package,) if package else ()}

    def _table(self, owner: str, fresh: bool = False) -> dict[str, type | None]:
        prefixes = self.owners.get(owner, ())
        if fresh or prefixes not in _TABLES:
            _TABLES[prefixes] = _dataclasses_of(prefixes) if prefixes else {}
        return _TABLES[prefixes]

    def resolve(self, name: str) -> type | None:
        owner, _, qualname = name.partition(":")
        head, *rest = qualname.split(".")
        table = self._table(owner)
        if head not in table:
            table = self._table(owner, fresh=True)  # a module loaded since
        cls: Any = table.get(head)
        for part in rest:
            cls = getattr(cls, part, None)
        return cls if isinstance(cls, type) and dataclasses.is_dataclass(cls) else None

    def name_of(self, cls: type) -> str:
        for owner in (ENGINE, self.game):
            name = f"{owner}:{cls.__qualname__}"
            if self.resolve(name) is cls:
                return name
        raise Unwritable(f"{cls.__module__}.{cls.__qualname__} is neither one of the engine's classes nor one of "
                         f"{self.game}'s (or another class of that package has its name)")


# Writing and reading values

_TAGGED = {list: "list", set: "set", frozenset: "frozenset"}
_SCALARS = frozenset({type(None), bool, int, float, str})


def _scalars(items) -> bool:
    """Whether every item is written as itself (most tuples of a state are)."""
    return all(type(item) in _SCALARS for item in items)


class _Writer:
    def __init__(self, rules: Any):
        self.classes = _Classes(rules)
        self.names: dict[type, str] = {}
        self.times: dict[int, int] = {}  # id of a tuple or dataclass -> how often the session holds it
        self.ids: dict[int, int] = {}  # id of one held more than once -> its number in the document

    def count(self, value: Any) -> None:
        """How often each tuple and dataclass is held (the states of
        ``recent`` share most of theirs), so that those held more than once
        are written once."""
        stack = [value]
        while stack:
            value = stack.pop()
            kind = type(value)
            if kind is tuple or (dataclasses.is_dataclass(value) and not isinstance(value, type)):
                if not value and kind is tuple:
                    continue
                key = id(value)
                if key in self.times:
                    self.times[key] += 1
                    continue
                self.times[key] = 1
                stack.extend(value if kind is tuple else (getattr(value, f.name) for f in dataclasses.fields(value)))
            elif kind in _TAGGED:
                stack.extend(value)
            elif kind is dict:
                stack.extend(value.keys())
                stack.extend(value.values())

    def value(self, value: Any) -> Any:
        kind = type(value)
        if value is None or kind in (bool, int, float, str):
            return value
        if kind is tuple:
            if self.times.get(id(value), 1) == 1:
                return list(value) if _scalars(value) else [self.value(item) for item in value]
            ref = self.ids.get(id(value))
            if ref is not None:
                return {"ref": ref}
            self.ids[id(value)] = ref = len(self.ids)
            return {"tuple": [self.value(item) for item in value], "id": ref}
        if kind in _TAGGED:
            return {_TAGGED[kind]: [self.value(item) for item in value]}
        if kind is dict:
            return {"dict": [[self.value(k), self.value(v)] for k, v in value.items()]}
        if kind is bytes:
            return {"bytes": value.hex()}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return self.dataclass(value)
        raise Unwritable(f"a snapshot cannot hold a {kind.__module__}.{kind.__qualname__}")

    def dataclass(self, value: Any) -> dict:
        ref = self.ids.get(id(value))
        if ref is not None:
            return {"ref": ref}
        kind = type(value)
        name = self.names.get(kind) or self.names.setdefault(kind, self.classes.name_of(kind))
        names = [f.name for f in dataclasses.fields(value)]
        extra = set(getattr(value, "__dict__", ())) - set(names)
        if extra:
            raise Unwritable(f"{name} holds attributes that are not its fields: {', '.join(sorted(extra))}")
        written: dict[str, Any] = {"class": name}
        if self.times.get(id(value), 1) > 1:
            self.ids[id(value)] = written["id"] = len(self.ids)
        written["fields"] = {n: self.value(getattr(value, n)) for n in names}
        return written


class _Reader:
    def __init__(self, rules: Any):
        self.classes = _Classes(rules)
        self.found: dict[str, tuple[type, frozenset[str], bool]] = {}
        self.made: dict[int, Any] = {}

    def value(self, value: Any) -> Any:
        kind = type(value)
        if value is None or kind in (bool, int, float, str):
            return value
        if kind is list:
            return tuple(value) if _scalars(value) else tuple([self.value(item) for item in value])
        if kind is not dict:
            raise Unreadable(f"not a value of a snapshot: {value!r:.80}")
        if "class" in value:
            return self.dataclass(value)
        if "tuple" in value:
            made = self.made[value["id"]] = tuple([self.value(item) for item in value["tuple"]])
            return made
        if len(value) != 1:
            raise Unreadable(f"not a value of a snapshot: {value!r:.80}")
        (tag, inner), = value.items()
        if tag == "ref":
            return self.made[inner]
        if tag == "bytes":
            return bytes.fromhex(inner)
        items = [self.value(item) for item in inner]
        if tag == "list":
            return items
        if tag == "set":
            return set(items)
        if tag == "frozenset":
            return frozenset(items)
        if tag == "dict":
            return {key: item for key, item in items}
        raise Unreadable(f"an unknown tag {tag!r}")

    def dataclass(self, value: dict) -> Any:
        name = value["class"]
        found = self.found.get(name)
        if found is None:
            cls = self.classes.resolve(name)
            if cls is None:
                raise Unreadable(f"no class {name} here")
            has_dict = all("__dict__" in vars(c) or c is object for c in cls.__mro__[:-1]) and not any(
                "__slots__" in vars(c) for c in cls.__mro__[:-1])
            found = self.found[name] = cls, frozenset(f.name for f in dataclasses.fields(cls)), has_dict
        cls, names, has_dict = found
        fields = value["fields"]
        if fields.keys() != names:
            raise Unreadable(f"{name} has the fields {', '.join(sorted(names))} now, "
                             f"not {', '.join(sorted(fields))}")
        # Set as stored, without __init__ or __post_init__: the object as it was.
        made = object.__new__(cls)
        values = {field_name: self.value(item) for field_name, item in fields.items()}
        if has_dict:
            made.__dict__.update(values)
        else:
            for field_name, item in values.items():
                object.__setattr__(made, field_name, item)
        if "id" in value:
            self.made[value["id"]] = made
        return made
