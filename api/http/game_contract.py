"""The per-game part of the OpenAPI document: what a generated client needs to
know, from the document alone, which game's types a response holds.

For each game (``Coronation`` below stands for any):

- ``CoronationCommand``: the game's commands, one of them, told apart by ``type``;
- ``CoronationView``: what a seat sees of the game;
- ``CoronationStanding``: one seat's place in the final standings, its
  ``detail`` typed by ``CoronationStandingDetail`` (what the game puts there,
  and the engine's ``abandoned``) or, for a seat the game did not score,
  ``CoronationUnscoredStandingDetail`` (``resigned``); ``CoronationGameScored``
  is the engine's GameScored with these standings;
- ``CoronationEvent``: the game's events and the engine's (GameCreated,
  SeatTaken...), as a viewer may see them, told apart by ``type``;
- ``CoronationViewResponse``, ``CoronationLegalCommandsResponse``,
  ``CoronationFeedResponse``, ``CoronationCommandResponse``: the answers of
  the view, legal-commands, events and commands operations for a game of
  Coronation, each with ``game: "coronation"``.

The operations answer ``ViewResponse``, ``LegalCommandsResponse``,
``FeedResponse`` and ``CommandResponse``: one of the per-game answers, told
apart by ``game`` (a discriminator). The request body of a command is
``Command``: any game's command (the server answers 422 to a command of
another game, naming the game's own).

Type names repeat across games (``EndTurn``); schema names never do: every
game-specific component starts with the game's name.
"""

from __future__ import annotations

from domain import games as registry

from . import game_schemas, option_names
from .game_schemas import TYPE_WHERE, camel

STATUSES = ["lobby", "active", "scoring", "finished", "cancelled"]
ENVELOPES = ("ViewResponse", "LegalCommandsResponse", "FeedResponse", "CommandResponse")


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict, description: str | None = None) -> dict:
    """``schema`` or null; ``description`` is the property's, beside the anyOf, where readers look for it."""
    return {"anyOf": [schema, {"type": "null"}], **({"description": description} if description else {})}


def union(names_by_type: dict[str, str], on: str) -> dict:
    return {
        "oneOf": [ref(name) for name in names_by_type.values()],
        "discriminator": {"propertyName": on, "mapping": {key: ref(name)["$ref"] for key, name in names_by_type.items()}},
    }


def _game(name: str) -> dict:
    return {"type": "string", "enum": [name], "description": "the game this answer is about"}


def _object(properties: dict, description: str) -> dict:
    return {"type": "object", "description": description, "properties": properties, "required": sorted(properties),
            "additionalProperties": False}


def _told(schema, name: str) -> str:
    """The description a field of the marshmallow schema that shapes the
    answer gives (one text for the JSON and the document)."""
    return schema._declared_fields[name].metadata["description"]


def _view_extras() -> dict:
    """What a view answer says beside the game's view: the seats' life and
    clocks, the rematch, the receipt (api/http/resources/play.py ViewSchema)."""
    from .resources.play import ViewSchema  # the resources import this module

    return {
        "rules_version": {"type": "integer", "minimum": 1, "description": _told(ViewSchema, "rules_version")},
        "bots": {"type": "object", "additionalProperties": {"type": "string", "description": "the bot's kind"},
                 "description": _told(ViewSchema, "bots") + "; keyed by seat"},
        "resigned": {**SEATS, "description": _told(ViewSchema, "resigned")},
        "clocks": nullable(ref("Clocks"), _told(ViewSchema, "clocks")),
        "rematch": nullable({"type": "string", "format": "uuid"}, _told(ViewSchema, "rematch")),
        "receipt": _receipt(ViewSchema),
        "away": {"type": "object", "additionalProperties": {"type": "string", "format": "date-time",
                                                            "description": "until when (ISO 8601)"},
                 "description": _told(ViewSchema, "away") + "; keyed by seat"},
        "paused": {"type": "boolean", "description": _told(ViewSchema, "paused")},
        "names": {"type": "object", "additionalProperties": {"type": "string", "description": "the name a person "
                                                                                              "reads for the seat"},
                  "description": _told(ViewSchema, "names")},
        "contributions": {"type": "object", "additionalProperties": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                          "description": _told(ViewSchema, "contributions") + "; keyed by seat"},
    }


