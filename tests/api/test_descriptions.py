"""Every field explained: every component schema of the served document and
every property of each has a description a frontend author can act on, and
the games' texts of their messages' fields name only fields that exist."""

from __future__ import annotations

import re

import pytest

from api.processes.openapi_doc import document
from domain import games as registry
from domain.engine_fields import ENGINE_FIELD_DESCRIPTIONS
from domain.kit.game import unused_descriptions
from domain.session import ENGINE_EVENTS

# What the document adds to any property by itself says nothing of what the property means.
GENERATED = re.compile(r"\s*Default: `[^`]*`\.\s*")


def explains(schema: dict) -> bool:
    return bool(GENERATED.sub("", schema.get("description") or "").strip())


def undescribed(doc: dict) -> list[str]:
    missing = []
    for name, schema in doc["components"]["schemas"].items():
        if not explains(schema):
            missing.append(name)
        for prop, value in (schema.get("properties") or {}).items():
            if not explains(value):
                missing.append(f"{name}.{prop}")
    return missing


def test_every_schema_and_property_of_the_document_is_described():
    missing = undescribed(document())
    assert missing == [], f"{len(missing)} schemas or properties have no description: {', '.join(missing[:40])}"


def test_a_property_whose_only_text_is_its_default_counts_as_undescribed():
    doc = {"components": {"schemas": {"Move": {"description": "a move", "properties": {
        "turned": {"type": "boolean", "description": "Default: `false`."},
        "crossing": {"type": "string", "description": "the crossing's id. Default: `C01`."}}}}}}
    assert undescribed(doc) == ["Move.turned"]


@pytest.mark.parametrize("game", sorted(registry.REGISTRY))
def test_a_games_field_texts_name_only_fields_of_its_messages(game):
    rules = registry.REGISTRY[game]
    assert unused_descriptions(rules.field_descriptions, (*rules.commands, *rules.events)) == []


def test_the_engines_field_texts_name_only_fields_of_its_events():
    assert unused_descriptions(ENGINE_FIELD_DESCRIPTIONS, ENGINE_EVENTS) == []


def test_a_text_for_a_field_that_no_message_has_is_named():
    cronberg = registry.REGISTRY["cronberg"]
    stale = {"crossing": "a crossing", "PlaceMember.crossing": "where", "PlaceMember.spot": "gone", "colour": "gone"}
    assert unused_descriptions(stale, cronberg.commands) == ["PlaceMember.spot", "colour"]
