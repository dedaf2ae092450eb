"""Signed chain heads: the server's Ed25519 keys and the receipts they sign
(openapi/verifying-a-game.md, section 6).

A receipt is the chain head after a version, signed: a player who keeps the
receipts of the answers they were given holds something the operator cannot
rewrite behind their back, since a recomputed chain has other heads and only
the server's private key signs them. Ed25519 signatures are deterministic, so
none is stored: each is made on demand, and a bounded cache keeps the ones
made recently (a thousand spectators of one move ask for the same one).

Keys live in PostgreSQL (``signing_keys``): the server makes one on first
start, or the operator gives one (``BOARDLOG_SIGNING_KEY``, a PEM file).
``rotate`` (``boardlog keys rotate``) retires the current key and makes
another; retired keys are still served by GET /v1/keys, so what they signed
still verifies. Another process's rotation is picked up within
``refresh_seconds``; until then it signs with the key it had, which stays
valid.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from eventstore.chain import canonical_json

ALGORITHM = "Ed25519"
MESSAGE_PREFIX = "boardlog-head\n"
KEY_ENV = "BOARDLOG_SIGNING_KEY"


class SigningKeyError(Exception):
    """The operator's key cannot be used, or a rotation is not the server's to make."""


def key_id_of(public_key: bytes) -> str:
    """The first 16 hex digits of the SHA-256 of the raw 32-byte public key."""
    return hashlib.sha256(public_key).hexdigest()[:16]


def head_message(stream_id: str, version: int, hash_hex: str) -> bytes:
    """The bytes a signature covers: UTF8("boardlog-head\\n" + canonical_json(head))."""
    return (MESSAGE_PREFIX + canonical_json({"hash": hash_hex, "stream_id": stream_id, "version": version})).encode()


def raw_public(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def raw_private(private: Ed25519PrivateKey) -> bytes:
    return private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                 serialization.NoEncryption())


def signature_holds(receipt: dict, public_key_hex: str) -> bool:
    """Whether ``receipt``'s signature is the one of its head under that public key."""
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        key.verify(bytes.fromhex(receipt["signature"]),
                   head_message(receipt["stream_id"], receipt["version"], receipt["hash"]))
    except (InvalidSignature, ValueError, KeyError, TypeError):
        return False
    return True


def operator_key(path: str) -> Ed25519PrivateKey:
    """The Ed25519 private key of a PEM file (PKCS#8, unencrypted)."""
    try:
        with open(path, "rb") as handle:
            key = serialization.load_pem_private_key(handle.read(), password=None)
    except (OSError, ValueError, TypeError) as error:
        raise SigningKeyError(f"{KEY_ENV}={path}: cannot read an unencrypted PEM private key ({error})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{KEY_ENV}={path}: the key is {type(key).__name__}, not an Ed25519 key")
    return key


@dataclass(frozen=True)
class PublicKey:
    key_id: str
    public_key: str  # 64 hex: the raw key
    created_at: dt.datetime
    retired_at: dt.datetime | None

    def to_json(self) -> dict:
        return {"key_id": self.key_id, "algorithm": ALGORITHM, "public_key": self.public_key,
                "created_at": self.created_at, "retired_at": self.retired_at}


