"""Standard Webhooks (https://www.standardwebhooks.com) secrets and signatures.

The secret is ``whsec_`` and the base64 of 24 random bytes, made when a
player registers an endpoint; the signature is ``v1,`` and the base64 of
HMAC-SHA256(secret bytes, ``<webhook-id>.<webhook-timestamp>.<body>``), made
by the notifier for each delivery.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{message_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def headers(secret: str, message_id: str, body: bytes, timestamp: int | None = None) -> dict:
    timestamp = int(time.time()) if timestamp is None else timestamp
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(secret, message_id, timestamp, body),
        "content-type": "application/json",
        "user-agent": "boardlog-webhooks/1",
    }
