// Section 6 of "Verifying a game": the signed head line and the receipts a
// player kept.

import { createPublicKey, verify } from "node:crypto";
import { canonicalJSON } from "./json.mjs";

export function canonicalSignedHead(head) {
  return canonicalJSON(head);
}

// An Ed25519 signature check over a raw 32-byte public key.
export function verifySignature(publicKey, message, signature) {
  const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKey).toString("base64url") }, format: "jwk" });
  return verify(null, message, key, signature);
}

export function parseKeys(doc) {
  return doc;
}

function checkHead(ctx) {
  if (ctx.chainVersion === 1) {
    if (ctx.head) return { ok: false, version: null, reason: "a chain version 1 export has no head line" };
    return { ok: true, skipped: true, reason: "chain version 1 has no signed head: a cut-off export is refused by the rules of section 5 only" };
  }
  if (!ctx.head) return { ok: false, version: null, reason: "no signed head line: the export is cut off" };
  return { ok: false, version: null, reason: "not implemented yet" };
}

function checkReceipts(ctx) {
  if (!ctx.receipts) return { ok: true, skipped: true, reason: "no receipts given" };
  return { ok: false, version: null, reason: "not implemented yet" };
}

export const SIGNATURE_CHECKS = [
  { name: "head", section: "6", run: checkHead },
  { name: "receipts", section: "6", run: checkReceipts },
];
