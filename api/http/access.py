"""Who may watch a game: anyone, unless the game is private.

A private game is its players' (``visibility: private``): it may be watched
(summary, view at any version, feed, legal commands, audit, export, stream,
long-polls) and acted on only by

- the players who hold its seats, as ``session.players`` records them (the
  host is one; a player who resigned or was abandoned to a bot keeps his
  place there, and so his sight of the game as a spectator would have it);
- the players a rematch keeps a seat for (``life.reserved``), who were
  invited by name and need to see the game to join it.

Everyone else, with or without a token, gets the answer an unknown game id
gets, the same 404 ``game-not-found`` with the same sentence, so that the
answer does not tell a private game from no game. There is no invitation to
watch only: the one way in is a seat, by the host's invite code (POST
.../invites/redeem takes a code and stays open to anyone who has one). A
player replaced in his seat (after abandonment, by the host's invite) is no
longer one of the game's players and watches no more.

This reads the session the request loads anyway; where a request would not
load one (a summary read from the read model, a poll), ``check_cheaply``
uses the row or a cached session for a public game, and loads the game only
when it is private.
"""

from __future__ import annotations

import uuid

from domain.lifecycle.decide import PRIVATE

from ..service.errors import NotFound


def unknown(game_id) -> NotFound:
    """What an unknown game id answers (api/service/games.py says the same)."""
    return NotFound(f"no game {game_id}")


def may_watch(session, player: str | None) -> bool:
    if session.options.get("visibility") != PRIVATE:
        return True
    return player is not None and (player in session.players.values() or player in session.life.reserved.values())


def check(session, game_id, player: str | None) -> None:
    """NotFound, as for no game at all, unless ``player`` may watch the game."""
    if not may_watch(session, player):
        raise unknown(game_id)


def check_summary(row: dict, game_id: uuid.UUID, player: str | None) -> None:
    """The same, from the game's summary (the read model): a load only for a
    private game the caller holds no seat in (a rematch may keep him one)."""
    if row.get("visibility") != PRIVATE:
        return
    if player is not None and any(str(seat.get("player")) == player for seat in row.get("seats") or ()):
        return
    from .context import service

    check(service().load(game_id)[1], game_id, player)


def check_cheaply(game_id: uuid.UUID, player: str | None, load=None) -> None:
    """The same where a request loads no session of its own: a cached session
    says whether the game is public (its visibility never changes). ``load``:
    how to load the game otherwise (default: the service's own load)."""
    from .context import service

    if known_public(service(), game_id):
        return
    check((load or service().load)(game_id)[1], game_id, player)


def known_public(service, game_id: uuid.UUID) -> bool:
    """Whether this process holds the game and it is public, without a query
    (a private game's players change: only a load tells who they are now)."""
    cached = service.cached(game_id)
    return cached is not None and cached[1].options.get("visibility") != PRIVATE
