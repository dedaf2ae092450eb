"""The audit re-runs each bot's choice from the published seed: a move
recorded as a bot's that its seeded rng would not have chosen is caught."""

from __future__ import annotations

from domain import session as sessions
from domain.audit import rerun
from domain.engine import rng_for
from domain.lifecycle import bots
from domain.lifecycle import decide as lifecycle

from .support import Game


def _log(forge_at: int | None = None):
    """A two-seat Cronberg game: a random bot at p2, the host at p1 who
    resigns after a while. ``forge_at``: the bot decision (counted from 0)
    at which another legal command is played and recorded as the bot's."""
    table = Game("cronberg", {"players": 2, "bots": {"p2": "random"}})
    # The metadata the service records: the host creates, and the start is
    # decided on the version before it (the audit checks both).
    records = [(event, {"actor": "player-1", "seat": None, "command": {"type": "CreateGame"}, "decided_at": 0})
               for event in table.events]
    version = table.session.version
    start = sessions.start(table.rules, table.session, "player-1", rng_for(table.seed, version))
    records += [(e, {"actor": "player-1", "seat": None, "command": {"type": "StartGame"}, "decided_at": version})
                for e in table.apply(start)]
    bot_decisions = forged = 0
    while bot_decisions < 12:
        seat = sorted(table.to_act)[0]
        version = table.session.version
        if seat == "p2":
            legal = table.rules.legal_commands(table.session.state, seat)
            command = bots.decide_for(table.rules, table.session.state, seat, bots.make("cronberg", "random"),
                                      bots.bot_rng(table.seed, seat, version))
            if bot_decisions == forge_at or (forge_at is not None and forged == 0 and bot_decisions > forge_at):
                others = [c for c in legal if c != command]
                if others:
                    command, forged = others[0], 1
            meta = {"actor": "bot:random", "seat": seat, "bot": "random", "command": command.to_json(),
                    "decided_at": version}
            bot_decisions += 1
        else:
            command = table.rules.legal_commands(table.session.state, seat)[0]
            meta = {"actor": "player-1", "seat": seat, "command": command.to_json(), "decided_at": version}
        events = sessions.play(table.rules, table.session, seat, command, rng_for(table.seed, version), table.seed)
        records += [(e, meta) for e in table.apply(events)]
    version = table.session.version
    resigned = lifecycle.resign(table.rules, table.session, "player-1", table.seed)
    records += [(e, {"actor": "player-1", "seat": "p1", "command": {"type": "ResignSeat"}, "decided_at": version,
                     "lifecycle": True}) for e in table.apply(resigned)]
    return table, [{"type": e.type_name(), "data": {k: v for k, v in e.to_json().items() if k != "type"},
                    "metadata": meta} for e, meta in records], forged


def test_a_game_with_a_bot_audits():
    table, records, _ = _log()
    assert table.session.status == sessions.SCORING
    result = rerun(table.rules, records)
    assert result.ok, result.problems


def test_a_move_recorded_as_a_bot_s_that_its_seeded_rng_would_not_choose_fails_the_audit():
    table, records, forged = _log(forge_at=0)
    assert forged
    result = rerun(table.rules, records)
    assert not result.ok
    assert any("bot" in problem and "another command than the seed gives" in problem for problem in result.problems)
