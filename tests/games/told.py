"""What a viewer is told of an event: the visible dict and its sentence (made
from that dict alone), so that every leak comparison covers the words too."""

from __future__ import annotations

from domain import words


def seen(rules, event, viewer) -> dict:
    visible = rules.visible(event, viewer)
    return {**visible, "text": words.tell(rules.name, {"type": type(event).__name__, **visible}, viewer)}
