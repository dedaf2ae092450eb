"""A session written down for a snapshot (domain/snapshots.py): classes named
by their game and plain name, never by module path, and read back exactly or
not at all."""

from __future__ import annotations

import json
import random

import pytest

from domain import games as registry
from domain import playout, snapshots
from domain.session import Session


def _session_of(game: str, steps: int = 40) -> Session:
    rules = registry.get(game)
    played = playout.start(rules, None, seed=3)
    rng, recent = random.Random(3), []
    while not played.over and played.steps < steps:
        recent.append((played.steps, played.state))
        playout.step(played, rng, check=False)
    return Session(game=game, options={"players": 2}, seats=("p1", "p2"), host="h", seed_sha256="00",
                   contributions={"p1": "ab"}, state=played.state, recent=tuple(recent[-8:]))


@pytest.mark.parametrize("game", sorted(registry.REGISTRY))
def test_a_session_of_every_game_reads_back_equal_and_names_no_module(game):
    rules = registry.get(game)
    session = _session_of(game)
    data = snapshots.dumps(session, rules)
    assert snapshots.loads(data, rules) == session
    assert b"domain." not in data and b"__main__" not in data
    state_class = json.loads(data)["session"]["fields"]["state"]["class"]
    assert state_class == f"{game}:{type(session.state).__qualname__}"


def test_values_of_every_kind_read_back_as_the_same_kinds():
    rules = registry.get("cronberg")
    options = {"tuple": (1, 2.5, "x", None, True), "list": [1, [2]], "set": {3}, "frozenset": frozenset({"a"}),
               "bytes": b"\x00\xff", 7: "a key that is not a string"}
    session = Session(game="cronberg", options=options, seats=("p1",), host="h", seed_sha256="00")
    back = snapshots.loads(snapshots.dumps(session, rules), rules)
    assert back == session
    assert {k: type(v) for k, v in back.options.items()} == {k: type(v) for k, v in options.items()}


def test_a_class_the_game_no_longer_has_makes_the_snapshot_unreadable():
    rules = registry.get("cronberg")
    data = snapshots.dumps(_session_of("cronberg"), rules).replace(b'"cronberg:State"', b'"cronberg:OldState"')
    with pytest.raises(snapshots.Unreadable, match="no class cronberg:OldState"):
        snapshots.loads(data, rules)


def test_a_class_whose_fields_changed_makes_the_snapshot_unreadable():
    rules = registry.get("cronberg")
    document = json.loads(snapshots.dumps(_session_of("cronberg"), rules))
    document["session"]["fields"]["life"]["fields"]["gone"] = 1
    with pytest.raises(snapshots.Unreadable, match="Life has the fields"):
        snapshots.loads(json.dumps(document).encode(), rules)


def test_a_snapshot_of_another_game_or_format_is_unreadable():
    cronberg, coronation = registry.get("cronberg"), registry.get("coronation")
    data = snapshots.dumps(_session_of("cronberg"), cronberg)
    with pytest.raises(snapshots.Unreadable, match="a snapshot of 'cronberg'"):
        snapshots.loads(data, coronation)
    with pytest.raises(snapshots.Unreadable, match="not a JSON snapshot"):
        snapshots.loads(b"\x80\x04\x95pickled", cronberg)


def test_a_value_it_cannot_name_is_refused_when_written_not_written_wrong():
    class Unknown:
        pass

    session = Session(game="cronberg", options={"odd": Unknown()}, seats=("p1",), host="h", seed_sha256="00")
    with pytest.raises(snapshots.Unwritable, match="Unknown"):
        snapshots.dumps(session, registry.get("cronberg"))
