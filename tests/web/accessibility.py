"""axe-core (pinned in tests/web/axe/package.json, installed with npm into
.cache/axe-core, which git ignores) run in a page: the violations a person
with a screen reader or a keyboard would meet. Pages are opened in a
context that bypasses the Content-Security-Policy, which would otherwise
refuse the injected script."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = Path(__file__).resolve().parent / "axe" / "package.json"
TOOLS = ROOT / ".cache" / "axe-core"
SERIOUS = ("serious", "critical")


def axe_source() -> str:
    """axe.min.js, installed once (parallel workers wait for the one installing); skips without npm."""
    if shutil.which("npm") is None:
        pytest.skip("npm is needed to install axe-core for the accessibility checks")
    manifest = MANIFEST.read_text()
    installed = TOOLS / "package.json"
    script = TOOLS / "node_modules" / "axe-core" / "axe.min.js"
    TOOLS.mkdir(parents=True, exist_ok=True)
    with open(TOOLS.parent / "axe-core.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (installed.exists() and installed.read_text() == manifest and script.exists()):
            installed.write_text(manifest)
            result = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TOOLS,
                                    capture_output=True, text=True, timeout=600)
            assert result.returncode == 0, result.stdout + result.stderr
    return script.read_text()


def serious_violations(page) -> list[str]:
    """Each serious or critical violation of the page as it is now: its rule, and the elements it names."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source())
    found = page.evaluate("async () => (await axe.run(document)).violations"
                          ".map((v) => ({ id: v.id, impact: v.impact, help: v.help,"
                          " nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }))")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {', '.join(v['nodes'])}" for v in found if v["impact"] in SERIOUS]
