"""The subscription: from the global feed to notifications, at least once,
with stable ids, a checkpoint in PostgreSQL and a lease."""

from __future__ import annotations

import time

import psycopg

from workers.notify import payloads
from workers.notify import subscription as subscription_module
from workers.notify.subscription import Subscription, lag

from .conftest import started_game


def run(subscription: Subscription, close: bool = True) -> int:
    """Until the checkpoint reaches the head (the feed shows an event only once
    every transaction on the server that began before it ended, so a step
    may find nothing for a moment)."""
    assert subscription.acquire()
    total = 0
    deadline = time.monotonic() + 30
    while lag(subscription.conn)["lag_events"] and time.monotonic() < deadline:
        done = subscription.step()
        total += done
        if not done:
            time.sleep(0.05)
    if close:
        subscription.close()
    return total


def rows(url, sql=None):
    """The notifications (id, player, kind, version, the payload as its readers are given it), or ``sql``'s rows."""
    with psycopg.connect(url) as conn:
        if sql is not None:
            return conn.execute(sql).fetchall()
        stored = conn.execute("select n.id, n.player_id::text, n.kind, n.version, n.payload, n.game_id, n.event_at,"
                              " g.game from notifications n left join games g on g.id = n.game_id"
                              " order by n.id").fetchall()
    return [(id_, player, kind, version, payloads.readable(payload, id_, kind, game_id, version, at, game))
            for id_, player, kind, version, payload, game_id, at, game in stored]


def play(game_service, game_id, moves):
    import random

    from domain import playout
    from domain.engine import rng_for

    for n in range(moves):
        rules, session = game_service.load(game_id)
        seat = sorted(rules.to_act(session.state))[0]
        command = playout.random_command(rules, session.state, seat, rng_for(b"t", session.version))
        game_service.act(game_id, session.players[seat], command.to_json())


def test_a_started_game_tells_everyone_it_started_and_whoever_is_to_act_that_it_is_their_turn(fresh_url, game_service):
    players = [game_service.players.register(f"n{i}")[0] for i in range(3)]
    game_id = started_game(game_service, players)
    subscription = Subscription(fresh_url)
    run(subscription)
    found = rows(fresh_url)
    kinds = sorted((player, kind) for _, player, kind, _, _ in found)
    _, session = game_service.load(game_id)
    first = sorted(game_service.rules_of("cronberg").to_act(session.state))
    assert [k for p, k in kinds if k == "started"] == ["started"] * 3
    assert sorted(p for p, k in kinds if k == "turn") == sorted(session.players[s] for s in first)
    joined = [(p, payload) for _, p, k, _, payload in found if k == "joined"]
    assert {payload["data"]["player"] for _, payload in joined} == set(players[1:])
    assert all(p != payload["data"]["player"] for p, payload in joined), "nobody is told of their own joining"
    started = next(payload for _, _, k, _, payload in found if k == "started")
    assert started["game_id"] == str(game_id) and started["game"] == "cronberg"
    assert lag(psycopg.connect(fresh_url))["lag_events"] == 0


def test_running_the_feed_again_from_the_start_finds_the_same_ids_and_adds_nothing(fresh_url, game_service):
    players = [game_service.players.register(f"n{i}")[0] for i in range(2)]
    game_id = started_game(game_service, players)
    play(game_service, game_id, 6)
    run(Subscription(fresh_url))
    before = rows(fresh_url)
    with psycopg.connect(fresh_url) as conn:
        conn.execute("update subscriptions set position = 0")
    run(Subscription(fresh_url))
    assert rows(fresh_url) == before
    assert len({r[0] for r in before}) == len(before) > 4


def test_small_batches_that_cut_decisions_in_two_give_the_same_notifications_as_one_big_batch(fresh_url, game_service):
    players = [game_service.players.register(f"n{i}")[0] for i in range(3)]
    game_id = started_game(game_service, players, game="the-coil")
    run(Subscription(fresh_url, batch_size=1000))
    whole = rows(fresh_url)
    with psycopg.connect(fresh_url) as conn:
        conn.execute("delete from deliveries")
        conn.execute("delete from notifications")
        conn.execute("update subscriptions set position = 0")
    run(Subscription(fresh_url, batch_size=3))
    assert rows(fresh_url) == whole
    assert any(r[2] == "turn" for r in whole)


def test_only_one_notifier_holds_the_lease_and_the_next_one_resumes_from_its_checkpoint(fresh_url, game_service):
    players = [game_service.players.register(f"n{i}")[0] for i in range(2)]
    first, second = Subscription(fresh_url), Subscription(fresh_url)
    assert first.acquire()
    assert not second.acquire(), "the lease is held"
    started_game(game_service, players)
    run(first, close=False)
    seen = rows(fresh_url)
    assert not second.acquire()
    first.close()  # its connection ends: PostgreSQL releases the lock
    game_id = started_game(game_service, list(reversed(players)))
    assert second.acquire()
    run(second)
    after = rows(fresh_url)
    assert all(row in after for row in seen), "what the first one wrote stays, once"
    assert len({r[0] for r in after}) == len(after)
    assert any(r[4]["game_id"] == str(game_id) for r in after), "the second one went on from the checkpoint"


