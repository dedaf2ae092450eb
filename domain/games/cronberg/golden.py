"""Cronberg's golden games (domain.kit.golden): recorded by
tests/golden/record.py into tests/golden/, replayed and audited by every
release. Only ever add one: a recorded game is kept for ever."""

from ...kit.golden import Golden

GOLDEN = (
    Golden("two-players-one-round", {"players": 2, "rounds": 1}),
    Golden("three-players-two-rounds", {"players": 3, "rounds": 2}),
    Golden("four-players-with-timeouts", {"players": 4, "rounds": 1, "turn_seconds": 3600}, timeouts=0.3),
)
