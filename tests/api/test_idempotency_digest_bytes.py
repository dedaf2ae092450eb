"""An Idempotency-Key's record keeps its request's SHA-256 as its 32 bytes
(migration 0119, issue 37), and answers as before: a repeat with the same
key and request gets the first answer again, another request under the key
the same refusal. The records of keys remembered as hex before 0119 are
converted by it, and still answer their repeats."""

from __future__ import annotations

import hashlib
import shutil

import psycopg
import pytest

from api.service import decisions
from eventstore import migrate
from eventstore.migrations import migration_files
from eventstore.servers import temporary_database, with_database
from tests.api.conftest import started_game
from tests.api.test_commands import _turn
from tests.api.test_lifecycle_idempotency import new_key


def digest_of(service, player_id, key) -> bytes:
    with service.pool.connection() as conn:
        return conn.execute("select request_sha256 from idempotency_keys where player_id = %s and key = %s",
                            (player_id, key)).fetchone()[0]


def test_a_commands_key_keeps_the_32_bytes_of_its_sha256_and_answers_a_repeat_and_refuses_another_command(
        players, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    acting, _ = _turn([ada, bob], game_id)
    first, second = acting.legal(game_id)[:2]
    key = new_key()
    answer = acting.act(game_id, first, headers=key)
    assert answer.status_code == 200, answer.json
    assert digest_of(service, acting.id, key["Idempotency-Key"]) == \
        hashlib.sha256(decisions.canonical([game_id, first]).encode()).digest()

    again = acting.act(game_id, first, headers=key)
    assert (again.status_code, again.json, again.headers["Idempotent-Replayed"]) == (200, answer.json, "true")
    other = acting.act(game_id, second, headers=key)
    assert other.status_code == 422 and other.json["type"].endswith("idempotency-key-reused"), other.json


def test_a_held_key_of_another_post_keeps_its_sha256_as_bytes_and_answers_as_before(players, service):
    (ada,) = players(1)
    key = new_key()
    made = ada.post("/v1/players/me/tokens", json={"label": "phone"}, headers=key)
    assert made.status_code == 201
    assert len(digest_of(service, ada.id, key["Idempotency-Key"])) == 32
    again = ada.post("/v1/players/me/tokens", json={"label": "phone"}, headers=key)
    assert (again.status_code, again.data, again.headers["Idempotent-Replayed"]) == (201, made.data, "true")
    other = ada.post("/v1/players/me/tokens", json={"label": "tablet"}, headers=key)
    assert other.status_code == 422 and other.json["type"].endswith("idempotency-key-reused"), other.json


@pytest.fixture
def database_before_0119(database_url, tmp_path):
    """A database migrated up to 0118, and the folder of those migrations."""
    for path in migration_files():
        if path.name < "0119":
            shutil.copy(path, tmp_path / path.name)
    with temporary_database(with_database(database_url, "postgres"), "boardlog_digest") as url:
        migrate(url, tmp_path)
        yield url


def test_migration_0119_turns_the_hex_digests_kept_before_into_their_bytes(database_before_0119):
    digest = hashlib.sha256(b"a request").hexdigest()
    with psycopg.connect(database_before_0119, autocommit=True) as conn:
        conn.execute("insert into idempotency_keys (player_id, game_id, key, request_sha256, status, response)"
                     " values (gen_random_uuid(), gen_random_uuid(), 'kept', %s, 200, '{}')", (digest,))
    assert [name for name in migrate(database_before_0119) if name >= "0119"][:1] == [
        "0119_request_sha256_as_bytes.sql"]
    with psycopg.connect(database_before_0119) as conn:
        assert conn.execute("select request_sha256 from idempotency_keys where key = 'kept'").fetchone()[0] == \
            bytes.fromhex(digest)
