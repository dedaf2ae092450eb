"""Every answer keeps a browser from sniffing it or framing it, and the
pages (the mail pages, the docs) say what they may load and run."""

from __future__ import annotations

import base64
import hashlib
import re


def _policy(response) -> dict[str, str]:
    policy = response.headers["Content-Security-Policy"]
    return {part.strip().split(" ", 1)[0]: part.strip().partition(" ")[2] for part in policy.split(";")}


def test_a_json_answer_and_a_problem_are_never_sniffed_or_framed(client):
    for response in (client.get("/v1/rules"), client.get("/v1/games/not-a-game")):
        assert response.mimetype in ("application/json", "application/problem+json")
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["X-Frame-Options"] == "DENY"
        assert _policy(response)["frame-ancestors"] == "'none'"


def test_the_unsubscribe_page_loads_nothing_posts_only_here_and_is_never_framed(client):
    page = client.get("/v1/notifications/unsubscribe", query_string={"token": "t" * 40})
    assert page.status_code == 200 and page.mimetype == "text/html"
    policy = _policy(page)
    assert policy["default-src"] == "'none'" and policy["form-action"] == "'self'"
    assert policy["frame-ancestors"] == "'none'" and page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    confirm = client.get("/v1/notifications/confirm", query_string={"token": "t" * 40})
    assert confirm.headers["X-Content-Type-Options"] == "nosniff" and _policy(confirm)["frame-ancestors"] == "'none'"


def test_the_docs_page_runs_only_its_own_scripts_and_its_one_inline_script_by_hash(client):
    page = client.get("/v1/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    policy = _policy(page)
    inline = re.findall(rb"<script>(.*?)</script>", page.get_data(), re.S)
    assert len(inline) == 1
    digest = base64.b64encode(hashlib.sha256(inline[0]).digest()).decode()
    assert policy["script-src"] == f"'self' 'sha256-{digest}'"
    assert policy["default-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert page.headers["X-Content-Type-Options"] == "nosniff"


def test_the_web_client_keeps_its_own_policy(client):
    page = client.get("/")
    assert "script-src 'self';" in page.headers["Content-Security-Policy"]
    assert page.headers.getlist("Content-Security-Policy") == [page.headers["Content-Security-Policy"]]