class Signer:
    def __init__(self, pool, key_path: str | None = None, cache_size: int = 65536, refresh_seconds: float = 60.0):
        self.pool = pool
        self.key_path = key_path if key_path is not None else os.environ.get(KEY_ENV) or None
        self.cache_size = cache_size
        self.refresh_seconds = refresh_seconds
        self._lock = threading.Lock()
        self._signatures: OrderedDict[tuple, str] = OrderedDict()
        self._publics: dict[str, str] = {}  # key_id -> its public key (hex), as receipts carry it
        self._current: tuple[str, Ed25519PrivateKey] | None = None
        self._loaded_at = 0.0

    # Keys

    def current(self) -> tuple[str, Ed25519PrivateKey]:
        """(key_id, private key) of the key that signs now, made on first use."""
        current = self._current
        if current is None or time.monotonic() - self._loaded_at > self.refresh_seconds:
            current = self._current = self._load()
            self._loaded_at = time.monotonic()
        return current

    def _load(self) -> tuple[str, Ed25519PrivateKey]:
        if self.key_path:
            return self._operator_key()
        with self.pool.connection() as conn:
            for _ in range(3):  # another process may be making the first key at this moment
                row = conn.execute("select key_id, private_key from signing_keys where retired_at is null").fetchone()
                if row is not None and row[1] is not None:
                    return row[0], Ed25519PrivateKey.from_private_bytes(bytes(row[1]))
                with conn.transaction():
                    if row is not None:  # an operator's key, whose file is no longer given: retire it
                        conn.execute("update signing_keys set retired_at = now() where key_id = %s", (row[0],))
                    self._insert_new(conn)
        raise SigningKeyError("could not make or find a current signing key")

    def _insert_new(self, conn) -> None:
        private = Ed25519PrivateKey.generate()
        public = raw_public(private)
        conn.execute("insert into signing_keys (key_id, public_key, private_key) values (%s, %s, %s)"
                     " on conflict do nothing", (key_id_of(public), public, raw_private(private)))

    def _operator_key(self) -> tuple[str, Ed25519PrivateKey]:
        """The operator's key is the current one; any other is retired. Its
        private half is not stored."""
        private = operator_key(self.key_path)
        public = raw_public(private)
        key_id = key_id_of(public)
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("update signing_keys set retired_at = now() where retired_at is null and key_id <> %s",
                         (key_id,))
            conn.execute("insert into signing_keys (key_id, public_key) values (%s, %s)"
                         " on conflict (key_id) do update set retired_at = null", (key_id, public))
        return key_id, private

    def rotate(self) -> PublicKey:
        """Retire the current key and make a new one (``boardlog keys rotate``)."""
        if self.key_path:
            raise SigningKeyError(f"the signing key is the operator's ({KEY_ENV}={self.key_path}): to rotate it, "
                                  f"point {KEY_ENV} to a new Ed25519 key file and restart the servers")
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("lock table signing_keys in exclusive mode")
            conn.execute("update signing_keys set retired_at = now() where retired_at is null")
            self._insert_new(conn)
        self._current = None
        return next(key for key in self.keys() if key.retired_at is None)

    def public_key(self, key_id: str) -> str:
        """The hex public key of ``key_id`` (the current key's without a query)."""
        current_id, private = self.current()
        if key_id == current_id:
            return raw_public(private).hex()
        return next(key.public_key for key in self.keys() if key.key_id == key_id)

    def keys(self) -> list[PublicKey]:
        """Every key, current and retired, oldest first (GET /v1/keys)."""
        self.current()  # a server asked for its keys before it signed anything has one all the same
        with self.pool.connection() as conn:
            rows = conn.execute("select key_id, public_key, created_at, retired_at from signing_keys"
                                " order by created_at, key_id").fetchall()
        return [PublicKey(key_id, bytes(public).hex(), created, retired) for key_id, public, created, retired in rows]

    # Receipts

    def receipt(self, stream_id: str, version: int, hash_hex: str) -> dict:
        """The signed head of ``stream_id`` after ``version``, whose link is ``hash_hex``."""
        key_id, private = self.current()
        cache_key = (stream_id, version, hash_hex, key_id)
        signature = self._signatures.get(cache_key)
        if signature is None:
            signature = private.sign(head_message(stream_id, version, hash_hex)).hex()
            with self._lock:
                self._signatures[cache_key] = signature
                while len(self._signatures) > self.cache_size:
                    self._signatures.popitem(last=False)
        # The public key rides with the receipt: a frontend that keeps its
        # receipts can check them later without the key list of that day,
        # even once the operator serves another (verifying-a-game.md, 6.3).
        return {"stream_id": stream_id, "version": version, "hash": hash_hex, "key_id": key_id,
                "signature": signature, "public_key": self._public_hex(key_id, private)}

    def _public_hex(self, key_id: str, private: Ed25519PrivateKey) -> str:
        known = self._publics.get(key_id)
        if known is None:
            known = self._publics[key_id] = raw_public(private).hex()
        return known


