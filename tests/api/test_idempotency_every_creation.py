"""Every POST that creates something or acts in a way that must not happen
twice honours an Idempotency-Key (issue 35 item 8): the same request twice
with one key stores what one stores and answers the first answer, byte for
byte with its status; another body with the same key is a 422 problem and
changes nothing. One case per operation of the list docs/frontend-authors.md
keeps (``HONOURED``, held to the document by test_idempotency_contract.py).

What a request stores is read from the whole database (every table but the
keys' own), so a case needs no count of its own."""

from __future__ import annotations

import datetime as dt
import secrets
import uuid
from dataclasses import dataclass
from typing import Any, Callable

import pytest

from api.service import signin
from tests.api.conftest import started_game
from tests.api.test_lifecycle_idempotency import assert_same_answer, new_key
from tests.notify.pushservice import Browser

REUSED = "https://boardlog.dev/problems/idempotency-key-reused"
OTHER = {"another": "body"}  # the other request of an operation that takes no body
UNKEPT = {"idempotency_keys", "schema_migrations"}


def stored(service) -> dict[str, str]:
    """A fingerprint of every table but the keys' own: what a request changed."""
    with service.pool.connection() as conn:
        tables = [row[0] for row in conn.execute(
            "select tablename from pg_tables where schemaname = 'public' order by tablename")]
        return {table: conn.execute(f"select count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' order by "
                                    f"t::text), '')) from {table} t").fetchone()[0]
                for table in tables if table not in UNKEPT}


def changed(before: dict, after: dict) -> list[str]:
    return sorted(table for table in after if before.get(table) != after[table])


@dataclass
class Request:
    caller: Any  # a Player, or the test client for an operation that needs no token
    path: str
    body: Any
    other: Any  # another body: the same key with it is refused

    def send(self, body, headers):
        return self.caller.post(self.path, json=body, headers=headers)


def _seated(player, game_id) -> str:
    return player.view(game_id).json["seat"]


def _lobby(players, count=2):
    host, *others = players(count)
    return host, others, host.create("cronberg", {"players": count})


def _proposed(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    assert ada.post(f"/v1/games/{game_id}/end-proposal", json={"ending": "cancelled"}).status_code == 200
    return ada, bob, game_id


def _turn_played(players, options):
    """A cronberg game whose first seat drew and laid: (mover, other, game)."""
    ada, bob = players(2)
    game_id = started_game([ada, bob], "cronberg", options)
    by_seat = {_seated(ada, game_id): ada, _seated(bob, game_id): bob}
    seat = ada.view(game_id).json["to_act"][0]
    mover, other = by_seat[seat], next(p for s, p in by_seat.items() if s != seat)
    return mover, other, game_id


def _after_a_lay(players):
    mover, other, game_id = _turn_played(players, {"players": 2, "takebacks": "with-consent"})
    for _ in range(2):  # the draw, then the lay
        assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200
    return mover, other, game_id


def _takeback_asked(players):
    mover, other, game_id = _after_a_lay(players)
    assert mover.post(f"/v1/games/{game_id}/takeback").status_code == 200
    return mover, other, game_id


def _dead_delivery(service, player_id, target, webhook_id=None) -> int:
    with service.pool.connection() as conn:
        notification = f"n{secrets.randbelow(10**9)}-{player_id}-turn"
        conn.execute("insert into notifications (id, position, player_id, game_id, kind, version, payload, event_at)"
                     " values (%s, 1, %s, %s, 'turn', 3, '{}', now())", (notification, player_id, uuid.uuid4()))
        return conn.execute("insert into deliveries (notification_id, target, webhook_id, player_id, status, attempts)"
                            " values (%s, %s, %s, %s, 'dead', 8) returning id",
                            (notification, target, webhook_id, player_id)).fetchone()[0]


def _absence(days: int) -> dict:
    start = dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=days)
    return {"from": start.isoformat(), "to": (start + dt.timedelta(days=1)).isoformat()}


