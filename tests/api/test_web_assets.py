"""The web client's files as the server sends them: gzipped for a browser
that takes it, with an ETag of their own form, plain otherwise; always under
the strict Content-Security-Policy."""

from __future__ import annotations

import gzip
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "api" / "web" / "static"


def test_a_module_is_gzipped_for_a_browser_that_takes_it_and_unpacks_to_the_file(client):
    answer = client.get("/web/table.js", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "gzip"
    assert "javascript" in answer.mimetype
    assert gzip.decompress(answer.data) == (STATIC / "table.js").read_bytes()
    assert len(answer.data) < (STATIC / "table.js").stat().st_size / 2
    assert "Accept-Encoding" in answer.headers["Vary"]
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")


def test_a_gzipped_module_answers_304_to_its_own_etag(client):
    first = client.get("/web/table.js", headers={"Accept-Encoding": "gzip"})
    again = client.get("/web/table.js", headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_a_client_that_does_not_take_gzip_gets_the_file_as_it_is(client):
    answer = client.get("/web/table.js", headers={"Accept-Encoding": "identity"})
    assert answer.status_code == 200 and "Content-Encoding" not in answer.headers
    assert answer.data == (STATIC / "table.js").read_bytes()
    plain_tag = answer.headers["ETag"]
    packed = client.get("/web/table.js", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["ETag"] != plain_tag, "the two forms are told apart by their ETags"
