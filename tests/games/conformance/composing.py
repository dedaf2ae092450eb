"""The checks of what a client composes a move from (issue 33's contract):
each legal command in words (``command_sentences``), what each command field
names and where its drawing is (``field_names``), and where a seat finds its
own cards in its view (``hand``). Each raises an AssertionError naming the
game and what is wrong; a missing declaration names the declaration and the
file of the game's package to put it in."""

from __future__ import annotations

import dataclasses
import json
import re

from domain.kit.names import Names

from .playouts import Played, playouts, sample as _sample

COMMANDS_PER_PLAYOUT = 40  # sampled rest points whose every seat's legal commands are said

# What a player must never read in a command's sentence: data, not words.
UNREADABLE = (
    (re.compile(r"\bnull\b|\bNone\b"), "a null"),
    (re.compile(r"[\[\]{}]"), "a JSON list or object"),
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I), "an id (UUID)"),
    (re.compile(r"_"), "a slug with _"),
)


def package_path(game) -> str:
    """Where the game's package is, for a failure that says where to write."""
    module = getattr(getattr(game, "view", None), "__module__", "") or ""
    return module.rsplit(".", 1)[0].replace(".", "/") if module.startswith("domain.games.") else "the game's package"


def missing(game, declaration: str, file: str, what: str) -> str:
    package = package_path(game)
    return (f"{game.name} declares no {declaration}: put them in {package}/{file} ({what}), given to its Game in "
            f"{package}/__init__.py as {declaration.lower()}=")


def unreadable(text) -> str | None:
    """Why ``text`` is no sentence for a player, or None when it is one."""
    if not isinstance(text, str) or not text.strip():
        return "it is empty"
    for pattern, what in UNREADABLE:
        if pattern.search(text):
            return f"it holds {what}"
    return None


def legal_commands_met(game, played: Played):
    """(where, seat, command) for every command played and every legal
    command of every seat at up to COMMANDS_PER_PLAYOUT rest points."""
    for step in played.steps:
        yield f"{played}, version {step.version}", step.seat, step.command
    for n in _sample(played.boundaries(), COMMANDS_PER_PLAYOUT):
        for seat in sorted(game.to_act(played.states[n])):
            for command in game.legal_commands(played.states[n], seat):
                yield f"{played}, after event {n}", seat, command


# Commands in words

def check_command_sentences(game) -> None:
    sentences = getattr(game, "command_sentences", None)
    assert sentences, missing(game, "COMMAND_SENTENCES", "words.py", "a sentence per command type, from the "
                                                                     "command's JSON")
    types = {cls.type_name() for cls in game.commands}
    assert not types - set(sentences), f"{game.name} has no command sentence for {', '.join(sorted(types - set(sentences)))}"
    assert not set(sentences) - types, (f"{game.name} has command sentences for no command of its: "
                                        f"{', '.join(sorted(set(sentences) - types))}")
    for played in playouts(game):
        for where, seat, command in legal_commands_met(game, played):
            text = game.command_sentence(command.to_json())
            why = unreadable(text)
            assert why is None, f"{where}: {seat}'s legal {command!r} is said as {text!r}, and {why}"


# What a command's field names

def check_field_names(game) -> None:
    declared = getattr(game, "field_names", None)
    named_fields = any(dataclasses.fields(cls) for cls in game.commands)
    assert declared or not named_fields, missing(game, "FIELD_NAMES", "fields.py", "what each command field that "
                                                                                   "names a place, card, seat or "
                                                                                   "piece names")
    own = {f"{cls.__name__}.{f.name}" for cls in game.commands for f in dataclasses.fields(cls)}
    names = {f.name for cls in game.commands for f in dataclasses.fields(cls)}
    stale = sorted(key for key in declared or {} if key not in (own if "." in key else names))
    assert not stale, f"{game.name}'s FIELD_NAMES name no field of its commands: {', '.join(stale)}"
    listed = {key: _listed_keys(game, key, found) for key, found in (declared or {}).items()}
    for played in playouts(game):
        for where, seat, command in legal_commands_met(game, played):
            for f in dataclasses.fields(command):
                found = game.names_of(type(command), f.name)
                if found is None:
                    continue
                key = f"{type(command).__name__}.{f.name}" if f"{type(command).__name__}.{f.name}" in declared else f.name
                for value in _values(getattr(command, f.name)):
                    _check_named(game, found, listed[key], value, played, f"{where}: {seat}'s legal {command!r}, "
                                                                          f"field {f.name}")