def _proposeEnd(players, client, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    return Request(ada, f"/v1/games/{game_id}/end-proposal", {"ending": "cancelled"}, {"ending": "as-it-stands"})


def _acceptEnd(players, client, service):
    _, bob, game_id = _proposed(players)
    return Request(bob, f"/v1/games/{game_id}/end-proposal/accept", {}, {"seat": _seated(bob, game_id)})


def _withdrawEnd(players, client, service):
    ada, _, game_id = _proposed(players)
    return Request(ada, f"/v1/games/{game_id}/end-proposal/withdraw", None, OTHER)


def _joinGame(players, client, service):
    host, (bob, _), game_id = _lobby(players, 3)
    free = host.get(f"/v1/games/{game_id}").json["free_seats"]
    return Request(bob, f"/v1/games/{game_id}/join", {"seat": free[0]}, {"seat": free[1]})


def _leaveGame(players, client, service):
    host, (bob,), game_id = _lobby(players)
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    return Request(bob, f"/v1/games/{game_id}/leave", None, OTHER)


def _startGame(players, client, service):
    host, (bob,), game_id = _lobby(players)
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    return Request(host, f"/v1/games/{game_id}/start", None, OTHER)


def _in_a_game(action: str, other=OTHER):
    """A POST without a body by the first of the two players of a started game."""
    def case(players, client, service):
        ada, bob = players(2)
        return Request(ada, f"/v1/games/{started_game([ada, bob])}/{action}", None, other)
    return case


def _resumeGame(players, client, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    for player in (ada, bob):
        assert player.post(f"/v1/games/{game_id}/pause").status_code == 200
    return Request(bob, f"/v1/games/{game_id}/resume", None, OTHER)


def _giveTime(players, client, service):
    mover, other, game_id = _turn_played(players, {"players": 2, "turn_seconds": 86400, "time_bank_seconds": 86400})
    seat = _seated(mover, game_id)
    return Request(other, f"/v1/games/{game_id}/time-gifts", {"seat": seat, "seconds": 3600},
                   {"seat": seat, "seconds": 7200})


def _askTakeback(players, client, service):
    mover, _, game_id = _after_a_lay(players)
    return Request(mover, f"/v1/games/{game_id}/takeback", None, OTHER)


def _acceptTakeback(players, client, service):
    _, other, game_id = _takeback_asked(players)
    return Request(other, f"/v1/games/{game_id}/takeback/accept", None, OTHER)


def _refuseTakeback(players, client, service):
    _, other, game_id = _takeback_asked(players)
    return Request(other, f"/v1/games/{game_id}/takeback/refuse", None, OTHER)


def _registerPlayer(players, client, service):
    tag = uuid.uuid4().hex[:8]
    return Request(client, "/v1/players", {"name": f"newcomer-{tag}"}, {"name": f"other-{tag}"})


def _signInWithMailCode(players, client, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    with service.pool.connection() as conn:
        first, second = (signin.new_code(conn, ada.id, game_id, 72) for _ in range(2))
    return Request(client, "/v1/sign-in", {"code": first}, {"code": second})


def _declareAbsence(players, client, service):
    (ada,) = players(1)
    return Request(ada, "/v1/players/me/absences", _absence(2), _absence(5))


def _createPushSubscription(players, client, service):
    (ada,) = players(1)
    browser = Browser(f"https://push.example/send/{uuid.uuid4().hex}")
    return Request(ada, "/v1/players/me/push-subscriptions", browser.subscription(label="phone"),
                   browser.subscription(label="tablet"))


def _createToken(players, client, service):
    (ada,) = players(1)
    return Request(ada, "/v1/players/me/tokens", {"label": "phone"}, {"label": "tablet"})


def _createWebhook(players, client, service):
    (ada,) = players(1)
    return Request(ada, "/v1/players/me/webhooks", {"url": "https://chat.example/hooks/a"},
                   {"url": "https://chat.example/hooks/b"})


def _redeliverWebhookDelivery(players, client, service):
    (ada,) = players(1)
    hook = ada.post("/v1/players/me/webhooks", json={"url": "https://chat.example/hooks/a"}).json["id"]
    delivery = _dead_delivery(service, ada.id, f"webhook:{hook}", hook)
    return Request(ada, f"/v1/players/me/webhooks/{hook}/deliveries/{delivery}/redeliver", None, OTHER)


def _redeliverMail(players, client, service):
    (ada,) = players(1)
    delivery = _dead_delivery(service, ada.id, "email")
    return Request(ada, f"/v1/players/me/notifications/mail/{delivery}/redeliver", None, OTHER)


def _createStreamTicket(players, client, service):
    (ada,) = players(1)
    return Request(ada, "/v1/stream-tickets", None, OTHER)


def _createGame(players, client, service):
    (ada,) = players(1)
    return Request(ada, "/v1/games", {"game": "cronberg", "options": {"players": 2}},
                   {"game": "cronberg", "options": {"players": 3}})


def _sendCommand(players, client, service):
    mover, _, game_id = _turn_played(players, {"players": 2})
    assert mover.act(game_id, mover.legal(game_id)[0]).status_code == 200  # the draw: then lays to choose from
    first, second = mover.legal(game_id)[:2]
    return Request(mover, f"/v1/games/{game_id}/commands", first, second)


def _sendMessage(players, client, service):
    ada, bob = players(2)
    return Request(ada, f"/v1/games/{started_game([ada, bob])}/channels/table/messages", {"text": "good luck"},
                   {"text": "have fun"})


def _createInvite(players, client, service):
    host, _, game_id = _lobby(players, 3)
    free = host.get(f"/v1/games/{game_id}").json["free_seats"]
    return Request(host, f"/v1/games/{game_id}/invites", {"seat": free[0]}, {"seat": free[1]})


def _redeemInvite(players, client, service):
    host, (bob, _), game_id = _lobby(players, 3)
    free = host.get(f"/v1/games/{game_id}").json["free_seats"]
    first, second = (host.post(f"/v1/games/{game_id}/invites", json={"seat": seat}).json["code"] for seat in free)
    return Request(bob, f"/v1/games/{game_id}/invites/redeem", {"code": first}, {"code": second})


def _createRematch(players, client, service):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200
    return Request(ada, f"/v1/games/{game_id}/rematch", None, None)


# operationId -> what makes its request. Resign, abort and rematch take no
# body and their keys were always per (player, game): another request with
# their key is another endpoint (tests/api/test_lifecycle_idempotency.py).
CASES: dict[str, Callable[..., Request]] = {
    "proposeEnd": _proposeEnd,
    "acceptEnd": _acceptEnd,
    "withdrawEnd": _withdrawEnd,
    "joinGame": _joinGame,
    "leaveGame": _leaveGame,
    "startGame": _startGame,
    "askPause": _in_a_game("pause"),
    "resumeGame": _resumeGame,
    "giveTime": _giveTime,
    "askTakeback": _askTakeback,
    "acceptTakeback": _acceptTakeback,
    "refuseTakeback": _refuseTakeback,
    "registerPlayer": _registerPlayer,
    "signInWithMailCode": _signInWithMailCode,
    "declareAbsence": _declareAbsence,
    "createPushSubscription": _createPushSubscription,
    "createToken": _createToken,
    "createWebhook": _createWebhook,
    "redeliverWebhookDelivery": _redeliverWebhookDelivery,
    "redeliverMail": _redeliverMail,
    "createStreamTicket": _createStreamTicket,
    "createGame": _createGame,
    "sendCommand": _sendCommand,
    "sendMessage": _sendMessage,
    "createInvite": _createInvite,
    "redeemInvite": _redeemInvite,
    "resignSeat": _in_a_game("resign", None),
    "abortGame": _in_a_game("abort", None),
    "createRematch": _createRematch,
}


@pytest.mark.parametrize("operation", sorted(CASES))
def test_the_same_request_twice_with_one_key_stores_once_and_answers_the_first_answer(
        operation, players, client, service):
    request = CASES[operation](players, client, service)
    key = new_key()
    before = stored(service)
    first = request.send(request.body, key)
    assert 200 <= first.status_code < 300, first.json
    after_first = stored(service)
    assert changed(before, after_first), "the request stored something"
    again = request.send(request.body, key)
    assert_same_answer(first, again)
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.headers.get("Location") == first.headers.get("Location")
    assert changed(after_first, stored(service)) == [], "the repeat stored nothing"


@pytest.mark.parametrize("operation", sorted(name for name in CASES if name not in (
    "resignSeat", "abortGame", "createRematch")))
def test_the_same_key_with_another_body_is_a_422_and_changes_nothing(operation, players, client, service):
    request = CASES[operation](players, client, service)
    key = new_key()
    assert 200 <= request.send(request.body, key).status_code < 300
    before = stored(service)
    other = request.send(request.other, key)
    assert other.status_code == 422, other.json
    assert other.mimetype == "application/problem+json" and other.json["type"] == REUSED
    assert other.json["detail"].endswith("use a new key for each new request") or "new key" in other.json["detail"]
    assert changed(before, stored(service)) == []
