"""A player's name is read by other players: it is normalised, and refused
when it is empty, invisible, reverses the text around it, or is too long."""

from __future__ import annotations

import unicodedata

import pytest

from api.http.names import MAX_BYTES, MAX_CHARACTERS


def _register(client, name):
    return client.post("/v1/players", json={"name": name})


def test_a_name_is_trimmed_and_normalised_to_nfc(client):
    decomposed = "  Zoe\u0301  "  # e + combining acute accent
    response = _register(client, decomposed)
    assert response.status_code == 201, response.json
    assert response.json["name"] == "Zo\u00e9"
    assert unicodedata.is_normalized("NFC", response.json["name"])


@pytest.mark.parametrize("name", ["", "   ", "\t\n", "\u3000"])
def test_a_name_empty_after_trimming_is_refused(client, name):
    response = _register(client, name)
    assert response.status_code == 422, response.json
    assert "name" in response.json["errors"]


@pytest.mark.parametrize("name", [
    "\u200b",  # zero-width space alone
    "\u200b\u200c\u200d",  # zero-width space, non-joiner, joiner
    "\u2060",  # word joiner
    "\ufeff",  # byte order mark
    "\u3164",  # Hangul filler: a letter that draws nothing
    "\u2800\u2800",  # blank Braille
    "\u00ad",  # soft hyphen
])
def test_an_invisible_name_is_refused(client, name):
    response = _register(client, name)
    assert response.status_code == 422, response.json
    assert "name" in response.json["errors"]


@pytest.mark.parametrize("name", [
    "Ada\u200bLovelace",  # a zero-width space hidden inside
    "admin\u202egnp.exe",  # right-to-left override
    "Bob\u202d",  # left-to-right override
    "\u2066Eve\u2069",  # isolates
    "Mal\u200floy",  # right-to-left mark
    "Ada\nBob",  # a line break
    "Ada\u2028Bob",  # line separator
    "Ada\ue000",  # private use
])
def test_a_name_with_hidden_or_bidirectional_characters_is_refused(client, name):
    response = _register(client, name)
    assert response.status_code == 422, response.json
    assert "U+" in str(response.json["errors"]["name"]) or "visible" in str(response.json["errors"]["name"])


@pytest.mark.parametrize("name", ["Ada Lovelace", "李白", "Ólafur", "محمد", "👩\u200d🚀 Ada", "Zoë-42"])
def test_ordinary_names_in_any_script_are_accepted(client, name):
    response = _register(client, name)
    assert response.status_code == 201, response.json
    assert response.json["name"] == name


def test_a_name_is_bounded_in_characters(client):
    assert _register(client, "a" * MAX_CHARACTERS).status_code == 201
    response = _register(client, "a" * (MAX_CHARACTERS + 1))
    assert response.status_code == 422
    assert "characters" in str(response.json["errors"]["name"])


def test_a_name_is_bounded_in_bytes_even_when_short_in_characters(client):
    wide = "𝕬" * (MAX_BYTES // 4 + 1)  # 4 bytes each in UTF-8
    assert len(wide) <= MAX_CHARACTERS and len(wide.encode()) > MAX_BYTES
    response = _register(client, wide)
    assert response.status_code == 422
    assert "bytes" in str(response.json["errors"]["name"])


def test_the_character_bound_counts_after_normalisation(client):
    # 80 decomposed letters (160 code points) are 80 characters once composed.
    response = _register(client, "e\u0301" * MAX_CHARACTERS)
    assert response.status_code == 201, response.json
    assert response.json["name"] == "\u00e9" * MAX_CHARACTERS
