"""The web client is typed against the types generated from the OpenAPI
document: copies of api/web/static/*.js, beside openapi.d.ts (openapi-typescript
over the served /v1/openapi.json), compile under tsc --strict --checkJs; a
misspelled view field, a command of the wrong shape and a path the document
does not describe do not. No browser: the modules' JSDoc is only comments.

The types are named openapi.d.ts, not api.d.ts: beside api.js, tsc would take
api.d.ts for the declarations of api.js itself."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from api.http.app import create_app
from tests.support.typescript import generate_types, install_tools, tsc

STATIC = Path(__file__).resolve().parents[2] / "api" / "web" / "static"
CHECKED = "// @ts-check"


def modules() -> list[Path]:
    return sorted(STATIC.glob("*.js"))


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """A folder of the client's modules beside the types of the document it is served with."""
    tools = install_tools()
    folder = tmp_path_factory.mktemp("web-client-types")
    generate_types(tools, create_app(offline=True).test_client().get("/v1/openapi.json").json, folder, "openapi.d.ts")
    for module in modules():
        shutil.copy(module, folder / module.name)
    return folder, tools


def compile_client(folder: Path, tools: Path):
    return tsc(tools, folder, "--allowJs", "--checkJs", *sorted(path.name for path in folder.glob("*.js")))


def errors_of(result) -> dict[tuple[str, int], str]:
    """Each error, by its file and line."""
    found = {}
    for line in result.stdout.splitlines():
        match = re.match(r"^(\S+)\((\d+),\d+\): error (TS\d+: .*)$", line)
        if match:
            found[(match[1], int(match[2]))] = match[3]
    return found


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_every_module_of_the_web_client_asks_to_be_type_checked():
    unchecked = [module.name for module in modules() if not module.read_text().startswith(CHECKED + "\n")]
    assert not unchecked, f"these modules do not start with {CHECKED}: {', '.join(unchecked)}"


def test_the_web_client_compiles_against_the_types_generated_from_the_document(client):
    result = compile_client(*client)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_misspelled_view_field_a_wrong_command_and_undocumented_paths_do_not_compile(client, tmp_path):
    folder, tools = client
    for module in folder.iterdir():
        shutil.copy(module, tmp_path / module.name)
    replay = (tmp_path / "replay.js").read_text()
    assert "envelope.to_act.length" in replay
    (tmp_path / "replay.js").write_text(replay.replace("envelope.to_act.length", "envelope.to_akt.length"))
    lobby = (tmp_path / "lobby.js").read_text()
    (tmp_path / "lobby.js").write_text(lobby + (
        "export const wrongCommand = (/** @type {string} */ id) => change(`/games/${encodeURIComponent(id)}/commands`,"
        ' { type: "PlaceDetective", detective: "detective-1", location: "the station" });\n'
        "export const undocumented = (/** @type {string} */ id) => get(`/games/${encodeURIComponent(id)}/veiw`);\n"))
    lines = lobby.count("\n")
    table = (tmp_path / "table.js").read_text()
    actions = '@typedef {"start" | "join" | "resign"} Action'
    assert actions in table
    # One undocumented name among the table's actions: the path it makes fits no operation.
    (tmp_path / "table.js").write_text(table.replace(actions, '@typedef {"start" | "join" | "resign" | "rejoin"} Action'))

    errors = errors_of(compile_client(tmp_path, tools))

    misspelled = ("replay.js", line_of(replay, "envelope.to_act.length"))
    acting = ("table.js", line_of(table, "change(`/games/${encodeURIComponent(id)}/${action}`"))
    assert sorted(errors) == sorted([misspelled, ("lobby.js", lines + 1), ("lobby.js", lines + 2), acting]), errors
    assert "Property 'to_akt' does not exist" in errors[misspelled]
    assert "Type 'string' is not assignable to type 'number'" in errors[("lobby.js", lines + 1)]  # the location
    assert '"a path the OpenAPI document describes"' in errors[("lobby.js", lines + 2)]
    assert "`/games/${string}/rejoin`" in errors[acting]
