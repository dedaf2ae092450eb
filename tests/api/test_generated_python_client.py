"""The proof that the document is enough: a Python client generated with
openapi-python-client from the served document plays one whole game of each
game, and every view, legal command, command answer and feed event it gets
deserializes into its game's typed model. The test speaks to the API only
through the generated functions and models (over HTTP, to the app through
httpx's WSGI transport); it reads game data only through model attributes."""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from domain import games

from tests.games.conformance.playouts import short_options

PACKAGE = "boardlog_generated_client"


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


@pytest.fixture(scope="module")
def generated(app, tmp_path_factory):
    """The client package, generated from GET /v1/openapi.json."""
    folder = tmp_path_factory.mktemp("python-client")
    spec = folder / "openapi.json"
    spec.write_text(json.dumps(app.test_client().get("/v1/openapi.json").json))
    # JSON lines (an export) are a media type the generator does not know; a
    # client generated for boardlog reads them as bytes (README, frontends).
    config = folder / "config.json"
    config.write_text(json.dumps({"content_type_overrides": {"application/x-ndjson": "application/octet-stream"}}))
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    result = subprocess.run(
        [os.path.join(bin_dir, "openapi-python-client"), "generate", "--path", str(spec), "--meta", "none",
         "--config", str(config), "--output-path", str(folder / PACKAGE)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    # A warning (an operation the generator cannot express, such as a stream of
    # server-sent events) is not a failure here: the operations this test uses
    # are imported below, and a skipped one fails that import.
    assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(PACKAGE + ".")]:
            del sys.modules[name]


class Generated:
    """Imports from the generated package by module path."""

    def __init__(self, package):
        self.name = package.__name__

    def api(self, tag: str, operation: str):
        return importlib.import_module(f"{self.name}.api.{tag}.{operation}")

    def model(self, name: str):
        return getattr(importlib.import_module(f"{self.name}.models"), name)

    def client(self, app, token: str | None = None):
        kwargs = {"base_url": "http://boardlog.test", "httpx_args": {"transport": httpx.WSGITransport(app=app)},
                  "raise_on_unexpected_status": True}
        package = importlib.import_module(self.name)
        return package.AuthenticatedClient(token=token, **kwargs) if token else package.Client(**kwargs)


def _register(gen, app, name):
    player = gen.api("players", "register_player").sync(client=gen.client(app), body=gen.model("Registration")(name=name))
    assert isinstance(player, gen.model("Player"))
    return gen.client(app, player.token)


def _is_game_model(value, prefix: str) -> bool:
    return not isinstance(value, dict) and type(value).__module__.startswith(PACKAGE) and (
        type(value).__name__.startswith(prefix) or type(value).__name__ in ENGINE_EVENTS)


ENGINE_EVENTS = {"GameCreated", "SeatTaken", "SeatLeft", "GameCancelled", "PlayersSeated", "TurnTimedOut",
                 "GameOver", "GameScored"}


@pytest.mark.parametrize("name", sorted(games.REGISTRY))
def test_a_generated_python_client_plays_a_whole_game_with_typed_models_only(app, generated, name):
    gen = Generated(generated)
    prefix = camel(name)
    view_response, view_model = gen.model(f"{prefix}ViewResponse"), gen.model(f"{prefix}View")
    status = gen.model("GameStatus")
    # The game's fewest seats, with the options of its shortest golden game: no table to add a game to.
    count = games.REGISTRY[name].min_seats
    host, *guests = [_register(gen, app, f"gen-{name}-{n}") for n in range(1, count + 1)]
    options = gen.model(f"{prefix}Options").from_dict(short_options(games.REGISTRY[name]))
    game_enum = gen.model(f"{prefix}CreateGameGame")
    body = gen.model(f"{prefix}CreateGame")(game=game_enum(name), options=options)
    created = gen.api("games", "create_game").sync(client=host, body=body)
    # A lobby command answers the summary with the receipt of the version it made.
    assert isinstance(created, gen.model("GameAnswer")) and isinstance(created.receipt, gen.model("Receipt"))
    game_id = str(created.id)
    for guest in guests:
        joined = gen.api("games", "join_game").sync(game_id, client=guest, body=gen.model("Join")())
        assert isinstance(joined, gen.model("GameAnswer")) and joined.receipt.version == joined.version
    started = gen.api("games", "start_game").sync(game_id, client=host)
    assert started.status.value == "active"
    assert {seat.player for seat in started.seats} == {created.host, *(seat.player for seat in joined.seats)}

    get_view = gen.api("play", "get_view")
    legal_commands = gen.api("play", "list_legal_commands")
    send = gen.api("play", "send_command")
    rng = random.Random(name)
    over = False
    for _ in range(20_000):
        moved = False
        for player in (host, *guests):
            view = get_view.sync(game_id, client=player)
            assert isinstance(view, view_response), type(view)
            assert isinstance(view.view, view_model), type(view.view)
            if view.status != status.ACTIVE:
                over = True
                break
            if view.seat not in view.to_act:
                continue
            legal = legal_commands.sync(game_id, client=player)
            assert isinstance(legal, gen.model(f"{prefix}LegalCommandsResponse")), type(legal)
            assert legal.commands and all(_is_game_model(command, prefix) for command in legal.commands)
            answer = send.sync(game_id, client=player, body=rng.choice(legal.commands))
            assert isinstance(answer, gen.model(f"{prefix}CommandResponse")), type(answer)
            assert all(_is_game_model(event, prefix) for event in answer.events)
            moved = True
        if over:
            break
        assert moved, "nobody could act in an active game"
    assert over and view.status in (status.SCORING, status.FINISHED) and view.outcome

    spectator = gen.client(app)
    assert isinstance(get_view.sync(game_id, client=spectator).view, view_model)
    feed = gen.api("play", "list_events")
    after, seen = 0, []
    while True:
        page = feed.sync(game_id, client=guests[-1], after=after, limit=500)
        assert isinstance(page, gen.model(f"{prefix}FeedResponse")), type(page)
        if not page.events:
            break
        for event in page.events:
            assert isinstance(event, gen.model(f"{prefix}FeedEvent"))
            assert _is_game_model(event.data, prefix), (event.type, type(event.data))
            assert event.data.type_.value == event.type_
            seen.append(event.type_)
        after = page.next_after
    assert seen[0] == "GameCreated" and "GameOver" in seen


def test_a_generated_python_client_creates_a_private_game_with_bots_and_a_time_bank_with_typed_models_only(app, generated):
    gen = Generated(generated)
    host = _register(gen, app, "gen-private-host")
    bots = gen.model("CronbergOptionsBots")()
    bots["p2"] = gen.model("CronbergOptionsBotsAdditionalProperty").RANDOM
    options = gen.model("CronbergOptions")(
        players=2, visibility=gen.model("CronbergOptionsVisibility").PRIVATE, bots=bots, abandon_after=0,
        turn_seconds=86_400, time_bank_seconds=3_600, time_increment_seconds=60, time_cap_seconds=7_200,
        deadline_per_seat=True,
    )
    body = gen.model("CronbergCreateGame")(game=gen.model("CronbergCreateGameGame").CRONBERG, options=options)
    created = gen.api("games", "create_game").sync(client=host, body=body)
    assert isinstance(created, gen.model("GameAnswer"))
    assert created.visibility.value == "private"
    assert created.bots.to_dict() == {"p2": "random"}
    stored = created.options.to_dict()
    assert (stored["time_bank_seconds"], stored["time_increment_seconds"], stored["time_cap_seconds"]) == (3_600, 60, 7_200)
    assert (stored["abandon_after"], stored["turn_seconds"], stored["deadline_per_seat"]) == (0, 86_400, True)
    started = gen.api("games", "start_game").sync(str(created.id), client=host)
    assert started.status.value == "active"
    assert started.deadline is not None, "a game with a time bank has a deadline once it runs"


def _parsed_as_a_generated_union_parses(gen, data: dict):
    """As the generated code parses a union: the first member that takes it."""
    for name in sorted(games.REGISTRY):
        try:
            return gen.model(f"{camel(name)}CreateGame").from_dict(data)
        except (ValueError, KeyError, TypeError):
            continue
    raise AssertionError(f"no CreateGame member takes {data}")


def test_creating_a_game_round_trips_its_options_through_the_generated_models_without_loss(generated):
    gen = Generated(generated)
    data = {"game": "cronberg", "options": {"players": 3, "rounds": 2}}
    parsed = _parsed_as_a_generated_union_parses(gen, data)
    assert isinstance(parsed, gen.model("CronbergCreateGame")) and isinstance(parsed.options, gen.model("CronbergOptions"))
    assert parsed.options.rounds == 2
    assert parsed.to_dict() == data
    every = {"game": "coronation", "seat": "lind",
             "options": {"players": 3, "turn_seconds": 600, "visibility": "private", "abandon_after": 2,
                         "deadline_per_seat": False, "time_bank_seconds": 600, "time_increment_seconds": 5,
                         "time_cap_seconds": 900, "bots": {"detective-2": "random"}}}
    parsed = _parsed_as_a_generated_union_parses(gen, every)
    assert isinstance(parsed, gen.model("CoronationCreateGame")) and parsed.to_dict() == every


def test_a_generated_python_client_exports_a_finished_game_as_bytes_of_json_lines(app, generated, players, service):
    """Given a finished game, when its export is fetched with the generated
    export_game, then the answer is the file's bytes: one JSON object a
    line, the events then the signed head (not a body parsed as one JSON
    document, which an export is not)."""
    import uuid

    from tests.api.conftest import started_game

    gen = Generated(generated)
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200
    assert service.score(uuid.UUID(game_id))
    exported = gen.api("audit", "export_game").sync(game_id, client=gen.client(app, ada.token))
    assert type(exported).__name__ == "File", type(exported)
    lines = [json.loads(line) for line in exported.payload.read().decode().splitlines()]
    assert lines[0]["type"] == "GameCreated" and "head" in lines[-1]
    assert lines[-2]["type"] == "GameScored"
