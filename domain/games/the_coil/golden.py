"""The Coil's golden games (domain.kit.golden): recorded by
tests/golden/record.py into tests/golden/, replayed and audited by every
release. Only ever add one: a recorded game is kept for ever."""

from ...kit.golden import Golden

GOLDEN = (
    Golden("two-players", {"players": 2}),
    Golden("three-players-with-timeouts", {"players": 3, "turn_seconds": 60}, timeouts=0.3),
)
