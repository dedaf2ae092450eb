"""Which games take takebacks at all (domain.lifecycle.takeback)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain import games as registry
from domain import session as sessions
from domain.lifecycle import decide as lifecycle
from domain.lifecycle import takeback


def _started(options):
    rules = registry.get("cronberg")
    seed = bytes(32)
    session = sessions.replay(rules, lifecycle.create(rules, "ada", options, seed, None))
    session = sessions.replay(rules, sessions.join(session, "bob", None), session)
    source = sessions.source(session, seed)
    return rules, sessions.replay(rules, sessions.start(rules, session, "ada", source.game(session.version)), session)


def test_a_game_of_randomness_version_1_takes_no_takebacks():
    rules, session = _started({"players": 2})
    assert session.options["takebacks"] == "with-consent"
    with pytest.raises(takeback.NothingToTakeBack, match="randomness version 1"):
        takeback.ask(rules, replace(session, randomness_version=1), "ada", [])


def test_a_game_stored_before_the_option_takes_none():
    rules, session = _started({"players": 2})
    options = {name: value for name, value in session.options.items() if name != "takebacks"}
    with pytest.raises(takeback.NothingToTakeBack, match="takes no takebacks"):
        takeback.ask(rules, replace(session, options=options), "ada", [])
