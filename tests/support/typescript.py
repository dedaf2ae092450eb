"""The pinned TypeScript tools (tests/api/typescript/package.json: openapi-typescript
and tsc), installed with npm into .cache/typescript-contract, which git ignores;
a later run reuses them. Both the proof for TypeScript frontends
(tests/api/test_generated_typescript.py) and the web client's type check
(tests/web/test_client_types.py) compile with them."""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "tests" / "api" / "typescript" / "package.json"
TOOLS = ROOT / ".cache" / "typescript-contract"
# What the programs are compiled as: modern ES modules, resolved as a bundler (or a browser) would.
TARGET = ["--target", "es2022", "--module", "es2022", "--moduleResolution", "bundler"]


def install_tools() -> Path:
    """The folder of the tools' commands (openapi-typescript, tsc); skips without node and npm."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("node and npm are needed to check the TypeScript types")
    manifest = MANIFEST.read_text()
    installed = TOOLS / "package.json"
    TOOLS.mkdir(parents=True, exist_ok=True)
    # Parallel test workers share the folder: one installs, the others wait for it.
    with open(TOOLS.parent / "typescript-contract.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (installed.exists() and installed.read_text() == manifest
                and (TOOLS / "node_modules" / ".bin" / "tsc").exists()):
            installed.write_text(manifest)
            result = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TOOLS,
                                    capture_output=True, text=True, timeout=600)
            assert result.returncode == 0, result.stdout + result.stderr
    return TOOLS / "node_modules" / ".bin"


def generate_types(tools: Path, document: dict, folder: Path, output: str) -> None:
    """``output`` in ``folder``: openapi-typescript's types of ``document`` (the served /v1/openapi.json)."""
    (folder / "openapi.json").write_text(json.dumps(document))
    result = subprocess.run([str(tools / "openapi-typescript"), "openapi.json", "-o", output], cwd=folder,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def tsc(tools: Path, folder: Path, *arguments: str) -> subprocess.CompletedProcess:
    """tsc --strict --noEmit over ``arguments`` (flags, then files) in ``folder``."""
    return subprocess.run([str(tools / "tsc"), "--strict", "--noEmit", *TARGET, *arguments],
                          cwd=folder, capture_output=True, text=True, timeout=300)
