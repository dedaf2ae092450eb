"""The Court of Miracles's golden games (domain.kit.golden): recorded by
tests/golden/record.py into tests/golden/, replayed and audited by every
release. Only ever add one: a recorded game is kept for ever."""

from ...kit.golden import Golden

GOLDEN = (
    Golden("two-players", {"players": 2}),
    Golden("three-players-renown-ending", {"players": 3}, outcome_says="placed all their Renown tokens"),
    Golden("four-players-king-ending", {"players": 4}, outcome_says="Penniless King"),
    Golden("five-players-with-timeouts", {"players": 5, "turn_seconds": 60}, timeouts=0.25),
)
