"""Imports run one way: domain <- eventstore <- api.service (the application
layer) <- api.audit (the referee's tools) <- api.http (the Flask application,
its resources and middleware) <- api.processes (the console script, serve,
gunicorn's settings); the workers sit on api.service beside the HTTP layer,
and the two never import each other.

Every module of the four packages is parsed (no import runs), and every
import of one of them, at the top or inside a function, is checked against
the order. The console script is the one composition root that may import
both sides: it starts the API, the worker and the notifier."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = ("domain", "eventstore", "api", "workers")

# The layer a module belongs to, and the layers it may import.
ALLOWED = {
    "domain": {"domain"},
    "eventstore": {"domain", "eventstore"},
    "api.service": {"domain", "eventstore", "api.service"},
    "api.audit": {"domain", "eventstore", "api.service", "api.audit"},
    "api.http": {"domain", "eventstore", "api.service", "api.audit", "api.http"},
    "api.processes": {"domain", "eventstore", "api.service", "api.audit", "api.http", "api.processes"},
    # The package's own __init__ and the web client's static files import nothing of ours.
    "api": set(),
    "api.web": set(),
    "workers": {"domain", "eventstore", "api.service", "workers"},
}
# Modules that wire both sides together; each says why it may.
COMPOSITION_ROOTS = {
    "api.processes.cli": "the console script: `boardlog serve` supervises the API, the worker and the notifier",
}


API_LAYERS = ("api.service", "api.audit", "api.http", "api.processes", "api.web")


def layer(module: str) -> str:
    for name in API_LAYERS:
        if module == name or module.startswith(name + "."):
            return name
    return module.split(".", 1)[0]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """The modules an import statement names (relative ones made absolute)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level == 0:
        base = node.module or ""
    else:
        package = module.split(".") if is_package else module.split(".")[:-1]
        package = package[:len(package) - (node.level - 1)]
        base = ".".join(package + ([node.module] if node.module else []))
    # Each name may be a module of the package (``from api import service``) or a name in it.
    return [f"{base}.{alias.name}" if base else alias.name for alias in node.names]


def violations(path: Path) -> list[str]:
    module = module_name(path)
    if module in COMPOSITION_ROOTS:
        return []
    allowed = ALLOWED[layer(module)]
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        against = [target for target in imported(node, module, path.name == "__init__.py")
                   if target.split(".", 1)[0] in OURS and layer(target) not in allowed]
        if against:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {module} ({layer(module)}) imports "
                         f"{', '.join(against)} ({layer(against[0])}), against the order: {layer(module)} may "
                         f"import only {', '.join(sorted(allowed))}")
    return found


def modules() -> list[Path]:
    return sorted(path for package in OURS for path in (ROOT / package).rglob("*.py"))


def test_every_package_imports_only_the_layers_below_it():
    found = [line for path in modules() for line in violations(path)]
    assert found == [], "imports against the order:\n" + "\n".join(found)


def test_the_check_sees_all_four_packages():
    seen = {layer(module_name(path)) for path in modules()}
    assert seen == set(ALLOWED)
    assert all((ROOT / module.replace(".", "/")).with_suffix(".py").exists() for module in COMPOSITION_ROOTS)


@pytest.mark.parametrize("module, source, offending", [
    ("workers/x.py", "from api.http.resources import games\n", "api.http.resources"),
    ("workers/x.py", "def f():\n    import api.http.app\n", "api.http.app"),
    ("api/http/resources/x.py", "from workers.notify import runner\n", "workers.notify"),
    ("api/service/x.py", "from ..http.errors import problem\n", "api.http.errors"),
    ("api/service/x.py", "from ..http import auth\n", "api.http.auth"),
    ("api/audit/x.py", "from ..http.app import create_app\n", "api.http.app"),
    ("api/http/x.py", "from ..processes import serving\n", "api.processes.serving"),
    ("api/http/resources/x.py", "from ...processes.cli import main\n", "api.processes.cli"),
    ("eventstore/x.py", "from workers import embedded\n", "workers.embedded"),
    ("workers/x.py", "from api.http import app\n", "api.http.app"),
    ("domain/x.py", "from eventstore import NewEvent\n", "eventstore"),
])
def test_an_import_against_the_order_is_named_with_its_module_and_line(tmp_path, monkeypatch, module, source,
                                                                        offending):
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    path = tmp_path / module
    path.parent.mkdir(parents=True)
    path.write_text(source)
    found = violations(path)
    line = source.count("\n", 0, source.index("import")) + 1
    assert len(found) == 1 and found[0].startswith(f"{module}:{line}: ") and f"imports {offending}" in found[0]


@pytest.mark.parametrize("module, source", [
    ("workers/x.py", "from api.service.games import GameService\n"),
    ("api/http/resources/x.py", "from ...service import notifications\nfrom eventstore import migrate\n"),
    ("api/http/resources/x.py", "from ...audit import receipt_check\nfrom .. import auth\n"),
    ("api/processes/x.py", "from ..http.app import create_app\nfrom ..audit import history_check\n"),
    ("api/service/x.py", "from . import errors\nfrom domain import games\n"),
    ("eventstore/x.py", "from domain.session import ENGINE_EVENT_TYPES\nimport psycopg\n"),
])
def test_an_import_along_the_order_passes(tmp_path, monkeypatch, module, source):
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    path = tmp_path / module
    path.parent.mkdir(parents=True)
    path.write_text(source)
    assert violations(path) == []
