"""Web Push: the server's VAPID key (RFC 8292) and the players' push
subscriptions (the Push API's PushSubscription, one per player and device).

The key is the operator's (BOARDLOG_VAPID_PRIVATE_KEY) or made on first use
and kept in PostgreSQL, as the signing key is (api/service/receipts.py): a
push service accepts pushes to a subscription only under the public key the
browser subscribed with, so it must outlive restarts and be the same in
every process.

A subscription's endpoint is a URL of the browser's push service; it passes
the webhooks' guard (api/service/webhook_targets.py) when it is added and,
resolved, before every push (workers/notify/push.py).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import secrets
import threading
import uuid

from cryptography.hazmat.primitives.asymmetric import ec
from psycopg.rows import dict_row

from . import webhook_targets as targets
from .errors import Conflict, InvalidRequest, NotFound
from .settings import SettingError

KEY_ENV = "BOARDLOG_VAPID_PRIVATE_KEY"
SUBJECT_ENV = "BOARDLOG_VAPID_SUBJECT"
MAX_SUBSCRIPTIONS = 20
MAX_LABEL = 80
# Problem kinds: push-subscription-not-found (404), too-many-push-subscriptions (409).


def b64url_decode(text: str) -> bytes:
    """Base64url, padded or not (browsers give it unpadded)."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# The VAPID key

def _public_bytes(private: ec.EllipticCurvePrivateKey) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return private.public_key().public_bytes(serialization.Encoding.X962,
                                             serialization.PublicFormat.UncompressedPoint)


def _from_raw(raw: bytes) -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())


def operator_key(text: str) -> ec.EllipticCurvePrivateKey:
    """The operator's key: the raw 32-byte P-256 private key in base64url (as
    ``web-push generate-vapid-keys`` and ``vapid --gen`` print it), or the
    path of a PEM file."""
    text = text.strip()
    if text.startswith(("/", "./")) or text.endswith(".pem"):
        from cryptography.hazmat.primitives import serialization

        try:
            with open(text, "rb") as handle:
                key = serialization.load_pem_private_key(handle.read(), password=None)
        except (OSError, ValueError, TypeError) as error:
            raise SettingError(f"{KEY_ENV}={text}: cannot read an unencrypted PEM private key ({error})") from None
        if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
            raise SettingError(f"{KEY_ENV}={text}: a VAPID key is a P-256 (prime256v1) key")
        return key
    try:
        raw = b64url_decode(text)
        if len(raw) != 32:
            raise ValueError
        return _from_raw(raw)
    except (ValueError, binascii.Error):
        raise SettingError(f"{KEY_ENV} must be a P-256 private key: 32 bytes in base64url (43 characters) "
                           "or the path of a PEM file") from None


class Vapid:
    """The server's VAPID key, read once per process (it never changes)."""

    def __init__(self, pool):
        self.pool = pool
        self._lock = threading.Lock()
        self._key: ec.EllipticCurvePrivateKey | None = None

    def private_key(self) -> ec.EllipticCurvePrivateKey:
        with self._lock:
            if self._key is None:
                given = os.environ.get(KEY_ENV, "").strip()
                self._key = operator_key(given) if given else self._stored()
            return self._key

    def public_key(self) -> str:
        """The application server key a page subscribes with: the uncompressed point, base64url."""
        return b64url(_public_bytes(self.private_key()))

    def _stored(self) -> ec.EllipticCurvePrivateKey:
        with self.pool.connection() as conn:
            row = conn.execute("select private_key from vapid_keys").fetchone()
            if row is None:
                # Two processes starting at once: the first insert wins, both read it.
                made = ec.generate_private_key(ec.SECP256R1())
                raw = made.private_numbers().private_value.to_bytes(32, "big")
                conn.execute("insert into vapid_keys (private_key, public_key) values (%s, %s)"
                             " on conflict do nothing", (raw, _public_bytes(made)))
                row = conn.execute("select private_key from vapid_keys").fetchone()
        return _from_raw(bytes(row[0]))


def subject(public_url: str, mail_from: str) -> str:
    """Whom a push service may contact about our pushes (the JWT's ``sub``)."""
    given = os.environ.get(SUBJECT_ENV, "").strip()
    if given:
        if not given.startswith(("mailto:", "https://")):
            raise SettingError(f"{SUBJECT_ENV} must be a mailto: or https:// URL, not {given[:40]!r}")
        return given
    if public_url.startswith("https://"):
        return public_url
    address = mail_from.rpartition("<")[2].rstrip(">").strip()
    return f"mailto:{address}"


# Subscriptions

def _refuse(field: str, sentence: str) -> InvalidRequest:
    return InvalidRequest(sentence, errors={field: [sentence]})


