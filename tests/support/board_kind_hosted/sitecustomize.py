"""Put on PYTHONPATH by a test only (tests/web/test_board_kinds.py): every
Python process started with it hosts "walled-city", a game added later that
declares a board of a kind the web client already draws (Cronberg's rules and
data under another name and title), to show its board is drawn with no change
to the client. Production never loads this file."""

import dataclasses

from domain import games
from domain.games.cronberg import RULES

WALLED_CITY = dataclasses.replace(RULES, name="walled-city", title="A Walled City")

games.REGISTRY.update(games.registered([*games.REGISTRY.values(), WALLED_CITY]))
