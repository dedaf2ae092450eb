"""The bots' job, ``workers.bots.play_bots``: every seat a bot plays that is
to act at a version moves, through the one command path (``GameService``),
recorded with the bot's kind as the actor. Scheduled a short delay
(BOARDLOG_BOT_DELAY) after the commit that made a bot's seat one to act, with
the id ``bot-<game>-<version>``; the sweeper re-creates it from PostgreSQL if
Redis lost it. A job that runs twice or late changes nothing."""

from __future__ import annotations

import uuid

from .jobs import _run


def play_bots(game_id: str, version: int) -> bool:
    return _run("bots", game_id, version, lambda s: s.bots.play_bots(uuid.UUID(game_id), int(version)),
                done="moved", nothing="changed nothing: the game moved or ended since")
