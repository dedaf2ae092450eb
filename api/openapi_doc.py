"""`boardlog openapi`: write the OpenAPI document to openapi/openapi.yaml, or
check that the committed one matches the code."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

DEFAULT = Path(__file__).resolve().parent.parent / "openapi" / "openapi.yaml"


def document() -> dict:
    from .app import create_app

    app = create_app(offline=True)
    with app.app_context():
        return app.extensions["boardlog"].api.spec.to_dict()


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
