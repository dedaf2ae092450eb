"""`boardlog openapi`: write the OpenAPI document to openapi/openapi.yaml, or
check that the committed one matches the code."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

DEFAULT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.yaml"


def document() -> dict:
    from ..http.app import create_app

    app = create_app(offline=True)
    with app.app_context():
        return same_on_every_python(app.extensions["boardlog"].api.spec.to_dict())


# flask-smorest names responses after http.HTTPStatus, whose 422 Python 3.13
# renamed (RFC 9110); the committed document keeps one name on every Python.
RENAMED_BY_PYTHON_313 = {"UNPROCESSABLE_CONTENT": "UNPROCESSABLE_ENTITY", "Unprocessable Content": "Unprocessable Entity"}


def same_on_every_python(spec):
    """In place (shared parts stay shared: YAML anchors), answering ``spec``."""
    if isinstance(spec, dict):
        for key in list(spec):
            value = same_on_every_python(spec.pop(key)) if key in RENAMED_BY_PYTHON_313 else spec[key]
            spec[RENAMED_BY_PYTHON_313.get(key, key)] = same_on_every_python(value)
    elif isinstance(spec, list):
        spec[:] = [same_on_every_python(item) for item in spec]
    elif isinstance(spec, str):
        for new, old in RENAMED_BY_PYTHON_313.items():
            if spec == new or spec.endswith("/" + new):
                return spec[: -len(new)] + old
    return spec


def render() -> str:
    return yaml.safe_dump(document(), sort_keys=True, allow_unicode=True)


def main(args) -> int:
    path = Path(getattr(args, "output", None) or DEFAULT)
    text = render()
    if getattr(args, "check", False):
        if not path.exists() or path.read_text() != text:
            print(f"{path} is out of date: run `boardlog openapi` and commit it", file=sys.stderr)
            return 1
        print(f"{path} matches the code")
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    print(f"wrote {path}")
    return 0
