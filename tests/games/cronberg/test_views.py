"""Views and event feeds hide the order of the face-down stack (leak test);
legal_commands is complete and exact."""

from __future__ import annotations

import dataclasses
import json

from domain.engine import EVERYONE
from domain.games.cronberg import RULES
from domain.games.cronberg.board import BOARD
from domain.games.cronberg.messages import DrawBuilding, PlaceBuilding, PlaceMember, RoundStarted
from domain.playout import play

from tests.games.cronberg.support import built, drawn, enclosed, given, member


def positions(seeds, every=7):
    """(events so far, state) at intervals through seeded random games."""
    for seed in seeds:
        playout = play(RULES, {"players": 2 + seed % 3, "rounds": 1 + seed % 2}, seed, check=False)
        state = None
        for n, event in enumerate(playout.events):
            state = RULES.evolve(state, event)
            if n and (n % every == 0 or n == len(playout.events) - 1):  # from the first round on
                yield playout.events[: n + 1], state


def dumps(value):
    return json.dumps(value, sort_keys=True)


def rerandomised(event_or_state, rng):
    """The same public facts with another face-down order."""
    stack = list(event_or_state.stack)
    rng.shuffle(stack)
    return dataclasses.replace(event_or_state, stack=tuple(stack))


def test_the_referee_sees_the_stack():
    events, state = next(positions([1]))
    assert RULES.view(state, EVERYONE)["stack"] == list(state.stack)
    started = next(e for e in events if isinstance(e, RoundStarted))
    assert RULES.visible(started, EVERYONE)["stack"] == list(started.stack)
    assert "stack" not in RULES.visible(started, "p1") and "stack" not in RULES.view(state, "p1")


def test_the_view_shows_active_triangles_and_closed_crossings():
    state = given(built(1, "T08", "T09"), built(2, "T11", "T12"), built(3, "T20", "T21"), *enclosed("T10"))
    view = RULES.view(state, None)
    triangles = {t["id"]: t for t in view["triangles"]}
    crossings = {c["id"]: c for c in view["crossings"]}
    assert triangles["T10"]["active"] and triangles["T10"]["enclosed"] and triangles["T10"]["kind"] == "musketeer"
    assert triangles["T09"]["tile"] == 1 and triangles["T01"]["wall_sides"] == [["X01", "X05"]]
    assert not crossings["X06"]["open"] and crossings["X19"]["open"]
    assert view["to_act"] == ["p1"] and view["step"] == "choose_action" and view["stack_size"] == 25
    assert [b["tile"] for b in view["buildings"]] == [1, 2, 3]


def test_every_seat_and_a_spectator_see_the_same_open_city():
    state = given(built(4, "T01", "T02"), member("p2", "X19"), drawn(5))
    views = [RULES.view(state, viewer) for viewer in ("p1", "p2", None)]
    own = ("viewer", "hand")  # who looks, and the building he holds
    assert all({k: v for k, v in view.items() if k not in own} == {k: v for k, v in views[0].items() if k not in own} for view in views)
    # The drawn building is in the hand of the seat that lays it: a client draws it there.
    assert [view["hand"] for view in views] == [[5], [], None]
    assert "stack" not in views[0] and views[0]["drawn"]["id"] == 5
    assert views[0]["players"] == [
        {"seat": "p1", "score": 0, "supply": 4, "in_city": 0},
        {"seat": "p2", "score": 0, "supply": 3, "in_city": 1},
    ]


def every_command():
    """The whole command space, sense and nonsense, in both orders."""
    yield DrawBuilding()
    for crossing in (*BOARD.crossing_index, "X00", "", "x01"):
        yield PlaceMember(crossing=crossing)
    for slot in BOARD.slots:
        pair = (BOARD.triangles[slot.first].id, BOARD.triangles[slot.second].id)
        for turned in (False, True):
            yield PlaceBuilding(triangles=pair, turned=turned)
            yield PlaceBuilding(triangles=pair[::-1], turned=turned)
    for nonsense in ((), ("T01",), ("T01", "T01"), ("T01", "T03"), ("T01", "T02", "T03"), ("T01", "T99")):
        yield PlaceBuilding(triangles=nonsense)