def _receipt(schema) -> dict:
    return nullable(ref("Receipt"), _told(schema, "receipt"))


def _resource(name: str):
    from .resources import play  # the resources import this module

    return getattr(play, name)


# The detail of a standing where the document does not say which game's it is (the audit's).
DETAIL = ("what the game and the engine say of the seat's result: typed per game by `{Game}Standing`'s detail "
          "(`{Game}StandingDetail`, what the game's score gives, with `abandoned: true` for a seat abandoned to a "
          "bot; `{Game}UnscoredStandingDetail` for a seat the game did not score: `resigned: true` for a seat that "
          "resigned)")

SEATS = {"type": "array", "items": {"type": "string"}}


def document_games(spec) -> None:
    components = spec.components
    components.schema("Clocks", schema=_resource("ClocksSchema"))
    components.schema("GameStatus", {"type": "string", "enum": STATUSES,
                                     "description": "lobby, active, scoring (over, standings being computed), finished or cancelled"})
    # GameScored is each game's own (``{Game}GameScored``), its standings typed by the game.
    engine = {name: schema for name, schema in game_schemas.engine_event_schemas().items() if name != "GameScored"}
    for schema in engine.values():
        components.schema(schema.__name__, schema=schema)
    engine_events = {name: schema.__name__ for name, schema in engine.items()}
    command_refs = []
    creations: dict[str, str] = {}
    per_game: dict[str, dict[str, str]] = {envelope: {} for envelope in ENVELOPES}
    for game in sorted(registry.REGISTRY):
        prefix = camel(game)
        commands = {}
        for type_name, schema in game_schemas.command_schemas(game).items():
            components.schema(schema.__name__, schema=schema)
            commands[type_name] = schema.__name__
        standing, standing_parts = game_schemas.standing_components(game)
        for name, part in standing_parts.items():
            components.schema(name, part)
        components.schema(f"{prefix}GameScored", _game_scored(standing))
        events = {**engine_events, "GameScored": f"{prefix}GameScored"}
        for type_name, schema in game_schemas.event_schemas(game).items():
            components.schema(schema.__name__, schema=schema)
            events[type_name] = schema.__name__
        view, view_parts = game_schemas.view_components(game)
        for name, part in view_parts.items():
            if isinstance(part, dict):
                components.schema(name, part)
            else:
                components.schema(name, schema=part)
        components.schema(f"{prefix}Options", options_schema(registry.REGISTRY[game]))
        components.schema(f"{prefix}CreateGame", create_game_schema(registry.REGISTRY[game], prefix))
        creations[game] = f"{prefix}CreateGame"
        title = registry.REGISTRY[game].title
        components.schema(f"{prefix}Command", {**union(commands, "type"), "description": f"a command of {title}"})
        components.schema(f"{prefix}Event", {**union(events, "type"), "required": ["type"],
                                             "description": f"an event of a game of {title}, as you may see it: "
                                                            "with its `type` (which an export's data has not)"})
        components.schema(f"{prefix}FeedEvent", _feed_event(prefix))
        command_refs.append(ref(f"{prefix}Command"))
        for envelope, schema in _envelopes(game, prefix, view, standing).items():
            components.schema(f"{prefix}{envelope}", schema)
            per_game[envelope][game] = f"{prefix}{envelope}"
    components.schema("Command", {"anyOf": command_refs, "description": "a command of any game; "
                                  "send one of the game's own (its `{Game}Command`)"})
    components.schema("CreateGame", {**union(creations, "game"),
                                     "description": "a new game, for the game named by `game`, with that game's options"})
    for envelope, names in per_game.items():
        components.schema(envelope, {**union(names, "game"), "description": f"a {envelope}, for the game named by `game`"})


