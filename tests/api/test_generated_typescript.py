"""The proof for TypeScript frontends: types generated with openapi-typescript
from the served document let a strict program build one command of each
game from its own union and read one typed field of each game's view, and
refuse a command of one game where another's is expected.

The pinned tools (tests/api/typescript/package.json) are installed by
tests/support/typescript.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.typescript import generate_types, install_tools, tsc

SOURCES = Path(__file__).resolve().parent / "typescript"


@pytest.fixture(scope="module")
def project(app, tmp_path_factory):
    """A folder with the generated api.d.ts beside the two programs."""
    tools = install_tools()
    folder = tmp_path_factory.mktemp("typescript")
    generate_types(tools, app.test_client().get("/v1/openapi.json").json, folder, "api.d.ts")
    for source in ("program.ts", "must_fail.ts", "must_fail_options.ts"):
        shutil.copy(SOURCES / source, folder / source)
    return folder, tools


def _tsc(project, program: str):
    folder, tools = project
    return tsc(tools, folder, program)


def test_a_strict_program_builds_each_games_commands_and_reads_each_games_view(project):
    result = _tsc(project, "program.ts")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_command_of_one_game_where_another_games_is_expected_does_not_compile(project):
    result = _tsc(project, "must_fail.ts")
    assert result.returncode != 0
    errors = [line for line in result.stdout.splitlines() if "error TS" in line]
    assert len(errors) == 1 and errors[0].startswith("must_fail.ts(8,"), result.stdout
    assert "TS2345" in errors[0] and '"DrawBuilding"' in errors[0] and '"PlaceDetective"' in errors[0], result.stdout


def test_a_misspelled_option_a_wrong_type_another_games_option_and_an_unknown_bot_do_not_compile(project):
    result = _tsc(project, "must_fail_options.ts")
    errors = {int(line.split("(", 1)[1].split(",", 1)[0]): line
              for line in result.stdout.splitlines() if line.startswith("must_fail_options.ts(")}
    assert sorted(errors) == [7, 8, 9, 10], result.stdout
    assert "'player' does not exist" in errors[7], result.stdout
    assert "Type 'string' is not assignable to type 'number'" in errors[8], result.stdout
    assert "TS2322" in errors[9] and '"cronberg"' in errors[9], result.stdout
    assert "'last_turn' does not exist" in result.stdout, result.stdout
    assert '\'"genius"\' is not assignable' in errors[10], result.stdout