def test_readyz_shows_how_far_the_notifier_is_behind_the_feed(fresh_url, game_service, api):
    players = [game_service.players.register(f"n{i}")[0] for i in range(2)]
    started_game(game_service, players)
    behind = api.get("/readyz").json["notifications"]
    head = rows(fresh_url, "select count(*) from events")[0][0]
    assert behind["checkpoint"] == 0 and behind["lag_events"] == head > 0 and behind["lag_seconds"] >= 0
    run(Subscription(fresh_url))
    caught_up = api.get("/readyz").json["notifications"]
    assert caught_up["lag_events"] == 0 and caught_up["lag_seconds"] == 0 and caught_up["checkpoint"] > 0


def test_a_message_becomes_a_notification_of_kind_message_for_its_readers_but_its_sender(fresh_url, game_service):
    from api.service.talk import Talk

    players = [game_service.players.register(f"m{i}")[0] for i in range(3)]
    game_id = started_game(game_service, players)
    _, session = game_service.load(game_id)
    p1, p2 = session.players["p1"], session.players["p2"]
    Talk(game_service).send(game_id, p1, "private:p1+p2", "a deal?")
    run(Subscription(fresh_url))
    told = [(player, payload) for _, player, kind, _, payload in rows(fresh_url) if kind == "message"]
    assert [(player, payload["data"]["text"], payload["game"]) for player, payload in told] == \
        [(p2, "a deal?", "cronberg")], "only the other seat of the private channel, with the game's name"


def test_a_missed_turn_of_two_steps_is_told_once_as_timed_out(fresh_url, game_service):
    """Cronberg's turn is a draw and a lay: one passing deadline plays both
    (two TurnTimedOut, the second marked timeout_step 2), and the players are
    told of one missed turn, through the notifier's lean feed too."""
    players = [game_service.players.register(f"t{i}")[0] for i in range(2)]
    game_id = started_game(game_service, players)
    _, session = game_service.load(game_id)
    assert game_service.fire_deadline(game_id, session.version)
    timeouts = [r for r in game_service.store.read_stream(f"game-{game_id}") if r.type == "TurnTimedOut"]
    assert [r.metadata.get("timeout_step", 1) for r in timeouts] == [1, 2], "a two-step turn, played out at once"
    run(Subscription(fresh_url))
    told = [player for _, player, kind, _, _ in rows(fresh_url) if kind == "timed-out"]
    assert sorted(told) == sorted(players), "each player told once of the one missed turn"


def test_readyz_tells_a_dead_notifier_on_a_quiet_feed_from_an_idle_one(fresh_url, game_service, api, monkeypatch):
    """Given a notifier caught up on a quiet feed, its heartbeat keeps it
    "alive" with no event to process; when it has been silent longer than
    SILENT_AFTER_SECONDS (its last sign of life set back, as if it died that
    long ago), /readyz says so, though no event arrived to show a lag."""
    from api.service.notifications import SILENT_AFTER_SECONDS

    # A beat on every quiet step: catching up may already have beaten once (a step that found the
    # feed's last events not yet visible), and the next beat would then wait HEARTBEAT_SECONDS.
    monkeypatch.setattr(subscription_module, "HEARTBEAT_SECONDS", 0.0)
    players = [game_service.players.register(f"h{i}")[0] for i in range(2)]
    started_game(game_service, players)
    notifier = Subscription(fresh_url)
    run(notifier, close=False)
    with psycopg.connect(fresh_url, autocommit=True) as conn:
        conn.execute("update subscriptions set updated_at = now() - make_interval(secs => %s)",
                     (SILENT_AFTER_SECONDS + 30,))
    assert notifier.step() == 0, "a quiet feed"
    idle = api.get("/readyz").json["notifications"]
    assert idle["lag_events"] == 0 and idle["notifier"] == "alive" and idle["heartbeat_seconds"] < 5
    notifier.close()  # it dies
    with psycopg.connect(fresh_url, autocommit=True) as conn:
        conn.execute("update subscriptions set updated_at = now() - make_interval(secs => %s)",
                     (SILENT_AFTER_SECONDS + 30,))
    dead = api.get("/readyz").json["notifications"]
    assert dead["lag_events"] == 0 and dead["notifier"] == "silent"
    assert dead["heartbeat_seconds"] > SILENT_AFTER_SECONDS