def _check_named(game, names: Names, keys, value, played: Played, where: str) -> None:
    if keys is not None:
        assert value in keys, (f"{where}: {value!r} is no {names.key!r} of an entry of {names.list!r} in "
                               f"{names.data}, though the field names a {names.what}")
    elif names.kind == "seat":
        assert value in played.seats, f"{where}: {value!r} is no seat of the game, though the field names a seat"


def _values(value) -> list:
    """The values a field holds: itself, or each of a list's (nulls: the field is unused by this command)."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [item for inner in value for item in _values(inner)]
    return [value]


def _listed_keys(game, where: str, names: Names) -> list | None:
    """The ``key`` of every entry of the list ``names`` points at (None when
    it points at no data file), or a failure naming what is missing."""
    assert isinstance(names, Names), f"{game.name}'s FIELD_NAMES[{where!r}] is a {type(names).__name__}, not a Names"
    if names.data is None:
        return None
    files = game.data_paths()
    assert names.data in files, (f"{game.name}'s {where} names {names.what}s of {names.data}, which is no data file "
                                 f"of the game ({', '.join(files) or 'it has none'})")
    data = json.loads(files[names.data].read_text())
    entries = data.get(names.list) if isinstance(data, dict) else None
    assert isinstance(entries, list) and entries, (f"{game.name}'s {where} names {names.what}s listed under "
                                                   f"{names.list!r} in {names.data}, which holds no such list")
    for entry in entries:
        assert isinstance(entry, dict) and names.key in entry and names.label in entry, (
            f"{game.name}'s {where}: an entry of {names.list!r} in {names.data} lacks {names.key!r} or "
            f"{names.label!r}: {json.dumps(entry)[:120]}")
    if names.colour is not None:
        _check_colour(game, where, names, entries, files)
    return [entry[names.key] for entry in entries]


def _check_colour(game, where: str, names: Names, entries: list[dict], files) -> None:
    """Every entry's declared colour (domain.kit.names.Colour) leads to a colour in the data."""
    colour = names.colour
    file = colour.data or names.data
    assert file in files, f"{game.name}'s {where} takes colours from {file}, which is no data file of the game"
    data = json.loads(files[file].read_text())
    holders = {entry.get(names.key): entry for entry in data.get(colour.list, ())} if colour.list else None
    table = ({row.get("id"): row.get("colour", row.get("color")) for row in data.get(colour.table, ())}
             if colour.table else None)
    for entry in entries:
        holder = entry if holders is None else holders.get(entry[names.key], {})
        found = holder.get(colour.field)
        found = found if table is None else table.get(found)
        assert isinstance(found, str) and found, (f"{game.name}'s {where}: {entry[names.key]!r} has no colour where "
                                                  f"its colour is declared ({colour})")


# A seat's hand

def check_hand(game) -> None:
    """A game that declares a hand gives every seat, from the view after
    setup on, a list of cards at its path, each one named by the hand's
    Names (a key of its list). A game without a hand declares None."""
    hand = getattr(game, "hand", None)
    if hand is None:
        return
    where = f"{game.name}'s HAND ({hand.field})"
    assert hand.names.kind == "card", f"{where} names {hand.names.kind}s, not cards"
    keys = _listed_keys(game, "HAND", hand.names)
    for played in playouts(game):
        first = len(played.setup) - 1
        for n in _sample(played.boundaries(), COMMANDS_PER_PLAYOUT):
            for seat in played.seats:
                cards = hand.cards(game.view(played.states[n], seat), seat)
                if n == first:
                    assert cards is not None, (f"{played}: {where} gives {seat} no list in its view after setup: "
                                               "the path must lead to the seat's own cards from its first view")
                for card in cards or ():
                    assert keys is None or card in keys, (f"{played}, after event {n}: {where} gives {seat} "
                                                          f"{card!r}, no {hand.names.key!r} of an entry of "
                                                          f"{hand.names.list!r} in {hand.names.data}")
