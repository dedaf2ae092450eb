"""Coronation's golden games (domain.kit.golden): recorded by
tests/golden/record.py into tests/golden/, replayed and audited by every
release. Only ever add one: a recorded game is kept for ever."""

from ...kit.golden import Golden

GOLDEN = (
    Golden("lind-caught", {"detective_seats": 1}, outcome_says="detectives win"),
    Golden("lind-escapes-at-the-last-turn", {"detective_seats": 2, "last_turn": 6}, outcome_says="never caught"),
    Golden("five-seats-with-timeouts", {"detective_seats": 5, "last_turn": 8, "turn_seconds": 600}, timeouts=0.4),
    Golden("chosen-equipment-shared-control",
           {"detective_seats": 3, "equipment": "choose", "shared_control": True, "last_turn": 10}),
)
