"""Reading stored events written in an older shape.

Stored rows never change (the event store refuses UPDATE, and the hash chain
covers every byte). When an event type's shape changes, its class raises
``schema_version`` by one and an upcaster is registered here (engine events)
or in the game's ``Rules.upcasters`` (a game's own events): a pure function
from the data of version N to the data of version N+1. On read, a stored
event is upcast step by step to the current version, then decoded.

A stored version with no upcaster, or newer than the code knows, is an
``UpcastError`` naming the event type and both versions: never a guess, never
a silently wrong state.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .engine import DecodeError, Event, UnreadableHistory

Upcaster = Callable[[dict], dict]


class UpcastError(DecodeError, UnreadableHistory):
    """A stored event shape that this code cannot bring to the current one."""

    kind = "event-schema-unknown"

    def __init__(self, message: str):
        DecodeError.__init__(self, message)
        self.message = message


class UnknownEventType(UpcastError):
    """A stored event type the game's installed rules do not have (written by
    a newer release, or by another game)."""

    kind = "event-type-unknown"


def _game_created_1_to_2(data: dict) -> dict:
    """Version 1 of GameCreated predates rules versions: every game created
    then was played under version 1 of its rules, and recorded no data-file
    digests (none are checked for it)."""
    return {**data, "rules_version": 1, "data_files": {}}


def _game_created_2_to_3(data: dict) -> dict:
    """Version 2 of GameCreated predates chain and randomness versions: those
    games hashed plain documents and drew from CPython's random.Random."""
    return {**data, "chain_version": 1, "randomness_version": 1}


ENGINE_UPCASTERS: Mapping[tuple[str, int], Upcaster] = {
    ("GameCreated", 1): _game_created_1_to_2,
    ("GameCreated", 2): _game_created_2_to_3,
}


def upcast(
    cls: type[Event],
    schema_version: int,
    data: Mapping[str, Any],
    upcasters: Mapping[tuple[str, int], Upcaster],
) -> dict:
    """``data`` (stored at ``schema_version``) in the current shape of ``cls``."""
    name, current = cls.type_name(), cls.schema_version
    if isinstance(schema_version, bool) or not isinstance(schema_version, int) or schema_version < 1:
        raise UpcastError(f"stored {name} has no valid schema version ({schema_version!r})")
    if schema_version > current:
        raise UpcastError(
            f"stored {name} has schema version {schema_version}, newer than this installation's {current}: "
            "upgrade boardlog to read it"
        )
    shaped = dict(data)
    for version in range(schema_version, current):
        step = upcasters.get((name, version))
        if step is None:
            raise UpcastError(
                f"no upcaster for {name} from schema version {version} to {version + 1} "
                f"(stored at {schema_version}, current {current})"
            )
        shaped = step(shaped)
    return shaped
