"""The game kit: what a game is made of (``Game``, ``Traits``), the one
emit-and-fold helper of ``decide`` (``Draft``), view declarations
(``domain.kit.shape``) and standing declarations (``domain.kit.standing``). See README, "Adding a game"."""

from .draft import Draft
from .game import Game, Step, Traits, default_resign
from .names import Board, Colour, Hand, Names

__all__ = ["Board", "Colour", "Draft", "Game", "Hand", "Names", "Step", "Traits", "default_resign"]
