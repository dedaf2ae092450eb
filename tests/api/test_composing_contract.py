"""The contract a frontend composes a move from (issue 33), through the API on
real PostgreSQL and Redis: every legal command comes with a sentence, players
are named by their names, and the document and the catalogue say what each
command field names and where a seat's hand is."""

from __future__ import annotations

import re

import marshmallow as ma
import pytest

from domain import games as registry
from tests.games.conformance.composing import unreadable
from tests.games.conformance.playouts import options_for
from tests.support.sse import parse

from .conftest import started_game

GAMES = sorted(registry.REGISTRY)


def _seat_alone(seat: str) -> re.Pattern:
    """A seat id as a word of its own, not the seat as a place ("seat p1")."""
    return re.compile(rf"(?<!seat )(?<![\w-]){re.escape(seat)}(?![\w-])")


def _first_decision(players, game: str):
    """A started game of ``game`` at its fewest seats, and (player, seat) of one who is to act."""
    rules = registry.REGISTRY[game]
    seated = players(rules.min_seats)
    game_id = started_game(seated, game, options_for(rules, rules.min_seats))
    for player in seated:
        view = player.view(game_id).json
        if view["seat"] in view["to_act"]:
            return game_id, seated, player, view
    raise AssertionError(f"nobody is to act in a new game of {game}")


# Legal commands in words

@pytest.mark.parametrize("game", GAMES)
def test_each_legal_command_of_a_game_s_first_decision_comes_with_a_sentence_a_player_reads(players, game):
    # Given a new game and the player whose turn it is
    game_id, seated, actor, view = _first_decision(players, game)
    # When he asks what he may do
    answer = actor.get(f"/v1/games/{game_id}/legal-commands").json
    # Then each command has its sentence beside it, with no data and no seat id in it
    assert answer["commands"] and len(answer["texts"]) == len(answer["commands"])
    for command, text in zip(answer["commands"], answer["texts"]):
        assert unreadable(text) is None, f"{command} is said as {text!r}: {unreadable(text)}"
        assert not any(_seat_alone(seat).search(text) for seat in view["names"]), f"{text!r} names a seat by its id"


def test_a_command_sentence_names_the_player_a_command_names_by_his_name(players):
    # Given a Court of Miracles game, whose plots may name another player
    game_id, seated, actor, view = _first_decision(players, "court-of-miracles")
    rules = registry.REGISTRY["court-of-miracles"]
    # When the commands are said with the seats as the game writes them
    from domain import words

    answer = actor.get(f"/v1/games/{game_id}/legal-commands").json
    said = [words.command(rules, command) for command in answer["commands"]]
    # Then the API's texts are those sentences with each seat replaced by its holder's name
    names = view["names"]
    expected = [re.sub(r"(?<![\w-])(p[0-9])(?![\w-])", lambda m: names.get(m.group(1), m.group(1)), text)
                for text in said]
    assert answer["texts"] == expected


def test_a_player_who_is_not_to_act_gets_no_commands_and_no_texts(players):
    game_id, seated, actor, _ = _first_decision(players, "cronberg")
    other = next(player for player in seated if player is not actor)
    answer = other.get(f"/v1/games/{game_id}/legal-commands").json
    assert answer["commands"] == [] and answer["texts"] == []


# Players by their names

def test_the_view_names_each_seat_by_its_player_and_a_bot_s_seat_as_bot(players, client):
    # Given a game of three seats, two held by players and one given to a bot
    ada, bob = players(2)
    game_id = ada.create("cronberg", {"players": 3, "bots": {"p3": "random"}})
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    # When anyone looks at it, a spectator too
    for viewer in (ada, bob, client):
        names = viewer.get(f"/v1/games/{game_id}/view").json["names"]
        # Then each seat is named by the name a person reads
        assert names == {"p1": ada.name, "p2": bob.name, "p3": "Bot"}


def test_the_view_s_outcome_names_the_players_not_their_seats(players):
    # Given a game that ended by a seat's doing (p2 aborted it)
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    assert bob.post(f"/v1/games/{game_id}/abort").status_code == 200
    # When a player looks at its table
    outcome = ada.view(game_id).json["outcome"]
    # Then the sentence names who did it, as the log does
    assert outcome == f"aborted by {bob.name} before every seat had acted"


def test_a_lobby_names_only_the_seats_that_are_held(players):
    ada, = players(1)
    game_id = ada.create("cronberg", {"players": 2})
    assert ada.view(game_id).json["names"] == {"p1": ada.name}


def test_the_log_names_a_player_by_his_name_never_by_his_seat_or_id(players, client):
    # Given a game in which Ada made a move
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    actor = next(p for p in (ada, bob) if p.view(game_id).json["seat"] in p.view(game_id).json["to_act"])
    seat = actor.view(game_id).json["seat"]
    moved = actor.act(game_id, {"type": "DrawBuilding"}).json
    # When anyone reads the log
    for viewer in (ada, bob, client):
        events = viewer.get(f"/v1/games/{game_id}/events?limit=1000").json["events"]
        texts = [event["text"] for event in events]
        # Then the player is named by his name where the game wrote his seat, and by name where it wrote his id
        drawn = [event["text"] for event in events if event["type"] == "BuildingDrawn"]
        assert drawn and drawn[0].startswith(f"{actor.name} drew building "), drawn
        taken = [event["text"] for event in events if event["type"] == "SeatTaken"]
        assert taken == [f"Player {ada.name} took seat p1", f"Player {bob.name} took seat p2"]
        assert not any(ada.id in text or bob.id in text for text in texts), texts
        assert not any(_seat_alone(seat).search(text) for text in texts), texts
    # And the command's answer speaks alike
    assert moved["texts"][0].startswith(f"{actor.name} drew building "), moved["texts"]