def check_subscription(endpoint: str, p256dh: str, auth: str, allow_private) -> tuple[bytes, bytes]:
    """The keys, decoded, or a refusal that says what is wrong."""
    problem = targets.check_url_form(endpoint)
    if problem:
        raise _refuse("endpoint", problem.replace("a webhook URL", "a push endpoint"))
    if not endpoint.startswith("https://") and not allow_private:
        raise _refuse("endpoint", "a push endpoint must start with https:// (push services speak only HTTPS)")
    problem = targets.literal_refused(endpoint, allow_private)
    if problem:
        raise _refuse("endpoint", problem.replace("webhook targets", "push endpoints"))
    try:
        key = b64url_decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
        if len(key) != 65:
            raise ValueError
    except (ValueError, binascii.Error):
        raise _refuse("keys.p256dh", "keys.p256dh must be the browser's P-256 public key: 65 bytes (an "
                      "uncompressed point on the curve) in base64url, as PushSubscription.getKey('p256dh') "
                      "gives it") from None
    try:
        secret = b64url_decode(auth)
        if len(secret) != 16:
            raise ValueError
    except (ValueError, binascii.Error):
        raise _refuse("keys.auth", "keys.auth must be the browser's 16-byte authentication secret in base64url, "
                      "as PushSubscription.getKey('auth') gives it") from None
    return key, secret


_COLUMNS = "id, endpoint, label, messages, created_at"


def _renewal_hash(key: str) -> bytes:
    return hashlib.sha256(key.encode()).digest()


def subscribe(conn, player, endpoint: str, p256dh: bytes, auth: bytes, label: str, messages: bool) -> dict:
    """Add a device (or renew one: the same endpoint again takes the new keys
    and label), with a new ``renewal_key``: what its browser's service worker
    gives ``renew`` when the browser replaces the subscription on its own."""
    with conn.transaction():
        conn.execute("select id from players where id = %s for update", (player,))
        known = conn.execute("select 1 from push_subscriptions where player_id = %s and endpoint = %s",
                             (player, endpoint)).fetchone()
        count = conn.execute("select count(*) from push_subscriptions where player_id = %s",
                             (player,)).fetchone()[0]
        if known is None and count >= MAX_SUBSCRIPTIONS:
            raise Conflict(f"a player may have at most {MAX_SUBSCRIPTIONS} devices with notifications; "
                           "remove one first", kind="too-many-push-subscriptions")
        renewal_key = secrets.token_urlsafe(32)
        added = conn.cursor(row_factory=dict_row).execute(
            "insert into push_subscriptions (id, player_id, endpoint, p256dh, auth, label, messages, renewal_hash)"
            " values (%s, %s, %s, %s, %s, %s, %s, %s) on conflict (player_id, endpoint) do update set"
            " p256dh = excluded.p256dh, auth = excluded.auth, label = excluded.label, messages = excluded.messages,"
            f" renewal_hash = excluded.renewal_hash returning {_COLUMNS}",
            (uuid.uuid4(), player, endpoint, p256dh, auth, label, messages, _renewal_hash(renewal_key))).fetchone()
        return {**added, "renewal_key": renewal_key}


def renew(conn, renewal_key: str, endpoint: str, p256dh: bytes, auth: bytes) -> dict:
    """The device whose renewal key this is now receives its pushes at
    ``endpoint``, encrypted for the new keys (the browser replaced its
    subscription); the key stays the same, so a second renewal works too.
    Another device of the same player already at that endpoint is replaced
    by this one."""
    with conn.transaction():
        found = conn.execute("select id, player_id from push_subscriptions where renewal_hash = %s for update",
                             (_renewal_hash(renewal_key),)).fetchone()
        if found is None:
            raise NotFound("no device holds this renewal key: it was removed, or notifications were turned on "
                           "again since (which gave it a new key); turn them on again on the settings page",
                           kind="push-renewal-key-unknown")
        subscription_id, player = found
        conn.execute("delete from push_subscriptions where player_id = %s and endpoint = %s and id <> %s",
                     (player, endpoint, subscription_id))
        return conn.cursor(row_factory=dict_row).execute(
            "update push_subscriptions set endpoint = %s, p256dh = %s, auth = %s where id = %s"
            f" returning {_COLUMNS}", (endpoint, p256dh, auth, subscription_id)).fetchone()


def subscriptions(conn, player) -> list[dict]:
    return conn.cursor(row_factory=dict_row).execute(
        f"select {_COLUMNS} from push_subscriptions where player_id = %s order by created_at, id",
        (player,)).fetchall()


def unsubscribe(conn, player, subscription_id) -> None:
    removed = conn.execute("delete from push_subscriptions where id = %s and player_id = %s",
                           (subscription_id, player)).rowcount
    if not removed:
        raise NotFound(f"you have no push subscription {subscription_id}", kind="push-subscription-not-found")


_vapids: dict[int, Vapid] = {}


def vapid_for(pool) -> Vapid:
    """The process's Vapid for this database (each test's database its own)."""
    found = _vapids.get(id(pool))
    if found is None or found.pool is not pool:
        found = _vapids[id(pool)] = Vapid(pool)
    return found


def check_settings(public_url: str, mail_from: str) -> None:
    """Stop a starting notifier on a VAPID setting it could not push with (SettingError says which)."""
    given = os.environ.get(KEY_ENV, "").strip()
    if given:
        operator_key(given)
    subject(public_url, mail_from)
