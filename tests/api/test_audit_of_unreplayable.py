"""A superuser rewrote one field of a finished game's stored event into a
card the game does not have and recomputed the chain: the history no
longer replays. GET /audit must still give its verdict on exactly this
game, naming the version, as `boardlog audit` does offline, never a 500."""

from __future__ import annotations

import psycopg
import pytest

from api.service.games import stream_of
from eventstore.chain import link_hash
from eventstore.types import NewEvent, event_body
from tests.api.test_superuser_rewrite import _play_keeping_receipts


def _rewrite_one_field(service, database_url: str, gid, version: int, field: str, value, restart=True) -> None:
    """The event at ``version`` with ``field`` of its data set to ``value``,
    and every link from there recomputed, as a superuser would; then the
    server restarts (``restart``), or keeps the game it holds in memory."""
    stream = stream_of(gid)
    records = service.store.read_stream(stream)
    previous = records[version - 2].hash
    with psycopg.connect(database_url) as conn, conn.transaction():
        conn.execute("set local session_replication_role = replica")  # the triggers that refuse UPDATE sleep
        conn.execute("delete from snapshots where stream_id = %s", (stream,))
        for record in records[version - 1:]:
            data = {**record.data, field: value} if record.version == version else record.data
            event = NewEvent(record.type, data, record.metadata, schema_version=record.schema_version,
                             event_id=record.event_id)
            previous = link_hash(previous, event_body(stream, event) + f',"version":{record.version}}}')
            conn.execute("update events set data = %s, hash = %s where stream_id = %s and version = %s",
                         (psycopg.types.json.Jsonb(data), bytes.fromhex(previous), stream, record.version))
        conn.execute("update streams set last_hash = %s where stream_id = %s", (bytes.fromhex(previous), stream))
    if restart:
        service.history.forget(gid)
        service.heads.forget_heads(gid, range(1, 100_000))


@pytest.fixture(scope="module", params=["restarted", "running"])
def unreplayable(app, service, database_url, request):
    """A building laid that the game does not have (tile 9999), the server
    restarted since or still holding the game as it was."""
    client = app.test_client()
    gid, ada, bob, kept = _play_keeping_receipts(client, service, seed=41)
    client.get(f"/v1/games/{gid}/view")  # the server holds the game
    laid = next(r.version for r in service.store.read_stream(stream_of(gid)) if r.type == "BuildingPlaced")
    _rewrite_one_field(service, database_url, gid, laid, "tile", 9999, restart=request.param == "restarted")
    return gid, ada, kept, laid


def test_the_audit_of_a_history_that_no_longer_replays_is_a_verdict_naming_the_version(unreplayable, client):
    gid, ada, kept, drawn = unreplayable
    answer = client.get(f"/v1/games/{gid}/audit")
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    audit = answer.json
    assert audit["chain"]["ok"] is True, "the superuser recomputed the chain"
    assert audit["rerun"]["ok"] is False
    assert any(f"version {drawn}" in problem for problem in audit["rerun"]["problems"]), audit["rerun"]
    assert audit["verdict"] == "NOT VERIFIED"


def test_the_audit_with_receipts_of_that_history_names_where_it_disagrees_too(unreplayable, client):
    gid, ada, kept, drawn = unreplayable
    receipts = [f"{r['version']}:{r['hash']}" for r in kept[ada.id]]
    answer = client.get(f"/v1/games/{gid}/audit", query_string={"receipt": receipts})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    audit = answer.json
    assert audit["verdict"] == "NOT VERIFIED" and audit["rerun"]["ok"] is False
    assert audit["receipts"]["ok"] is False
    assert audit["receipts"]["disagrees_at"] == min(r["version"] for r in kept[ada.id] if r["version"] >= drawn)
