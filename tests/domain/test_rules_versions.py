"""Rules versions and event schema versions, in the pure domain: a game is
played under the rules GameCreated records, for ever; older event shapes are
upcast on read; what this installation lacks is an error that names it."""

from __future__ import annotations

import dataclasses

import pytest

from domain import games, session as sessions
from domain.engine import ChangedDataFile, DecodeError, Event, UnknownRulesVersion, UnreadableHistory
from domain.session import GameCreated
from domain.upcasting import UnknownEventType, UpcastError, upcast

SEED = b"s" * 32


def _created(game="cronberg", **changes) -> GameCreated:
    rules = games.get(game)
    created = sessions.create(rules, "host", {}, SEED, None)[0]
    return dataclasses.replace(created, **changes)


@pytest.mark.parametrize("name", sorted(games.REGISTRY))
def test_a_new_game_records_the_newest_rules_version_and_its_data_files(name):
    rules = games.get(name)
    created = sessions.create(rules, "host", {}, SEED, None)[0]
    assert created.rules_version == max(rules.versions) == rules.version
    assert created.data_files == rules.data_digests() and created.data_files
    assert all(len(digest) == 64 for digest in created.data_files.values())


@pytest.mark.parametrize("name", sorted(games.REGISTRY))
def test_every_rules_version_of_every_game_is_registered_and_named(name):
    versions = games.VERSIONS[name]
    assert sorted(versions) == list(range(1, max(versions) + 1))
    for number, rules in versions.items():
        assert rules.version == number and rules.name == name
        assert rules.versions[number].strip(), "each version names what it changed"
    assert versions[max(versions)] is games.get(name)


@pytest.mark.parametrize("name", sorted(games.REGISTRY))
def test_a_game_is_given_the_rules_version_it_was_created_under(name):
    for version in games.VERSIONS[name]:
        rules = games.rules_for(_created(name, rules_version=version))
        assert rules.version == version and rules is games.VERSIONS[name][version]


def test_the_session_remembers_its_rules_version():
    created = _created("court-of-miracles", rules_version=1)
    assert sessions.replay(games.get("court-of-miracles"), [created]).rules_version == 1


def test_an_unknown_rules_version_is_an_error_naming_both_versions():
    with pytest.raises(UnknownRulesVersion) as caught:
        games.rules_for(_created("coronation", rules_version=7))
    message = str(caught.value)
    newest = max(games.VERSIONS["coronation"])
    assert "coronation rules version 7" in message and f"newest {newest}" in message


def test_an_unknown_game_has_no_rules():
    assert games.rules_for(_created(game="cronberg", rules_version=1).__class__(
        "chess", {}, ("p1",), "host", "0" * 64, 1, {})) is None


def test_a_data_file_changed_in_place_is_an_error_naming_the_file():
    created = _created("cronberg")
    changed = {**created.data_files, "tiles.json": "0" * 64}
    with pytest.raises(ChangedDataFile, match="tiles.json"):
        games.rules_for(dataclasses.replace(created, data_files=changed))


def test_a_game_recorded_before_data_digests_is_not_checked_for_them():
    assert games.rules_for(_created("cronberg", data_files={})) is games.get("cronberg")


# Event schema versions


def test_game_created_is_at_schema_version_3_and_the_other_engine_events_at_1():
    assert GameCreated.schema_version == 3
    assert all(cls.schema_version == 1 for cls in sessions.ENGINE_EVENTS if cls is not GameCreated)


def test_a_game_created_event_of_schema_version_1_is_read_back_in_the_current_shape():
    stored = {"game": "coronation", "options": {"detective_seats": 1}, "seats": ["lind", "detective-1"],
              "host": "h", "seed_sha256": "ab" * 32}
    event = sessions.decode_stored(games.get("coronation"), "GameCreated", 1, stored)
    assert event == GameCreated("coronation", {"detective_seats": 1}, ("lind", "detective-1"), "h", "ab" * 32, 1, {})
    assert stored == {"game": "coronation", "options": {"detective_seats": 1}, "seats": ["lind", "detective-1"],
                      "host": "h", "seed_sha256": "ab" * 32}, "the stored data is never changed"


def test_the_current_shape_is_read_as_it_is():
    created = _created("cronberg")
    data = {k: v for k, v in created.to_json().items() if k != "type"}
    assert sessions.decode_stored(games.get("cronberg"), "GameCreated", 3, data) == created


def test_a_game_created_before_chain_and_randomness_versions_reads_as_version_1_of_both():
    created = _created("cronberg")
    data = {k: v for k, v in created.to_json().items() if k not in ("type", "chain_version", "randomness_version")}
    event = sessions.decode_stored(games.get("cronberg"), "GameCreated", 2, data)
    assert (event.chain_version, event.randomness_version) == (1, 1)


def test_game_created_of_schema_version_1_cannot_be_decoded_without_its_upcaster():
    stored = {"game": "cronberg", "options": {}, "seats": ["p1"], "host": "h", "seed_sha256": "ab" * 32}
    with pytest.raises(DecodeError, match="rules_version"):
        sessions.decode_event(games.get("cronberg"), {"type": "GameCreated", **stored})


@dataclasses.dataclass(frozen=True)
class Renamed(Event):
    schema_version = 3
    seat: str


def test_a_missing_upcaster_is_an_error_naming_the_event_and_versions():
    upcasters = {("Renamed", 1): lambda data: {"seat": data["player"]}}
    with pytest.raises(UpcastError) as caught:
        upcast(Renamed, 1, {"player": "p1"}, upcasters)
    assert "Renamed" in str(caught.value) and "from schema version 2 to 3" in str(caught.value)
    assert isinstance(caught.value, UnreadableHistory)


def test_upcasters_are_applied_step_by_step():
    upcasters = {("Renamed", 1): lambda data: {"player_id": data["player"]},
                 ("Renamed", 2): lambda data: {"seat": data["player_id"]}}
    assert upcast(Renamed, 1, {"player": "p1"}, upcasters) == {"seat": "p1"}
    assert upcast(Renamed, 2, {"player_id": "p1"}, upcasters) == {"seat": "p1"}


def test_a_schema_version_newer_than_the_code_is_an_error_naming_the_event():
    with pytest.raises(UpcastError, match="GameCreated has schema version 4, newer than this installation's 3"):
        sessions.decode_stored(games.get("cronberg"), "GameCreated", 4, {})


def test_an_event_type_the_game_does_not_know_is_an_error_naming_it():
    with pytest.raises(UnknownEventType, match="'Teleported' is not an event of cronberg rules version 1"):
        sessions.decode_stored(games.get("cronberg"), "Teleported", 1, {})
