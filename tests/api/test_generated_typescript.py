"""The proof for TypeScript frontends: types generated with openapi-typescript
from the served document let a strict program build one command of each
game from its own union and read one typed field of each game's view, and
refuse a command of one game where another's is expected.

The pinned tools (tests/api/typescript/package.json) are installed with npm
into .cache/typescript-contract, which git ignores; a later run reuses them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = Path(__file__).resolve().parent / "typescript"
TOOLS = ROOT / ".cache" / "typescript-contract"


def _install_tools() -> Path:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("node and npm are needed to check the TypeScript types")
    manifest = (SOURCES / "package.json").read_text()
    installed = TOOLS / "package.json"
    if not (installed.exists() and installed.read_text() == manifest and (TOOLS / "node_modules" / ".bin" / "tsc").exists()):
        TOOLS.mkdir(parents=True, exist_ok=True)
        installed.write_text(manifest)
        result = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TOOLS,
                                capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, result.stdout + result.stderr
    return TOOLS / "node_modules" / ".bin"


@pytest.fixture(scope="module")
def project(app, tmp_path_factory):
    """A folder with the generated api.d.ts beside the two programs."""
    tools = _install_tools()
    folder = tmp_path_factory.mktemp("typescript")
    (folder / "openapi.json").write_text(json.dumps(app.test_client().get("/v1/openapi.json").json))
    result = subprocess.run([str(tools / "openapi-typescript"), "openapi.json", "-o", "api.d.ts"], cwd=folder,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    for source in ("program.ts", "must_fail.ts", "must_fail_options.ts"):
        shutil.copy(SOURCES / source, folder / source)
    return folder, tools


def _tsc(project, program: str):
    folder, tools = project
    return subprocess.run(
        [str(tools / "tsc"), "--strict", "--noEmit", "--target", "es2022", "--module", "es2022",
         "--moduleResolution", "bundler", program],
        cwd=folder, capture_output=True, text=True, timeout=300,
    )


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
