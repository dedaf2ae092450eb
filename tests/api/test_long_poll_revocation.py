"""A long-poll already waiting when its token is revoked ends then, with a
401, as a stream does: it never answers the seat's view (or the inbox) to a
token that no longer stands, neither in the process that revoked it nor in
another. Two API processes on the real PostgreSQL (test_stream_revocation.py's)."""

from __future__ import annotations

import threading
import time

from .conftest import Player, started_game
from .test_stream_revocation import _bearer, _token_id, two_processes  # noqa: F401 (a fixture)

WAIT = 20  # seconds the long-polls ask to wait: far longer than any revocation takes to end them


class HeldPoll:
    """A long-poll asked in a thread of its own."""

    def __init__(self, client, path, headers):
        self.answer = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._ask, args=(client, path, headers), daemon=True)

    def _ask(self, client, path, headers):
        try:
            self.answer = client.get(path, headers=headers)
        finally:
            self.done.set()

    def started(self) -> "HeldPoll":
        self.thread.start()
        time.sleep(0.5)  # long enough to be waiting
        assert not self.done.is_set(), self.answer and self.answer.get_data(as_text=True)
        return self


def _view_poll(client, game_id, token) -> HeldPoll:
    etag = client.get(f"/v1/games/{game_id}/view", headers=_bearer(token)).headers["ETag"]
    return HeldPoll(client, f"/v1/games/{game_id}/view?wait={WAIT}", {**_bearer(token), "If-None-Match": etag})


def _move(player, game_id):
    assert player.act(game_id, player.legal(game_id)[0]).status_code == 200


def _refused(poll: HeldPoll, within: float) -> None:
    assert poll.done.wait(within), f"the long-poll still waited {within} s after its token was revoked"
    assert poll.answer.status_code == 401, poll.answer.get_data(as_text=True)[:300]
    assert poll.answer.json["type"].endswith("/token-unknown") and "revoked" in poll.answer.json["detail"]


def test_a_view_long_poll_waiting_when_its_token_is_revoked_ends_with_a_401_not_the_seat_s_view(two_processes):
    # Given Ada's phone long-polling her view while Bob is to act
    client, _ = two_processes
    ada, bob = Player(client, "polling-ada"), Player(client, "polling-bob")
    game_id = started_game([ada, bob])
    if ada.view(game_id).json["seat"] in ada.view(game_id).json["to_act"]:
        _move(ada, game_id)
    phone = client.post("/v1/players/me/tokens", json={"label": "phone"}, headers=ada.auth).json
    poll = _view_poll(client, game_id, phone["token"]).started()
    # When the phone's token is revoked, and Bob moves a moment later
    assert client.delete(f"/v1/players/me/tokens/{phone['id']}", headers=ada.auth).status_code == 204
    time.sleep(0.4)
    _move(bob, game_id)
    # Then the long-poll answered 401, not her view of the move
    _refused(poll, within=2.0)


def test_a_view_long_poll_ends_when_its_token_is_revoked_in_another_process(two_processes):
    first, second = two_processes
    ada, bob = Player(first, "polling-elsewhere-ada"), Player(first, "polling-elsewhere-bob")
    game_id = started_game([ada, bob])
    poll = _view_poll(second, game_id, bob.token).started()
    assert first.delete(f"/v1/players/me/tokens/{_token_id(first, bob.token)}", headers=bob.auth).status_code == 204
    _refused(poll, within=3.0)


def test_an_inbox_long_poll_ends_when_its_token_is_revoked(two_processes):
    client, _ = two_processes
    ada = Player(client, "polling-inbox")
    phone = client.post("/v1/players/me/tokens", json={"label": "phone"}, headers=ada.auth).json
    etag = client.get("/v1/players/me/inbox", headers=_bearer(phone["token"])).headers["ETag"]
    poll = HeldPoll(client, f"/v1/players/me/inbox?wait={WAIT}",
                    {**_bearer(phone["token"]), "If-None-Match": etag}).started()
    assert client.delete(f"/v1/players/me/tokens/{phone['id']}", headers=ada.auth).status_code == 204
    _refused(poll, within=2.0)
