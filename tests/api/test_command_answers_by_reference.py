"""A command's Idempotency-Key keeps a reference to what the command
produced (the game, its versions, the receipt's key and signature), not a
copy of its answer (migration 0117); a repeat is answered from it, byte for
byte the first answer."""

from __future__ import annotations

import uuid

import pytest

from tests.api.conftest import started_game
from tests.api.test_commands import _turn


def _stored(service, player_id: str, key: str) -> dict:
    with service.pool.connection() as conn:
        row = conn.execute("select response, first_version, last_version, signed_by, signature from idempotency_keys"
                           " where player_id = %s and key = %s", (player_id, key)).fetchone()
    return dict(zip(("response", "first", "last", "signed_by", "signature"), row))


@pytest.mark.parametrize("rotated", [False, True], ids=["same key", "signing key rotated since"])
def test_a_repeat_after_later_moves_gets_the_first_answer_byte_for_byte_from_a_reference(
        players, service, rotated):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    command = acting.legal(game_id)[0]
    key = {"Idempotency-Key": uuid.uuid4().hex}
    first = acting.act(game_id, command, headers=key)
    assert first.status_code == 200, first.json
    stored = _stored(service, acting.id, key["Idempotency-Key"])
    assert stored["response"] is None, "a reference, not a copy"
    assert stored["last"] == first.json["version"] and 1 <= stored["first"] <= stored["last"]
    assert stored["signed_by"] == first.json["receipt"]["key_id"]
    for _ in range(4):  # the game moves on
        mover, _ = _turn([ada, bob], game_id)
        assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200
    if rotated:
        service.signer.rotate()
        service.signer._current = None  # this process signs with the new key from now on
    again = acting.act(game_id, command, headers=key)
    assert again.status_code == 200, again.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.data == first.data
    assert again.json["version"] < acting.view(game_id).json["version"]
