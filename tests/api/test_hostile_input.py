"""Hostile or merely odd input: every number and every file the server or the
CLI parses answers a sentence, never a 500 or a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from api.audit.offline_audit import audit_lines
from tests.api.test_real_server import base_url  # noqa: F401  (the API on a real socket: a fixture)

ROOT = Path(__file__).resolve().parents[2]
HUGE = "9" * 5000  # past Python's integer-to-string limit (4,300 digits)


def _is_problem(response, status):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.json["detail"]


@pytest.mark.parametrize("option", ["players", "turn_seconds", "rounds"])
def test_a_five_thousand_digit_option_is_a_400_not_a_500(players, option):
    (ada,) = players(1)
    body = '{"game": "cronberg", "options": {"%s": %s}}' % (option, HUGE)
    response = ada.post("/v1/games", data=body, headers={"Content-Type": "application/json"})
    _is_problem(response, 400)
    assert "digits" in response.json["detail"]


def test_a_long_number_anywhere_in_a_body_is_refused_before_it_is_read(players):
    (ada,) = players(1)
    game_id = ada.create()
    body = '{"type": "DrawBuilding", "extra": -%s}' % ("1" * 101)
    response = ada.post(f"/v1/games/{game_id}/commands", data=body, headers={"Content-Type": "application/json"})
    _is_problem(response, 400)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(players, constant):
    (ada,) = players(1)
    body = '{"game": "cronberg", "options": {"players": %s}}' % constant
    response = ada.post("/v1/games", data=body, headers={"Content-Type": "application/json"})
    _is_problem(response, 400)
    assert constant.lstrip("-") in response.json["detail"]


@pytest.mark.parametrize("tag", [f'"{HUGE}-abc"', f'W/"{HUGE}-abc"', '"²-abc"', '"٣-abc"', '"99999999999-abc"'])
def test_an_odd_version_in_if_none_match_is_just_not_a_match(players, tag):
    (ada,) = players(1)
    game_id = ada.create()
    response = ada.view(game_id, headers={"If-None-Match": tag})
    assert response.status_code == 200, response.get_data(as_text=True)


@pytest.mark.parametrize("tag", [f'"{HUGE}"', '"²"', '"٣"', '"99999999999"'])
def test_an_odd_version_in_if_match_is_a_422(players, tag):
    ada, bob = players(2)
    game_id = ada.create(options={"players": 2})
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    actor = next(p for p in (ada, bob) if p.legal(game_id))
    response = actor.act(game_id, actor.legal(game_id)[0], headers={"If-Match": tag})
    _is_problem(response, 422)
    assert "If-Match" in response.json["detail"]


NOT_EXPORTS = {
    "a JSON list": "[1, 2, 3]\n",
    "a JSON number": f"{HUGE}\n",
    "an object without the event's fields": '{"hello": "world"}\n',
    "fields of the wrong types": json.dumps({"stream_id": "game-x", "version": "one", "event_id": 5, "type": 7,
                                              "schema_version": 1, "data": [], "metadata": {}, "recorded_at": "x",
                                              "hash": 12}) + "\n",
    "a hash that is not hex": json.dumps({"stream_id": "game-x", "version": 1, "event_id": "e", "type": "GameCreated",
                                          "schema_version": 1, "data": {"game": "cronberg"}, "metadata": {},
                                          "recorded_at": "x", "hash": "zz"}) + "\n",
    "broken JSON": '{"version": 1,\n',
    "text": "hello\nworld\n",
}


@pytest.mark.parametrize("name", sorted(NOT_EXPORTS))
def test_auditing_a_file_that_is_not_an_export_says_so_in_a_sentence(name):
    ok, report = audit_lines(NOT_EXPORTS[name].splitlines())
    assert not ok
    assert report and "line 1" in report[-1], report


def test_boardlog_audit_of_a_file_that_is_not_an_export_prints_no_traceback(tmp_path):
    path = tmp_path / "not-an-export.jsonl"
    path.write_text('{"hello": "world"}\n[1]\n')
    done = subprocess.run([sys.executable, "-m", "api.processes.cli", "audit", str(path)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "not an export" in done.stderr


def test_boardlog_audit_of_a_binary_file_prints_no_traceback(tmp_path):
    path = tmp_path / "binary.jsonl"
    path.write_bytes(b"\xff\xfe\x00\x01garbage\n")
    done = subprocess.run([sys.executable, "-m", "api.processes.cli", "audit", str(path)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("variable", ["BOARDLOG_RATE_LIMIT", "BOARDLOG_MAX_BODY", "BOARDLOG_POOL_SIZE"])
def test_a_setting_that_is_not_a_number_names_the_variable(monkeypatch, variable):
    from api.http.app import settings
    from api.service.settings import SettingError

    monkeypatch.setenv(variable, "lots")
    with pytest.raises(SettingError, match=variable):
        settings()


@pytest.mark.parametrize("variable, value", [
    ("BOARDLOG_NOTIFY_BACKOFF", "10,soon"), ("BOARDLOG_NOTIFY_BACKOFF", "10,,60"),
    ("BOARDLOG_WEBHOOK_ALLOW_PRIVATE", "10.0.0.0/33"), ("BOARDLOG_WEBHOOK_TIMEOUT", "slow"),
    ("BOARDLOG_EMAIL_INTERVAL", "-1"), ("BOARDLOG_STREAMS_PER_PLAYER", "many"),
    ("BOARDLOG_HEARTBEAT_SECONDS", "nan")])
def test_a_notifier_or_stream_setting_that_cannot_be_read_names_the_variable_as_every_setting_does(
        monkeypatch, variable, value):
    from api.service.settings import SettingError, settings
    from api.http.streaming import settings_from_env

    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingError, match=variable):
        settings()
        settings_from_env()


def _chunks(body: bytes, size: int = 8192):
    for start in range(0, len(body), size):
        yield body[start:start + size]


def test_a_chunked_body_over_the_limit_is_a_413_like_any_other(base_url, app):
    import requests

    body = b'{"name": "' + b"a" * (app.config["MAX_CONTENT_LENGTH"] * 2) + b'"}'
    response = requests.post(f"{base_url}/v1/players", data=_chunks(body),
                             headers={"Content-Type": "application/json"}, timeout=30)
    assert response.request.headers.get("Transfer-Encoding") == "chunked"
    assert response.status_code == 413, response.text
    assert response.headers["Content-Type"].startswith("application/problem+json")


def test_a_chunked_body_within_the_limit_is_read_whole(base_url):
    import requests

    body = json.dumps({"name": "chunked " + "b" * 40}).encode()
    response = requests.post(f"{base_url}/v1/players", data=_chunks(body, 7),
                             headers={"Content-Type": "application/json"}, timeout=30)
    assert response.status_code == 201, response.text
    assert response.json()["name"] == "chunked " + "b" * 40
