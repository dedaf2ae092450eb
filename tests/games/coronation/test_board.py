"""The board and card data: counts as the brief states, a sound graph."""

from collections import Counter

from domain.games.coronation.data import BOARD
from domain.games.coronation.state import detective_deck, lind_deck


def _reachable(start, adjacency):
    seen, todo = {start}, [start]
    while todo:
        for near in adjacency[todo.pop()]:
            if near not in seen:
                seen.add(near)
                todo.append(near)
    return seen


def test_the_board_has_92_named_locations_with_coordinates():
    assert len(BOARD.locations) == 92
    assert sorted(BOARD.locations) == list(range(1, 93))
    assert len({loc.name for loc in BOARD.locations.values()}) == 92
    assert all(isinstance(loc.x, int) and isinstance(loc.y, int) for loc in BOARD.locations.values())


def test_every_location_is_reachable_on_foot():
    assert _reachable(1, BOARD.foot) == set(BOARD.locations)


def test_no_line_is_a_self_loop_or_a_duplicate():
    lines = [tuple(sorted(line)) for line in BOARD.foot_lines + BOARD.cab_lines]
    assert all(a != b for a, b in lines)
    assert len(lines) == len(set(lines)), "a pair joined twice (also by foot and cab)"
    assert all(a in BOARD.locations and b in BOARD.locations for a, b in lines)


def test_most_locations_have_three_to_five_foot_lines():
    degrees = [len(BOARD.foot[i]) for i in BOARD.locations]
    assert sum(3 <= d <= 5 for d in degrees) >= 0.85 * len(degrees)
    assert min(degrees) >= 2


def test_about_forty_cab_lines_join_farther_places():
    assert 35 <= len(BOARD.cab_lines) <= 45
    foot = {tuple(sorted(line)) for line in BOARD.foot_lines}
    assert not foot & {tuple(sorted(line)) for line in BOARD.cab_lines}


def test_eight_underground_entrances_six_jewels_and_two_special_locations_per_instrument():
    assert len(BOARD.underground) == 8
    assert len(BOARD.jewels) == 6
    specials = Counter(loc.instrument for loc in BOARD.locations.values() if loc.instrument)
    assert specials == {tool: 2 for tool in BOARD.instruments}
    assert len(BOARD.instruments) == 5


def test_five_trap_kinds_each_named_for_an_instrument_three_allowing_extraordinary_movement():
    assert len(BOARD.traps) == 5
    assert sorted(t.instrument for t in BOARD.traps.values()) == sorted(BOARD.instruments)
    extraordinary = {t.name for t in BOARD.traps.values() if t.extraordinary}
    assert extraordinary == {"Suspicious Snack", "Young Criminal", "Hey, with the Wind!"}
    assert {t.effect for t in BOARD.traps.values()} <= {"lose-next-action", "discard-ticket"}


def test_the_decks_hold_the_rulebooks_cards():
    lind = dict(lind_deck())
    assert lind.pop("note") == 1 and lind.pop("ticket") == 6 and lind.pop("turn-skip") == 2
    assert sum(lind.values()) == 15 and set(lind) == set(BOARD.traps)
    detectives = dict(detective_deck())
    assert detectives.pop("ticket") == 10
    assert detectives == {tool: 3 for tool in BOARD.instruments}


def test_the_five_detectives_are_the_rulebooks_characters():
    assert set(BOARD.detective_names.values()) == {
        "Erast Fandorin", "Masa", "Afanasy Zyukin", "Lieutenant Endlung", "Colonel Karnovich",
    }
