"""marshmallow schemas for every hosted game's commands and views.

Command schemas are derived from the command dataclasses' annotations, so a
command cannot drift from its schema; event schemas from the event classes
and what the game's package declares ``visible`` hides of them
(``Game.redacted``, domain/games/<game>/redactions.py); views from the
game's view declaration (``Game.view_shape``).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache

import marshmallow as ma

from domain import games as registry
from domain.engine import field_types
from domain.engine_fields import ENGINE_FIELD_DESCRIPTIONS
from domain.kit import Game
from domain.kit.game import field_description
from domain.kit.redaction import Redacted
from domain.kit.shape import Bool, Described, Int, List, Shape, Str
from domain.kit.standing import standing_shape


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("_", "-").split("-"))


HIDDEN = "Hidden from some viewers: null (a list: nulls), or absent."


def _field_for(annotation, has_default: bool, default, hidden: bool = False,
               description: str | None = None) -> ma.fields.Field:
    """``hidden``: a field some viewers get as null (a list: as nulls), or not at all."""
    optional = hidden
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        optional = len(args) < len(typing.get_args(annotation))
        annotation = args[0] if len(args) == 1 else typing.Any
    kwargs: dict = {"allow_none": optional}
    text = " ".join(part for part in (description, HIDDEN if hidden else None) if part)
    if text:
        kwargs["metadata"] = {"description": text}
    if has_default or hidden:
        kwargs["load_default"] = default
    else:
        kwargs["required"] = True
    if annotation is bool:
        return ma.fields.Boolean(truthy={True}, falsy={False}, **kwargs)
    if annotation is int:
        return ma.fields.Integer(strict=True, **kwargs)
    if annotation is str:
        return ma.fields.String(**kwargs)
    if typing.get_origin(annotation) is tuple:
        item = typing.get_args(annotation)[0] if typing.get_args(annotation) else typing.Any
        nullable_items = hidden
        if typing.get_origin(item) in (typing.Union, types.UnionType):
            items = [arg for arg in typing.get_args(item) if arg is not type(None)]
            nullable_items |= len(items) < len(typing.get_args(item))
            item = items[0] if len(items) == 1 else typing.Any
        kind = {int: ma.fields.Integer, str: ma.fields.String, bool: ma.fields.Boolean}.get(item)
        extra = {"strict": True} if kind is ma.fields.Integer else {}
        inner = kind(allow_none=nullable_items, **extra) if kind else ma.fields.Raw()
        return ma.fields.List(inner, **kwargs)
    return ma.fields.Raw(**kwargs)


def command_schema(rules: Game, command_class) -> type[ma.Schema]:
    hints = field_types(command_class)
    attrs: dict = {
        "type": ma.fields.String(
            required=True,
            validate=ma.validate.OneOf([command_class.type_name()]),
            metadata={"description": f"always {command_class.type_name()!r}"},
        )
    }
    for f in dataclasses.fields(command_class):
        has_default = f.default is not dataclasses.MISSING
        attrs[f.name] = _field_for(hints[f.name], has_default, f.default if has_default else None,
                                   description=rules.field_description(command_class, f.name))
        names = rules.names_of(command_class, f.name)
        if names is not None:  # what a client composing the command offers for it, and where it is drawn
            attrs[f.name].metadata[NAMES] = names.to_json()
    doc = _doc(command_class)
    attrs["Meta"] = type("Meta", (), {"unknown": ma.RAISE, "ordered": True})
    schema = type(f"{camel(rules.name)}{command_class.type_name()}", (ma.Schema,), attrs)
    schema.__doc__ = doc
    return schema


# The annotations a client composes commands and draws hands from (issue 33):
# on a command property whose value (a list: each of its values) names a place,
# card, seat or piece; on the game's View schema when a seat holds a hand.
NAMES = "x-boardlog-names"
HAND = "x-boardlog-hand"


def named_fields(rules: Game) -> dict[str, dict]:
    """What each command field that names something names, as "Type.field":
    Names JSON, every command type's own (the catalogue's ``field_names``,
    equal to the document's x-boardlog-names)."""
    found = {}
    for command_class in rules.commands:
        for f in dataclasses.fields(command_class):
            names = rules.names_of(command_class, f.name)
            if names is not None:
                found[f"{command_class.__name__}.{f.name}"] = names.to_json()
    return found


def _doc(message_class) -> str | None:
    """The class's own docstring, one paragraph per blank line; None for
    the one dataclasses writes (``Type(field: ...)``)."""
    doc = message_class.__dict__.get("__doc__") or ""
    doc = "\n\n".join(" ".join(paragraph.split()) for paragraph in doc.strip().split("\n\n"))
    return doc if doc and not doc.startswith(message_class.__name__ + "(") else None


# Where an event's data carries its type, and where not (an export's line, the
# audit's log entry: the line beside data names it, and data is what was hashed).
TYPE_WHERE = ("present where the event is shown as you may see it (the feed, command answers, streams); absent "
              "from the data of an export's line and of the audit's log, whose `type` beside `data` names it")


