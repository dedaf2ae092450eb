// Section 6 of "Verifying a game": keys and key ids (6.1), the signed
// message (6.2), receipts (6.3), the export's head line (6.5) and a
// history checked against the receipts a player kept (6.6).

import { createPublicKey, verify } from "node:crypto";
import { JNum, canonicalJSON } from "./json.mjs";
import { chainLink, fromHex, hashedDocument, sha256, utf8 } from "./primitives.mjs";

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof JNum);
const isInt = (v) => v instanceof JNum && v.isInteger();
const hexOf = (digits) => (v) => typeof v === "string" && v.length === digits && /^[0-9a-f]*$/.test(v);
const HEX16 = hexOf(16);
const HEX64 = hexOf(64);
const HEX128 = hexOf(128);

// 6.1: the first 16 hex digits of SHA256(the raw 32-byte key).
export function keyIdOf(publicKey) {
  return sha256(publicKey).toString("hex").slice(0, 16);
}

// 6.2: UTF8("boardlog-head\n") ‖ UTF8(canonical_json(head)). `version` is a
// JNum (as read) or an integer.
export function headMessage(streamId, version, hash) {
  const head = { hash, stream_id: streamId, version: version instanceof JNum ? version : BigInt(version) };
  return Buffer.concat([utf8("boardlog-head\n"), utf8(canonicalJSON(head))]);
}

// Ed25519 (pure) over a raw 32-byte public key.
export function verifySignature(publicKey, message, signature) {
  if (!publicKey || publicKey.length !== 32 || !signature || signature.length !== 64) return false;
  try {
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKey).toString("base64url") }, format: "jwk" });
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}

// The answer of GET /v1/keys ({"keys": [...]}, or the bare list) as a map
// key_id → raw public key; a key whose id is not its key's is refused
// (6.1), as input this verifier cannot judge with.
export function parseKeys(doc) {
  const list = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.keys) ? doc.keys : null;
  if (list === null) throw new Error('the keys file is not {"keys": [...]}');
  const keys = new Map();
  list.forEach((k, i) => {
    if (!isObject(k) || !HEX16(k.key_id) || !HEX64(k.public_key)) throw new Error(`key ${i} has no key_id (16 hex) and public_key (64 hex)`);
    if (keyIdOf(fromHex(k.public_key)) !== k.key_id) throw new Error(`key ${i}: ${k.key_id} is not the id of its public_key`);
    keys.set(k.key_id, fromHex(k.public_key));
  });
  return keys;
}

// 6.5 (chain version 2).
function checkHead(ctx) {
  if (ctx.chainVersion === 1) return { ok: true, skipped: true, reason: "chain version 1 has no signed head (a head line is not checked): a cut-off export is refused by the end rule of section 5 only" };
  const h = ctx.head;
  if (!h) return { ok: false, version: null, reason: "no head line: the export is cut off or unsigned" };
  const last = ctx.events[ctx.events.length - 1];
  const lastVersion = last.version.text;
  if (typeof h.stream_id !== "string" || !isInt(h.version) || !HEX64(h.hash) || !HEX16(h.key_id) || !HEX128(h.signature) || !HEX64(h.public_key))
    return { ok: false, version: lastVersion, reason: "the head line is not a receipt (stream_id, version, hash, key_id, signature) with public_key" };
  // The head's own signature first: a valid head line names a key of the
  // server (used for receipts without --keys) even when it is not the head
  // of this export's last event.
  const publicKey = fromHex(h.public_key);
  if (keyIdOf(publicKey) !== h.key_id) return { ok: false, version: lastVersion, reason: `key_id ${h.key_id} is not the id of the head's public_key` };
  if (!verifySignature(publicKey, headMessage(h.stream_id, h.version, h.hash), fromHex(h.signature)))
    return { ok: false, version: lastVersion, reason: `the head's signature does not hold under key ${h.key_id}` };
  ctx.headKey = { id: h.key_id, publicKey };
  if (h.stream_id !== last.stream_id || h.version.int() !== last.version.int() || h.hash !== last.hash)
    return { ok: false, version: lastVersion, reason: `the signed head (version ${h.version.text}) is not the last event's: the export is cut off or was changed after it was signed` };
  if (ctx.keys) {
    const known = ctx.keys.get(h.key_id);
    if (!known) return { ok: false, version: lastVersion, reason: `key ${h.key_id} is not one of the server's keys (--keys)` };
    if (!known.equals(publicKey)) return { ok: false, version: lastVersion, reason: `key ${h.key_id} is not the server's key of that id` };
  }
  return { ok: true, reason: `version ${h.version.text} signed by key ${h.key_id}${ctx.keys ? ", one of the server's keys" : " (the head's own key: give --keys to hold the server to its list)"}` };
}

