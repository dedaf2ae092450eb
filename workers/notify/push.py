"""Web Push deliveries: one notification, encrypted for one device
(aes128gcm, RFC 8291) and signed for its push service (VAPID, RFC 8292),
POSTed as RFC 8030 says.

pywebpush encrypts and py-vapid signs; the POST itself is the webhooks'
(workers/notify/webhook.py), so a push endpoint passes the same guard, at
the address the guard resolved, with the same timeouts and bounds.

What is pushed goes to a third party (the browser maker's push service):
a title, a sentence and the table's link, nothing of the game's state.
"""

from __future__ import annotations

import json
import time
from urllib.parse import urlsplit

from py_vapid import Vapid02
from pywebpush import WebPusher

from api.service import push as subscriptions
from domain.games import title_of
from domain.notices import CANCELLED, END_PROPOSED, ENDED, MESSAGE, REMINDER, TURN

from . import webhook

# The kinds pushed: "your turn", "time running out", "game over" (a game cancelled by
# agreement among them), a proposal to end the game, and table talk for who opted in.
KINDS = (TURN, REMINDER, ENDED, CANCELLED, END_PROPOSED, MESSAGE)
TTL_SECONDS = 24 * 3600  # a push service keeps a notice for an offline device this long
GONE = (404, 410)  # RFC 8030 7.3: the subscription no longer exists


def message(payload: dict) -> dict:
    """What the device shows: a title, a sentence, the table's link."""
    kind, game = payload["kind"], title_of(payload.get("game"))
    if kind == TURN:
        title, body = f"Your turn in {game}", f"It is your turn in {game}."
    elif kind == REMINDER:
        title, body = f"Time is running out in {game}", payload["data"]["text"]
    elif kind in (ENDED, CANCELLED):
        title, body = f"Game over in {game}", f"Your game of {game} has ended: open it to see the result."
    elif kind == END_PROPOSED:
        title, body = f"A proposal to end {game}", payload["data"]["text"]
    else:
        title, body = f"New message in {game}", f"Someone wrote at your {game} table."
    return {"title": title, "body": body, "url": f"/#/games/{payload['game_id']}",
            "tag": f"{payload['game_id']}:{kind}"}


def request(subscription: dict, payload: dict, vapid_key, vapid_subject: str) -> tuple[bytes, dict]:
    """The encrypted body and the headers of one push."""
    keys = {"p256dh": subscriptions.b64url(bytes(subscription["p256dh"])),
            "auth": subscriptions.b64url(bytes(subscription["auth"]))}
    data = json.dumps(message(payload), separators=(",", ":")).encode()
    body = WebPusher({"endpoint": subscription["endpoint"], "keys": keys}).encode(data, "aes128gcm")["body"]
    parts = urlsplit(subscription["endpoint"])
    claims = {"aud": f"{parts.scheme}://{parts.netloc}", "exp": int(time.time()) + 12 * 3600, "sub": vapid_subject}
    headers = Vapid02(private_key=vapid_key).sign(claims)
    headers.update({"Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream",
                    "TTL": str(TTL_SECONDS), "Urgency": "high" if payload["kind"] != MESSAGE else "normal"})
    return body, headers


def send(conn, delivery: dict, vapid, config) -> webhook.Outcome | None:
    """Push one delivery; None when its subscription is gone (removed by its player)."""
    row = conn.execute("select endpoint, p256dh, auth from push_subscriptions where id = %s",
                       (delivery["target"].partition(":")[2],)).fetchone()
    if row is None:
        return None
    subscription = {"endpoint": row[0], "p256dh": row[1], "auth": row[2]}
    body, headers = request(subscription, delivery["payload"], vapid.private_key(),
                            subscriptions.subject(config.public_url, config.mail_from))
    return webhook.post(row[0], body, headers, timeout=config.webhook_timeout,
                        max_response=config.webhook_max_response, allow_private=config.allow_private_targets)


def forget(conn, delivery: dict) -> None:
    """The push service said the subscription is gone: so is ours."""
    conn.execute("delete from push_subscriptions where id = %s", (delivery["target"].partition(":")[2],))