def gives_receipts(session, ended: bool = False) -> bool:
    """Whether heads of this game may be shown now. A game of chain version
    2 hides its hidden data in every head (salts), so always; a game of
    chain version 1 only once it is over: its documents are not salted, and
    a head over a hidden value with few possibilities (Lind among 92
    locations) could be inverted by trying each."""
    return session.chain_version >= 2 or session.over or ended


class ChainHeads:
    """GameService's ``heads``: the chain head after each version, known
    without a query on the paths that answer most (a command's answer, the
    view now), and signed. The service notes the hash of every record it
    reads and computes those of what it appends (the chain's formula, the
    same bytes PostgreSQL hashes), so that only a past version it has not
    seen costs a read."""

    HEADS_PER_GAME_CACHE = 8

    def __init__(self, store, signer: Signer, cache_size: int = 1024):
        self.store = store
        self.signer = signer
        self.cache_size = cache_size
        self._heads: OrderedDict[tuple, str] = OrderedDict()  # (game_id, version) -> hash hex
        self._heads_lock = threading.Lock()

    def note_heads(self, game_id, pairs) -> None:
        """(version, hash) pairs of ``game_id`` as stored (or about to be)."""
        with self._heads_lock:
            for version, hash_hex in pairs:
                self._heads[(game_id, version)] = hash_hex
                self._heads.move_to_end((game_id, version))
            while len(self._heads) > self.cache_size * self.HEADS_PER_GAME_CACHE:
                self._heads.popitem(last=False)

    def forget_heads(self, game_id, versions) -> None:
        with self._heads_lock:
            for version in versions:
                self._heads.pop((game_id, version), None)

    def appended_heads(self, game_id, stream_id: str, before_version: int, new_events, conn=None) -> list[tuple]:
        """The links of events appended after ``before_version``, computed
        as the store computes them: (version, hash) of each."""
        from eventstore.chain import link_hash

        previous = self.head_hash(game_id, before_version, conn=conn) if before_version else None
        pairs = []
        for offset, event in enumerate(new_events, 1):
            document = {"data": event.data, "event_id": str(event.event_id), "metadata": event.metadata,
                        "schema_version": event.schema_version, "stream_id": stream_id, "type": event.type,
                        "version": before_version + offset}
            previous = link_hash(previous, canonical_json(document))
            pairs.append((before_version + offset, previous))
        self.note_heads(game_id, pairs[-1:])  # the head an answer shows; the feed has each record's own hash
        return pairs

    def head_hash(self, game_id, version: int, conn=None) -> str | None:
        """The link after ``version``: noted, else read (one row)."""
        with self._heads_lock:
            known = self._heads.get((game_id, version))
        if known is not None:
            return known
        records = self.store.read_stream(f"game-{game_id}", version, version, conn=conn)
        if not records:
            return None
        self.note_heads(game_id, [(version, records[0].hash)])
        return records[0].hash

    def receipt(self, game_id, version: int, hash_hex: str | None = None) -> dict | None:
        hash_hex = hash_hex or self.head_hash(game_id, version)
        return self.signer.receipt(f"game-{game_id}", version, hash_hex) if hash_hex else None

    def signed_head(self, game_id, version: int, hash_hex: str) -> dict:
        """An export's last line: the receipt of its last event with the public key that signed it."""
        receipt = self.receipt(game_id, version, hash_hex)
        return {**receipt, "public_key": self.signer.public_key(receipt["key_id"])}

    def receipt_for(self, game_id, session, version: int | None = None, hash_hex: str | None = None,
                    ended: bool = False) -> dict | None:
        """The receipt of the head after ``version`` (the session's own by
        default) if this game shows heads now (``gives_receipts``), else None."""
        if not gives_receipts(session, ended):
            return None
        return self.receipt(game_id, session.version if version is None else version, hash_hex)
