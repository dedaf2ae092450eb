"""The server's public signing keys, and the shape of a receipt (a signed
chain head; openapi/verifying-a-game.md, section 6)."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from ..context import service

blp = Blueprint("keys", __name__, url_prefix="/v1/keys",
                description="The public keys that sign chain heads (receipts), current and retired")

HEX64 = r"^[0-9a-f]{64}$"


class ReceiptSchema(ma.Schema):
    """A receipt: the server's signed chain head after one version of a game (section 6.3 of
    openapi/verifying-a-game.md). Kept, it shows later whether the history was changed."""

    stream_id = ma.fields.String(required=True, metadata={"description": '"game-" + the game id'})
    version = ma.fields.Integer(required=True, metadata={"description": "the version this head follows"})
    hash = ma.fields.String(required=True, metadata={"pattern": HEX64,
                                                     "description": "the chain link after that version (64 hex)"})
    key_id = ma.fields.String(required=True, metadata={"pattern": r"^[0-9a-f]{16}$",
                                                       "description": "the key that signed it (GET /v1/keys)"})
    signature = ma.fields.String(required=True, metadata={
        "pattern": r"^[0-9a-f]{128}$",
        "description": 'Ed25519 over UTF8("boardlog-head\\n" + canonical_json({"hash", "stream_id", "version"}))'})
    public_key = ma.fields.String(metadata={
        "pattern": HEX64,
        "description": "the raw Ed25519 public key of key_id (64 hex; key_id is the first 16 hex of its SHA-256): keep "
                       "it with the receipt, so that the receipt can be checked later without the key list of that "
                       "day, even if the server serves another one then; absent from receipts given before receipts "
                       "carried it"})


def receipt_field(what: str) -> ma.fields.Nested:
    """The ``receipt`` member of an answer: null only for a game of chain
    version 1 that is still running (its heads would not hide)."""
    return ma.fields.Nested(ReceiptSchema, allow_none=True, required=True, metadata={
        "description": f"the signed chain head after {what}; keep it to check the history later (GET audit "
                       "?receipt=, boardlog audit --receipts); null in a game recorded before receipts (chain "
                       "version 1) until it is over"})


class SigningKeySchema(ma.Schema):
    """A key the server signs, or signed, chain heads with."""

    key_id = ma.fields.String(required=True, metadata={"description": "the first 16 hex of sha256(public key bytes)"})
    algorithm = ma.fields.String(required=True, metadata={"enum": ["Ed25519"], "description": "the signature scheme"})
    public_key = ma.fields.String(required=True, metadata={"pattern": HEX64, "description": "the raw 32-byte key, hex"})
    created_at = ma.fields.DateTime(required=True, metadata={"description": "when the server made it (UTC)"})
    retired_at = ma.fields.DateTime(allow_none=True, required=True,
                                    metadata={"description": "null for the key that signs now; a retired key still verifies"})


class SigningKeysSchema(ma.Schema):
    """Every key the server signs or signed heads with, current and retired."""

    keys = ma.fields.List(ma.fields.Nested(SigningKeySchema), required=True,
                          metadata={"description": "each key, oldest first"})


@blp.route("")
class Keys(MethodView):
    @blp.doc(operationId="listSigningKeys")
    @blp.response(200, SigningKeysSchema)
    def get(self):
        """Every key the server signs or signed heads with, oldest first."""
        return {"keys": [key.to_json() for key in service().signer.keys()]}
