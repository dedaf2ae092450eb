"""The application's shared objects, reached from request handlers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app

from .service.games import GameService


@dataclass
class Boardlog:
    service: GameService
    redis: Any = None
    api: Any = None


def service() -> GameService:
    return current_app.extensions["boardlog"].service
