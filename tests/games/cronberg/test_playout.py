"""Random playouts to the end through legal_commands, with replay checks."""

from __future__ import annotations

import pytest

from domain.games.cronberg import RULES
from domain.playout import play


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_a_winner(players):
    for seed in range(4):
        playout = play(RULES, {"players": players}, seed)
        assert RULES.outcome(playout.state)
        assert {s.seat for s in RULES.score(playout.state)} == set(playout.seats)