def event_schema(prefix: str, event_class, redaction: Redacted | None = None,
                 descriptions: dict | None = None) -> type[ma.Schema]:
    """An event as a viewer may get it from ``visible``: every field of the
    event, those the game hides from some viewers nullable and optional, plus
    the fields it adds in their place (``redaction``)."""
    redaction = redaction or Redacted()
    hints = field_types(event_class)
    attrs: dict = {"type": ma.fields.String(validate=ma.validate.OneOf([event_class.type_name()]),
                                            metadata={"description": f"always {event_class.type_name()!r}: {TYPE_WHERE}"})}
    for f in dataclasses.fields(event_class):
        attrs[f.name] = _field_for(hints[f.name], False, None, hidden=redaction.hides(f.name),
                                   description=field_description(descriptions or {}, event_class, f.name))
    attrs.update({name: _added_field(shape) for name, shape in redaction.added.items()})
    attrs["Meta"] = type("Meta", (), {"ordered": True})
    schema = type(f"{prefix}{event_class.type_name()}", (ma.Schema,), attrs)
    schema.__doc__ = _doc(event_class)
    return schema


@cache
def event_schemas(game: str) -> dict[str, type[ma.Schema]]:
    """The game's own events (the engine's are ``engine_event_schemas``)."""
    rules = registry.REGISTRY[game]
    return {cls.type_name(): event_schema(camel(rules.name), cls, rules.redacted.get(cls.type_name()),
                                          rules.field_descriptions)
            for cls in rules.events}


_ADDED_FIELDS = {Int: ma.fields.Integer, Bool: ma.fields.Boolean, Str: ma.fields.String}


def _added_field(shape: Shape) -> ma.fields.Field:
    """A key ``visible`` gives in place of hidden fields, as marshmallow types it."""
    inner = shape.inner if isinstance(shape, Described) else shape
    return _added_kind(inner, {"description": shape.description} if shape.description else {})


def _added_kind(shape: Shape, metadata: dict) -> ma.fields.Field:
    # A list of typed scalars too: a seat's own hand is what a card game's deal adds for him (the example game's).
    if isinstance(shape, List):
        return ma.fields.List(_added_kind(shape.item, {}), metadata=metadata)
    kind = _ADDED_FIELDS.get(type(shape))
    if kind is None:
        raise TypeError(f"a redaction adds a {type(shape).__name__}; the document types only "
                        + ", ".join(cls.__name__ for cls in _ADDED_FIELDS) + " and lists of them")
    return kind(metadata=metadata)


@cache
def engine_event_schemas() -> dict[str, type[ma.Schema]]:
    from domain.session import ENGINE_EVENTS

    return {cls.type_name(): event_schema("", cls, descriptions=ENGINE_FIELD_DESCRIPTIONS) for cls in ENGINE_EVENTS}


@cache
def command_schemas(game: str) -> dict[str, type[ma.Schema]]:
    rules = registry.REGISTRY[game]
    return {cls.type_name(): command_schema(rules, cls) for cls in rules.commands}


def view_components(game: str) -> tuple[str, dict[str, dict]]:
    """The component name of the game's view and every component schema it
    needs: derived from the view declaration of the game's package
    (``Game.view_shape``) when it has one, else from the hand-written schema."""
    shape = getattr(registry.REGISTRY[game], "view_shape", None)
    if shape is None:
        schema = view_schema(game)
        return schema.__name__, {schema.__name__: schema}
    components: dict[str, dict] = {}
    shape.json_schema(camel(game), components)
    name = f"{camel(game)}{shape.name}"
    hand = registry.REGISTRY[game].hand
    if hand is not None:
        components[name] = {**components[name], HAND: hand.to_json()}
    return name, components


def standing_components(game: str) -> tuple[str, dict[str, dict]]:
    """The component name of the game's standing (``<Game>Standing``, its
    ``detail`` typed) and every component schema it needs: derived from the
    game's standing detail declaration (``Game.standing_detail``), with the
    keys the engine adds (domain.kit.standing)."""
    rules = registry.REGISTRY[game]
    components: dict[str, dict] = {}
    shape = standing_shape(rules.standing_detail, f"a game of {rules.title}")
    shape.json_schema(camel(game), components)
    return f"{camel(game)}{shape.name}", components


@cache
def view_schema(game: str) -> type[ma.Schema]:
    """An open view schema for a game that declares no view (any keys)."""
    return type(f"{camel(game)}View", (ma.Schema,), {"Meta": type("Meta", (), {"unknown": ma.INCLUDE})})


UNKNOWN_TYPE = "type"


def validate_command(game: str, body) -> dict:
    """Field-level messages for a command body, or {} when it is well formed.
    A ``type`` that is not one of this game's commands (another game's, or
    none at all) is named under ``UNKNOWN_TYPE`` with the game's own types."""
    if not isinstance(body, dict):
        return {"_schema": ["a command is a JSON object with a 'type'"]}
    schemas = command_schemas(game)
    schema = schemas.get(body.get("type")) if isinstance(body.get("type"), str) else None
    if schema is None:
        given = body.get("type")
        what = f"{given!r} is not a {registry.REGISTRY[game].title} command" if given is not None else "missing"
        return {UNKNOWN_TYPE: [f"{what}; {game}'s commands are: {', '.join(sorted(schemas))}"]}
    return _validator(schema).validate(body)


@cache
def _validator(schema: type[ma.Schema]) -> ma.Schema:
    """One instance per command schema: validating keeps no state in it, and
    making one cost twice the validation of a command."""
    return schema()
