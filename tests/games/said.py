"""Legal commands in words, as a player reads them beside the choice: the
sentence the game gives each one (``Game.command_sentence``), and what a
sentence for people never holds."""

from __future__ import annotations

import json
import re

NOT_FOR_PEOPLE = re.compile(r"\bnull\b|\bNone\b|[\[\]{}_]|[0-9a-f]{8}-[0-9a-f]{4}-")


def sentences(rules, state, seat) -> list[str]:
    """The sentence of every legal command of ``seat``, each checked clean."""
    found = []
    for command in rules.legal_commands(state, seat):
        sentence = rules.command_sentence(command.to_json())
        assert sentence and not NOT_FOR_PEOPLE.search(sentence), f"{command!r} is said as {sentence!r}"
        found.append(sentence)
    return found


def entries(rules, names) -> dict:
    """The entries of the data list a Names declaration points at, by key."""
    data = json.loads(rules.data_paths()[names.data].read_text(encoding="utf-8"))
    return {entry[names.key]: entry for entry in data[names.list]}