// 6.6: first, can each receipt be judged; then, does the history agree.
function checkReceipts(ctx) {
  if (ctx.receipts === null) return { ok: true, skipped: true, reason: "no receipts given (--receipts)" };
  const list = Array.isArray(ctx.receipts) ? ctx.receipts : isObject(ctx.receipts) && Array.isArray(ctx.receipts.receipts) ? ctx.receipts.receipts : null;
  if (list === null) return { ok: false, notAudited: true, reason: "the receipts file is not a JSON list of receipts" };
  const keys = ctx.keys ?? (ctx.headKey ? new Map([[ctx.headKey.id, ctx.headKey.publicKey]]) : new Map());
  const stream = ctx.events[0].stream_id;
  const cannot = (i, why) => ({ ok: false, notAudited: true, reason: `receipt ${i + 1} cannot be judged: ${why}` });
  for (let i = 0; i < list.length; i++) {
    const r = list[i];
    if (!isObject(r) || typeof r.stream_id !== "string" || !isInt(r.version) || r.version.int() < 1n || !HEX64(r.hash) || !HEX16(r.key_id) || !HEX128(r.signature))
      return cannot(i, "it is not {stream_id, version ≥ 1, hash: 64 hex, key_id: 16 hex, signature: 128 hex}");
    if (r.stream_id !== stream) return cannot(i, `it is of ${r.stream_id}, not of this game (${stream})`);
    const key = keys.get(r.key_id);
    if (!key) return cannot(i, `key ${r.key_id} is unknown (${ctx.keys ? "not in --keys" : "not the head line's key; give --keys"})`);
    if (!verifySignature(key, headMessage(r.stream_id, r.version, r.hash), fromHex(r.signature))) return cannot(i, `its signature does not hold under key ${r.key_id}`);
  }
  const byVersion = new Map();
  for (const r of list) {
    const v = r.version.int();
    if (byVersion.has(v) && byVersion.get(v) !== r.hash) return { ok: false, version: String(v), reason: `two valid receipts of version ${v} name different hashes: the server showed two histories` };
    byVersion.set(v, r.hash);
  }
  const versions = [...byVersion.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const last = BigInt(ctx.events.length);
  // hash(v): the links computed from the export's lines (3.1), not the hash
  // members they state.
  const links = [];
  let previous = Buffer.alloc(0);
  for (const e of ctx.events) {
    previous = chainLink(previous, hashedDocument(e));
    links.push(previous.toString("hex"));
  }
  let agreesUpTo = null;
  for (const v of versions) {
    const agrees = v <= last && links[Number(v) - 1] === byVersion.get(v);
    if (!agrees) {
      const where = v > last ? `the receipt of version ${v} is beyond the export's last (${last}): events were removed from its end` : `the history differs from the receipt of version ${v}`;
      const range = agreesUpTo === null ? `at or before version ${v}` : agreesUpTo + 1n === v ? `at version ${v} (receipts agree up to ${agreesUpTo})` : `between versions ${agreesUpTo + 1n} and ${v} (receipts agree up to ${agreesUpTo})`;
      return { ok: false, version: String(v), reason: `receipts DISAGREE at version ${v}: ${where}; it was changed ${range}` };
    }
    agreesUpTo = v;
  }
  return { ok: true, reason: `${list.length} receipt(s) agree${versions.length ? `, the highest of version ${versions[versions.length - 1]}` : ""}` };
}

export const SIGNATURE_CHECKS = [
  { name: "head", section: "6.5", run: checkHead },
  { name: "receipts", section: "6.6", run: checkReceipts },
];
