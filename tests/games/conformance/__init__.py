"""The conformance suite's parts: the games it runs over, seeded playouts that
record every step, and the hooks it takes from each game (see
tests/games/test_conformance.py, and README, "Adding a game")."""