def options_schema(rules) -> dict:
    """The options of a game when it is created: the game's own, then the
    engine's (turn_seconds, the clocks, visibility, abandonment, bots), each
    with its type, bounds and default: every option the server takes at
    creation, and no other (those it records itself, such as
    outcome_follows_standings, are not the host's to set)."""
    properties = {}
    for entry in option_names.every_option(rules.name):
        kind = {"int": "integer", "bool": "boolean", "choice": "string"}[entry["kind"]]
        schema = {"type": kind, "description": entry["description"], "default": entry["default"]}
        if entry.get("default") is None:
            schema["type"] = [kind, "null"]
        schema.update({key: entry[key] for key in ("minimum", "maximum") if key in entry})
        if entry.get("choices"):
            schema["enum"] = list(entry["choices"])
        if entry.get("deprecated"):  # no default: a generated client would send it beside the new name
            schema["deprecated"] = True
            del schema["default"]
        properties[entry["name"]] = schema
    properties[option_names.BOTS] = _bots_schema(rules)
    # What domain.lifecycle.clocks refuses without a bank, stated (an undeclared constraint schemathesis found).
    needs_bank = {name: ["time_bank_seconds"] for name in ("time_increment_seconds", "time_cap_seconds")
                  if name in properties and "time_bank_seconds" in properties}
    return {"type": "object", "properties": properties, "additionalProperties": False,
            **({"dependentRequired": needs_bank} if needs_bank else {}),
            "description": f"the options of a game of {rules.title}: its own and the engine's; "
                           "each one left out takes its default"}


def _bots_schema(rules) -> dict:
    from domain.lifecycle import bots

    kinds = list(bots.kinds(rules.name))
    return {
        "type": "object",
        "description": "seats given to bots at creation, each with its bot's kind (GET /v1/rules/{game} lists the "
                       "kinds and the default seats), such as {\"p2\": \"random\"}; never the host's seat; none "
                       "by default",
        "additionalProperties": {"type": "string", "enum": kinds, "description": "the bot's kind"},
    }


def create_game_schema(rules, prefix: str) -> dict:
    """The body of POST /v1/games for one game: ``CreateGame`` is the union
    of these on ``game``, so that a client's options are the game's own."""
    return _object({
        "game": {"type": "string", "enum": [rules.name], "description": "the game to create (GET /v1/rules)"},
        "options": {**ref(f"{prefix}Options"), "description": "the game's options and the engine's"},
        "seat": nullable({"type": "string"}, "the host's seat, one of those the options give (GET "
                                            "/v1/rules/{game} lists the default ones); the first by default"),
    }, f"a new game of {rules.title}, in its lobby; the host takes a seat") | {"required": ["game"],
                                                                            "additionalProperties": False}


def _game_scored(standing: str) -> dict:
    """The engine's GameScored in a game's own events: its standings typed by the game's ``standing``."""
    return _object({
        "type": {"type": "string", "enum": ["GameScored"], "description": f"always 'GameScored': {TYPE_WHERE}"},
        "standings": {"type": "array", "items": ref(standing), "description": "the final standings, a seat each"},
    }, "the game's final standings, recorded once it is scored") | {"additionalProperties": False,
                                                                    "required": ["standings"]}


# What the envelopes of every game say alike.
STATUS = "where the game is in its life (GameStatus)"
TO_ACT = ("the seats that may act now, sorted (several at once in a simultaneous phase, a seat a bot plays "
          "among them); empty unless the game is active")


