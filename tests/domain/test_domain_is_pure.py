"""domain/ imports the standard library only."""

import ast
import sys
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[2] / "domain"


def _imports(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_nothing_in_domain_imports_a_third_party_package():
    allowed = set(sys.stdlib_module_names) | {"domain", "__future__"}
    offenders = {
        f"{path.relative_to(DOMAIN.parent)}: {name}"
        for path in DOMAIN.rglob("*.py")
        for name in _imports(path)
        if name not in allowed
    }
    assert not offenders, sorted(offenders)


def test_the_purity_check_would_catch_a_framework_import(tmp_path):
    sample = tmp_path / "bad.py"
    sample.write_text("import flask\nfrom psycopg import sql\n")
    assert list(_imports(sample)) == ["flask", "psycopg"]
