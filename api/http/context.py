"""The application's shared objects, reached from request handlers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app

from ..service.games import GameService


@dataclass
class Boardlog:
    service: GameService
    redis: Any = None
    api: Any = None
    streams: Any = None  # api.http.streaming.Streams: open streams, their limits, shared work


def streams():
    return current_app.extensions["boardlog"].streams


def service() -> GameService:
    return current_app.extensions["boardlog"].service
