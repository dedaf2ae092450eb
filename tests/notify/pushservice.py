"""A push service of the tests' own, on loopback: the receiving side of
RFC 8030, which checks each push as a real one must. The VAPID JWT (RFC 8292)
is verified with ES256 against the key it names, and the body decrypted
(aes128gcm, RFC 8188 with RFC 8291's keys) with the private key of a
subscription made here as a browser makes one. Written from the RFCs: the
server's side (pywebpush) is checked, not reused."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _point(key) -> bytes:
    return key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


class Browser:
    """A subscription's keys, as a browser makes them: a P-256 pair and a 16-byte secret."""

    def __init__(self, endpoint: str):
        self.endpoint = endpoint
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.public = _point(self.private.public_key())
        self.auth = os.urandom(16)

    def subscription(self, **more) -> dict:
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(self.public), "auth": b64url(self.auth)}, **more}

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 section 3.4 and RFC 8188 section 2, one record."""
        salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        sender = body[21:21 + id_length]
        ciphertext = body[21 + id_length:]
        assert id_length == 65 and len(ciphertext) <= record_size, "one record, keyed by the sender's public key"
        shared = self.private.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender))
        prk_key = _hmac(self.auth, shared)
        ikm = _hmac(prk_key, b"WebPush: info\x00" + self.public + sender + b"\x01")
        prk = _hmac(salt, ikm)
        cek = _hmac(prk, b"Content-Encoding: aes128gcm\x00\x01")[:16]
        nonce = _hmac(prk, b"Content-Encoding: nonce\x00\x01")[:12]
        padded = AESGCM(cek).decrypt(nonce, ciphertext, None)
        text = padded.rstrip(b"\x00")
        assert text.endswith(b"\x02"), "the last record ends with the delimiter 2"
        return text[:-1]


def _hmac(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


def verify_vapid(authorization: str, audience: str) -> tuple[str, dict]:
    """The VAPID key (base64url) and the JWT's claims; AssertionError unless
    the ES256 signature holds under that key and the claims are RFC 8292's."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid", authorization
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    token, key = fields["t"], fields["k"]
    header, claims, signature = token.split(".")
    assert json.loads(unb64url(header))["alg"] == "ES256"
    raw = unb64url(signature)
    assert len(raw) == 64, "ES256: r and s, 32 bytes each"
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(unb64url(claims))
    assert claims["aud"] == audience and claims["exp"] > time.time()
    assert claims["exp"] <= time.time() + 24 * 3600, "RFC 8292: at most 24 hours ahead"
    assert claims["sub"].startswith(("mailto:", "https://"))
    return key, claims


class PushService:
    """Records each push (path, headers, body) and answers as told:
    ``answers`` is a list of statuses used in turn, the last one repeating."""

    def __init__(self, port: int = 0):
        self.received: list[dict] = []
        self.answers: list[int] = [201]
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with service.lock:
                    service.received.append({"path": self.path, "body": body,
                                             "headers": {k.lower(): v for k, v in self.headers.items()}})
                    answer = service.answers[0] if len(service.answers) == 1 else service.answers.pop(0)
                self.send_response(answer)
                self.send_header("content-length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_port
        self.origin = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def pushes(self, path: str) -> list[dict]:
        with self.lock:
            return [r for r in self.received if r["path"] == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
