"""Put on PYTHONPATH by a test only: every Python process started with it
(``boardlog serve``, the worker serve starts, its work horses) hosts the
example game beside the registered ones, as a game added later would be.
Production never loads this file: the example stays out of the catalogue
(domain/games/example/__init__.py)."""

from domain import games
from domain.games.example import RULES

games.REGISTRY.update(games.registered([*games.REGISTRY.values(), RULES]))
