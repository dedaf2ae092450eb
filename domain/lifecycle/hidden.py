"""What a viewer does not see of a game's state, measured on the game's
own door (``view``): for takebacks (a decision that revealed something may
not be taken back) and for aborts (once some seat holds what the others do
not, leaving is resigning)."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..engine import EVERYONE
from ..kit import Game


def _leaves(value: Any, path: str = "") -> dict[str, Any]:
    if isinstance(value, Mapping):
        found: dict[str, Any] = {}
        for key, item in value.items():
            found.update(_leaves(item, f"{path}/{key}"))
        return found
    if isinstance(value, (list, tuple)):
        found = {f"{path}#": len(value)}
        for index, item in enumerate(value):
            found.update(_leaves(item, f"{path}/{index}"))
        return found
    return {path: value}


def hidden_from(rules: Game, state: Any, viewer: str | None) -> int:
    """How much of the whole state ``viewer`` does not see: the leaves of the
    full view (``EVERYONE``'s) that the viewer's view lacks or shows otherwise."""
    full, seen = _leaves(rules.view(state, EVERYONE)), _leaves(rules.view(state, viewer))
    return sum(1 for path, value in full.items() if seen.get(path, _MISSING) != value)


_MISSING = object()


def private_holders(rules: Game, state: Any, seats: Iterable[str]) -> list[str]:
    """The seats whose view shows what a spectator's does not (a hand dealt,
    a hiding place chosen)."""
    public = hidden_from(rules, state, None)
    return [seat for seat in seats if hidden_from(rules, state, seat) < public]
