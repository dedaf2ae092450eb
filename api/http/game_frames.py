"""What a game's stream writes (api/http/streaming.py): a new stream's view,
a catch-up (the events after a version, then the view), the end. Each is
composed and encoded once per process for every stream that writes the
same (``SharedWork.frame``), and written by each as the same bytes: with
30 spectators of a match, a move is formatted once, not 30 times."""

from __future__ import annotations

import uuid

from ..service.shared import SharedWork, dumps
from ..service.views import viewer_seat
from .sse import message


class GameFrames:
    def __init__(self, service, shared: SharedWork):
        self.service, self.shared = service, shared

    def view_now(self, game_id: uuid.UUID, rules, session, seat: str | None) -> bytes:
        """A new stream's first view, the same bytes for every stream that opens on that version and seat."""
        return self.shared.frame(("view", game_id, session.version, seat), lambda: message(
            "view", self.shared.view_json(game_id, rules, session, seat), session.version).encode())

    def moves(self, game_id: uuid.UUID, rules, session, after: int, player: str | None) -> bytes:
        """The events after ``after`` as ``player`` sees them, then his view:
        composed once for every stream of the process that catches up from
        the same version to the same one as the same player (or spectator)."""

        def compose() -> bytes:
            records = self.shared.records(game_id, after, session.version)
            parts = [message(None, text, version) for version, text in
                     self.shared.events_json(game_id, rules, session, records, player)]
            view = self.shared.view_json(game_id, rules, session, viewer_seat(session, player))
            parts.append(message("view", view, session.version))
            return "".join(parts).encode()

        return self.shared.frame(("moves", game_id, after, session.version, player), compose)

    def end(self, game_id: uuid.UUID, session) -> bytes:
        """The last message of a game's streams, the same bytes for all of them."""
        return self.shared.frame(("end", game_id, session.version), lambda: message("end", dumps({
            "status": session.status, "version": session.version,
            "receipt": self.service.heads.receipt_for(game_id, session)})).encode())