def _envelopes(game: str, prefix: str, view_name: str, standing: str) -> dict[str, dict]:
    event = ref(f"{prefix}Event")
    return {
        "ViewResponse": _object({
            "game": _game(game),
            "game_id": {"type": "string", "format": "uuid", "description": "the game's id, as in /v1/games/{game_id}"},
            "version": {"type": "integer", "description": "the version this view shows (the game's now, or ?at=): "
                                                          "how many events its stream held then, GameCreated being 1; "
                                                          "the ETag starts with it and If-Match takes it"},
            "status": {**ref("GameStatus"), "description": STATUS},
            "seat": nullable({"type": "string"}, "the seat whose view you get, yours; null for a spectator, and for "
                                                 "a player who resigned or was abandoned, from then on"),
            "to_act": {**SEATS, "description": TO_ACT},
            "outcome": nullable({"type": "string"}, "the result in an English sentence (GameOver's `outcome`, its seats "
                                                    "named by their players as in `names`: \"Ada wins with 42 "
                                                    "points\" for GameOver's \"p1 wins with 42 points\"), or why an "
                                                    "aborted game was cancelled; null until the game ends"),
            "standings": nullable({"type": "array", "items": ref(standing)},
                                  "the final standings, a seat each; null until the game is scored"),
            "view": nullable(ref(view_name), f"the game as you may see it (`{view_name}`): your seat's secrets and "
                                             "the public table (a spectator: the public table; once the game is "
                                             "over, everything); null before the game starts"),
            **_view_extras(),
        }, "your view of the game; `view` is null before the game starts"),
        "LegalCommandsResponse": _object({
            "game": _game(game),
            "version": {"type": "integer", "description": "the game's version the commands are legal at; send it "
                                                          "as If-Match to act only if the game has not moved since"},
            "seat": nullable({"type": "string"}, "the seat the commands are for, the one you play; null when you "
                                                 "see the game as a spectator (you hold no seat, or resigned it "
                                                 "or were abandoned from it): then `commands` is empty"),
            "commands": {"type": "array", "items": ref(f"{prefix}Command"),
                         "description": "every command your seat may send now, each ready to POST to "
                                        "/v1/games/{game_id}/commands as it is; empty when the seat is not to act "
                                        "or a bot plays it"},
            "texts": {"type": "array", "items": {"type": "string"}, "description": COMMAND_TEXTS},
        }, "every command you may send now; empty when it is not your turn"),
        "FeedResponse": _object({
            "game": _game(game),
            "version": {"type": "integer", "description": "the game's version now"},
            "events": {"type": "array", "items": ref(f"{prefix}FeedEvent"),
                       "description": "the events after ?after=, in version order, at most ?limit= of them, each "
                                      "as you may see it"},
            "next_after": {"type": "integer", "description": "pass as ?after= for the next page"},
        }, "the event feed, each event as you may see it"),
        "CommandResponse": _object({
            "game": _game(game),
            "version": {"type": "integer", "description": "the game's version after your command: its last event's"},
            "status": {**ref("GameStatus"), "description": f"{STATUS}, after your command (scoring once it ended "
                                                           "the game)"},
            "to_act": {**SEATS, "description": f"{TO_ACT}, after your command"},
            "events": {"type": "array", "items": event, "description": "the new events, as you may see them"},
            "texts": {"type": "array", "items": {"type": "string"}, "description": TEXTS},
            "receipt": _receipt(_resource("ActResultSchema")),
        }, "what your command did"),
    }


NAMED = ("; players are named by their names (the view's `names`) where the game's sentence has a seat id, and a "
         "player's id by his name")
TEXT = ("the event in a short English sentence for a game log (\"Ada laid building 3 on T09 and T10\"), made from "
        "`data` alone: it tells you no more than `data` does" + NAMED)
TEXTS = ("each new event in a short English sentence for a game log: texts[i] tells events[i], made from what you "
         "may see of it alone (as the feed's `text`)" + NAMED)
COMMAND_TEXTS = ("each command in a sentence for people, texts[i] saying commands[i] (\"Lay the drawn building on "
                 "T01 and T02, turned\"): what a client shows to confirm a composed command; never a null, a list or "
                 "an id" + NAMED)
NAMES = ("who holds each seat (in a view ?at= a version, who held it then), by the name a person reads: the "
         "player's (also after he resigned or was abandoned: `bots` says who plays on), or \"Bot\" for a seat given "
         "to a bot; keyed by seat, a seat nobody holds absent. The `text`s of the feed and the legal commands' "
         "`texts` use the same names")


def _feed_event(prefix: str) -> dict:
    return _object({
        "version": {"type": "integer", "description": "the event's version: its place in the game's stream, from 1 "
                                                      "(GameCreated); ?after= and the view's ?at= take it"},
        "type": {"type": "string", "description": "the event's type (as in `data`)"},
        "recorded_at": {"type": "string", "format": "date-time",
                        "description": "when the server committed the event, by its clock (ISO 8601); not part of "
                                       "the hashed chain"},
        "seat": nullable({"type": "string"}, "the seat the decision that wrote the event was for: its move, the "
                                             "timeout or bot's move played for it, its contribution, resigning, "
                                             "pause, absence...; null for decisions for no one seat (creating, "
                                             "joining, leaving and starting the game, the clocks, abandonment, "
                                             "scoring)"),
        "decided_at": {"type": "integer", "description": _told(_resource("FeedEventSchema"), "decided_at")},
        "data": {**ref(f"{prefix}Event"), "description": "the event itself as you may see it: its `type` and fields, "
                                                         "those hidden from you null or absent"},
        "text": {"type": "string", "description": TEXT},
        "receipt": _receipt(_resource("FeedEventSchema")),
    }, "one event of the feed")
