"""Runebound's golden games (domain.kit.golden): recorded by
tests/golden/record.py into tests/golden/, replayed and audited by every
release. Only ever add one: a recorded game is kept for ever."""

from ...kit.golden import Golden

GOLDEN = (
    Golden("two-heroes", {"players": 2, "doom_rounds": 3}),
    Golden("a-hero-wins", {"players": 2, "doom_rounds": 0}, seeds=range(1, 6), outcome_lacks="nobody wins"),
    Golden("three-heroes-with-timeouts", {"players": 3, "doom_rounds": 2, "turn_seconds": 60}, timeouts=0.3),
)