def test_a_game_stream_tells_its_events_naming_the_players(players, client):
    # Given a game that started
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    # When a spectator's stream carries it from the start
    response = client.get(f"/v1/games/{game_id}/stream?after=0")
    messages = [m for m in parse(response.get_data(as_text=True))[0] if m.event == "message"]
    # Then its events' texts are the feed's, the players named
    started = [m.json["text"] for m in messages if m.json["type"] == "PlayersSeated"]
    assert started == [f"The game started with {ada.name} in seat p1 and {bob.name} in seat p2"]
    feed = client.get(f"/v1/games/{game_id}/events?limit=1000").json["events"]
    assert [m.json["text"] for m in messages] == [event["text"] for event in feed]


# What a command's field names, in the document and the catalogue

def _document(client) -> dict:
    return client.get("/v1/openapi.json").json["components"]["schemas"]


@pytest.mark.parametrize("game", GAMES)
def test_the_document_annotates_every_command_field_that_names_something(client, game):
    # Given the game's declarations
    rules = registry.REGISTRY[game]
    schemas = _document(client)
    prefix = "".join(part.capitalize() for part in game.split("-"))
    for command in rules.commands:
        properties = schemas[f"{prefix}{command.__name__}"]["properties"]
        for name, prop in properties.items():
            if name == "type":
                continue
            names = rules.names_of(command, name)
            # Then each property that names something says what, and no other does
            expected = names.to_json() if names is not None else None
            assert prop.get("x-boardlog-names") == expected, f"{command.__name__}.{name}"
    # And the game's View says where a seat's hand is, when it has one
    assert schemas[f"{prefix}View"].get("x-boardlog-hand") == (rules.hand.to_json() if rules.hand else None)


def test_cronberg_s_places_are_annotated_as_the_board_s_triangles_and_crossings(client):
    schemas = _document(client)
    triangles = schemas["CronbergPlaceBuilding"]["properties"]["triangles"]["x-boardlog-names"]
    crossing = schemas["CronbergPlaceMember"]["properties"]["crossing"]["x-boardlog-names"]
    assert triangles == {"kind": "place", "what": "triangle", "data": "board.json", "list": "triangles",
                         "key": "id", "label": "id"}
    assert crossing["list"] == "crossings" and crossing["kind"] == "place"


@pytest.mark.parametrize("game", GAMES)
def test_the_catalogue_s_field_names_are_the_document_s_annotations(client, game):
    # Given the document's annotations of the game's commands
    schemas = _document(client)
    union = schemas[f"{''.join(part.capitalize() for part in game.split('-'))}Command"]["discriminator"]["mapping"]
    annotated = {}
    for command_type, pointer in union.items():
        for name, prop in schemas[pointer.rsplit("/", 1)[1]]["properties"].items():
            if "x-boardlog-names" in prop:
                annotated[f"{command_type}.{name}"] = prop["x-boardlog-names"]
    # When a client reads the game's catalogue
    rules = client.get(f"/v1/rules/{game}").json
    # Then it says the same, and where the hand is as the View does
    assert rules["field_names"] == annotated
    view = schemas[f"{''.join(part.capitalize() for part in game.split('-'))}View"]
    assert rules["hand"] == view.get("x-boardlog-hand")


def test_the_catalogue_of_every_game_carries_its_field_names_and_hand(client):
    listed = {entry["name"]: entry for entry in client.get("/v1/rules").json["games"]}
    assert listed["cronberg"]["field_names"]["PlaceMember.crossing"]["what"] == "crossing"
    # Every hosted game declares where a seat's hand is, so the web client needs no branch per game.
    assert all(entry["hand"] for entry in listed.values()), [name for name, entry in listed.items() if not entry["hand"]]
    assert listed["cronberg"]["hand"] == {"field": "hand", "names": {"kind": "card", "what": "building", "data": "tiles.json",
                                                                     "list": "tiles", "key": "id", "label": "id"}}


def test_a_game_with_a_hand_says_where_on_its_view_schema_and_in_its_catalogue(monkeypatch):
    # Given a game whose view holds each seat's hand (the example game, added to the registry)
    from api.http import game_schemas
    from api.http.resources.catalogue import describe
    from domain.games.example import RULES as example

    monkeypatch.setitem(registry.REGISTRY, "example", example)
    card = {"kind": "card", "what": "card", "data": "cards.json", "list": "cards", "key": "value", "label": "name"}
    # When its View schema and its catalogue entry are made
    name, components = game_schemas.view_components("example")
    entry = describe(example, False)
    # Then both say where the hand is and what its cards name, as its command's card field does
    assert components[name]["x-boardlog-hand"] == entry["hand"] == {"field": "hand", "names": card}
    chosen = game_schemas.command_schema(example, example.commands[0])().fields["card"]
    assert chosen.metadata["x-boardlog-names"] == card and entry["field_names"] == {"ChooseCard.card": card}


def test_a_deal_that_gives_each_seat_his_own_hand_is_typed_as_a_list_of_the_cards_values():
    # Given the example game's deal, whose redaction adds the viewer's own hand in place of every hand
    from api.http import game_schemas
    from domain.games.example import RULES as example
    from domain.games.example.messages import CardsDealt

    # When its event schema is made, as the API document of a server hosting the game makes it
    schema = game_schemas.event_schema("Example", CardsDealt, example.redacted["CardsDealt"])()
    # Then the hand is a list of integers, described, beside the sizes
    hand = schema.fields["hand"]
    assert isinstance(hand, ma.fields.List) and isinstance(hand.inner, ma.fields.Integer)
    assert hand.metadata["description"] == "the viewer's own hand (a seat's only)"
    assert isinstance(schema.fields["hand_size"], ma.fields.Integer)
