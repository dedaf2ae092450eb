"""Per-seat views and event feeds: Lind sees everything, the others only the
public facts; a hide looks like a move, every way of moving looks alike."""

import json

from domain.engine import EVERYONE
from domain.games.coronation import RULES
from domain.games.coronation.messages import LindMoved, LindMovedExtraordinarily, MoveDetective, MoveLindExtraordinarily
from tests.games.coronation.support import (
    D1,
    FANDORIN,
    LIND,
    LUBYANKA,
    RED_SQUARE,
    USPENSKY,
    lind_at,
    route,
    state_of,
    then,
)
from tests.games.told import seen

OTHERS = (D1, None)


def _same_for_others(a_events, b_events):
    a, b = state_of(a_events), state_of(b_events)
    for viewer in OTHERS:
        assert json.dumps(RULES.view(a, viewer), sort_keys=True) == json.dumps(RULES.view(b, viewer), sort_keys=True)
        assert [seen(RULES, e, viewer) for e in a_events] == [seen(RULES, e, viewer) for e in b_events]


def test_lind_sees_his_location_hand_and_whole_route():
    events = route(RED_SQUARE, (LUBYANKA, "foot", "locked-in"))
    for viewer in (LIND, EVERYONE):
        secret = RULES.view(state_of(events), viewer)["lind"]
        assert secret["location"] == LUBYANKA
        assert secret["route"] == [
            {"location": RED_SQUARE, "hide": False, "card": "locked-in"},
            {"location": LUBYANKA, "hide": False, "card": None},
        ]
        assert {"card": "locked-in", "count": 2} in secret["hand"]
        assert RULES.visible(events[-2], viewer)["to"] == LUBYANKA


def test_detectives_and_spectators_see_face_down_route_cards_and_counts_only():
    events = route(USPENSKY, (RED_SQUARE, "foot", "locked-in"))
    for viewer in OTHERS:
        view = RULES.view(state_of(events), viewer)
        assert view["lind"] is None
        assert view["route"][0] == {
            "index": 0, "left": True, "card_left": True, "revealed": False, "hide": None,
            "location": None, "card_revealed": False, "card": None, "trap_spent": False,
        }
        assert view["route"][1]["card_left"] is None and view["route"][1]["location"] is None
        assert (view["jewels_left"], view["lind_cards_left"], view["turn"]) == (5, 23, 2)
        assert RULES.visible(events[-2], viewer) == {"type": "LindMoved", "card_left": True, "jewel_stolen": True}
        assert RULES.visible(lind_at(USPENSKY)[-1], viewer) == {"type": "LindAppeared"}


def test_a_hide_looks_exactly_like_a_move_until_a_reveal_says_so():
    hid = lind_at(RED_SQUARE) + [LindMoved(90, "hide", "turn-skip", False)]
    moved = lind_at(LUBYANKA) + [LindMoved(35, "cab", "ticket", False)]
    _same_for_others(hid, moved)
    # and the next move too: the card left lies on the decoy, as on a route card
    _same_for_others(
        hid + [LindMoved(USPENSKY, "foot", "locked-in", False)],
        moved + [LindMoved(34, "foot", "gas-in-the-cellar", False)],
    )


def test_lind_moves_leaving_a_card_look_alike_whatever_the_way_and_the_card():
    ways = [
        LindMoved(LUBYANKA, "foot", "suspicious-snack", False),
        LindMoved(33, "cab", "ticket", False),
        LindMoved(11, "underground", "note", False),
        LindMoved(90, "hide", "turn-skip", False),
    ]
    for way in ways[1:]:
        _same_for_others(lind_at(RED_SQUARE) + [ways[0]], lind_at(RED_SQUARE) + [way])


def test_lind_moves_on_foot_without_a_trap_look_alike_wherever_they_go():
    _same_for_others(
        lind_at(RED_SQUARE) + [LindMoved(LUBYANKA, "foot", None, False)],
        lind_at(70) + [LindMoved(71, "foot", None, False)],
    )


def test_the_extraordinary_movement_looks_like_declining_it():
    events = lind_at(64, places={FANDORIN: 63}) + [LindMoved(65, "foot", "suspicious-snack", False)]
    events = then(events, (D1, MoveDetective(FANDORIN, 64, "foot")))
    _same_for_others(events + [LindMovedExtraordinarily(75, False)], events + [LindMovedExtraordinarily(None, False)])
    assert then(events, (LIND, MoveLindExtraordinarily(75)))[-1] == LindMovedExtraordinarily(75, False)


def test_views_match_their_declaration():
    events = route(RED_SQUARE, (90, "hide", "turn-skip"), (LUBYANKA, "foot", "locked-in"))
    for viewer in (LIND, D1, None, EVERYONE):
        assert RULES.view_shape.problems(RULES.view(state_of(events), viewer)) == []
    view = RULES.view(state_of(events), None)
    assert len(view["board"]["locations"]) == 92 and view["board"]["foot_lines"]


def test_a_move_that_leaves_no_card_is_public_through_lind_s_card_count_and_nothing_more():
    """The brief makes Lind's card count and "a card lies on it" public, so a
    foot move without a trap is told from a hide (which always leaves its
    turn-skip card) by the count alone; the event says no more than that."""
    bare = lind_at(RED_SQUARE) + [LindMoved(LUBYANKA, "foot", None, False)]
    hid = lind_at(RED_SQUARE) + [LindMoved(90, "hide", "turn-skip", False)]
    for viewer in OTHERS:
        bare_view, hid_view = RULES.view(state_of(bare), viewer), RULES.view(state_of(hid), viewer)
        assert (bare_view["lind_cards_left"], hid_view["lind_cards_left"]) == (24, 23)
        assert (bare_view["route"][0]["card_left"], hid_view["route"][0]["card_left"]) == (False, True)
        assert RULES.visible(bare[-1], viewer) == {"type": "LindMoved", "card_left": False, "jewel_stolen": False}
        assert RULES.visible(hid[-1], viewer) == {"type": "LindMoved", "card_left": True, "jewel_stolen": False}


def test_every_lind_turn_looks_the_same_in_the_feed_but_for_card_left_and_jewel_stolen():
    shapes = set()
    for way in (
        LindMoved(LUBYANKA, "foot", None, True),
        LindMoved(LUBYANKA, "foot", "locked-in", False),
        LindMoved(33, "cab", "ticket", False),
        LindMoved(11, "underground", "note", False),
        LindMoved(90, "hide", "turn-skip", False),
    ):
        for viewer in OTHERS:
            shapes.add(tuple(sorted(RULES.visible(way, viewer))))
    assert shapes == {("card_left", "jewel_stolen", "type")}


def test_every_seat_sees_each_detective_s_own_cards_and_place():
    events = lind_at(RED_SQUARE, hands={FANDORIN: ("ticket", "money", "revolver")})
    for viewer in (LIND, *OTHERS):
        fandorin = RULES.view(state_of(events), viewer)["detectives"][0]
        assert (fandorin["id"], fandorin["tickets"], fandorin["instruments"]) == (FANDORIN, 1, ["money", "revolver"])
        assert fandorin["location"] == 1
