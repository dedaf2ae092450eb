"""Takebacks with consent, in every game: a move that drew nothing and hid
nothing can be taken back, and the game is then exactly as a replay to the
version before it; a move that drew randomness or that some viewer sees
otherwise than it is, is refused. Through the real service on PostgreSQL."""

from __future__ import annotations

import pytest

from api.service.takebacks import NothingToTakeBack, recent_batches
from domain import audit, playout
from domain import games as registry
from domain.engine import rng_for
from domain.lifecycle import takeback as takeback_rules
from tests.games.conformance.playouts import options_for

# Every hosted game, at two seats (the option that makes them, as the conformance suite finds it).
GAMES = [(name, options_for(registry.REGISTRY[name], 2)) for name in sorted(registry.REGISTRY)]


def _started(service, players, game, options):
    host, guest = players
    game_id = service.create(host, game, options, None)
    service.join(game_id, guest, None)
    service.start(game_id, host)
    return game_id


def _records(table, game_id):
    return [{"type": r.type, "schema_version": r.schema_version, "data": r.data, "metadata": r.metadata}
            for r in table.events(game_id)]


@pytest.mark.parametrize("game, options", GAMES, ids=[g for g, _ in GAMES])
def test_a_takeback_returns_exactly_to_the_earlier_state_and_one_across_a_draw_or_a_secret_is_refused(
        service, table, game, options):
    game_id = _started(service, table.players, game, options)
    taken = refused = 0
    for step in range(60):
        rules, session = service.load(game_id)
        if session.status != "active":
            break
        seat = sorted(rules.to_act(session.state))[0]
        player = session.players[seat]
        command = playout.random_command(rules, session.state, seat, rng_for(b"takeback", session.version))
        service.act(game_id, player, command.to_json())
        rules, after = service.load(game_id)
        if after.status != "active":
            break
        batch = takeback_rules.last_decision(recent_batches(rules, table.store.read_stream(f"game-{game_id}")), seat)
        why = takeback_rules.blocker(rules, after, batch)
        drew = bool(batch.meta.get("draws"))
        hidden = any(rules.visible(e, viewer) != e.to_json() for e in batch.events
                     if type(e).__name__ not in {"GameOver"} for viewer in (*after.seats, None))
        before = after.state_at(batch.meta["decided_at"])
        revealed = any(takeback_rules.hidden_from(rules, after.state, viewer) < takeback_rules.hidden_from(
            rules, before, viewer) for viewer in (*after.seats, None))
        assert (why is not None) == (drew or hidden or revealed)
        if why is not None:
            with pytest.raises(NothingToTakeBack, match="drew randomness|hidden information"):
                service.takebacks.ask_takeback(game_id, player)
            refused += 1
            continue
        if taken >= 2:
            continue
        version = batch.meta["decided_at"]
        asked = service.takebacks.ask_takeback(game_id, player)
        assert asked.life.takeback.version == version
        other = next(p for s, p in after.players.items() if s != seat)
        back = service.takebacks.accept_takeback(game_id, other)
        _, replayed = service.load_at(game_id, version)
        assert back.state == replayed.state, "the state after the takeback is the replayed state at that version"
        assert sorted(rules.to_act(back.state)) == sorted(rules.to_act(replayed.state))
        taken += 1
    assert refused or taken, "the game was played long enough to try"
    rerun = audit.rerun(service.load(game_id)[0], _records(table, game_id), secret_seed=service.seed(game_id))
    assert rerun.ok, "; ".join(rerun.problems)


def test_a_refusal_or_a_move_ends_the_request_and_nothing_to_take_back_says_why(service, table):
    game_id = _started(service, table.players, "coronation", {"detective_seats": 1})
    host, guest = table.players
    with pytest.raises(NothingToTakeBack, match="no decision|not a move of yours|acted since"):
        service.takebacks.ask_takeback(game_id, host)
    with pytest.raises(NothingToTakeBack, match="no takeback is asked"):
        service.takebacks.accept_takeback(game_id, guest)


def test_a_game_created_with_takebacks_off_takes_none(service, table):
    game_id = _started(service, table.players, "cronberg", {"players": 2, "takebacks": "off"})
    assert service.load(game_id)[1].options["takebacks"] == "off"
    with pytest.raises(NothingToTakeBack, match="takes no takebacks"):
        service.takebacks.ask_takeback(game_id, table.players[0])
