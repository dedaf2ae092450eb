// The cryptographic steps of "Verifying a game" (sections 3 and 4), each as
// a small function that the vectors check one by one. Standard library
// only (node:crypto); written from the specification, not from boardlog's
// code.

import { createHash, createHmac } from "node:crypto";
import { canonicalJSON } from "./json.mjs";

const HEX64 = /^[0-9a-f]{64}$/;

export function sha256(...parts) {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
}

export function hmacSha256(key, ...parts) {
  const h = createHmac("sha256", key);
  for (const p of parts) h.update(p);
  return h.digest();
}

export function utf8(s) {
  return Buffer.from(s, "utf8");
}

// Lowercase hex to bytes, or null when the text is not lowercase hex of an
// even length.
export function fromHex(text) {
  if (typeof text !== "string" || text.length % 2 !== 0 || !/^[0-9a-f]*$/.test(text)) return null;
  return Buffer.from(text, "hex");
}

// 3.1: the seven hashed members of an event line.
export const HASHED_MEMBERS = ["data", "event_id", "metadata", "schema_version", "stream_id", "type", "version"];

export function hashedDocument(line) {
  const doc = Object.create(null);
  for (const k of HASHED_MEMBERS) doc[k] = line[k];
  return doc;
}

// hash(v) = SHA256(hash(v-1) ‖ UTF8(canonical_json(document(v)))), hash(0)
// the empty string; `previous` is the 32 raw bytes (or an empty buffer).
export function chainLink(previous, document) {
  return sha256(previous, utf8(canonicalJSON(document)));
}

// 3.2: metadata.salt of version v (chain version 2).
export function saltOf(seed, version) {
  return hmacSha256(seed, utf8("boardlog/salt/" + String(version))).toString("hex");
}

// 4.1: GameCreated.data.seed_sha256, over the 32 seed bytes.
export function commitmentOf(seed) {
  return sha256(seed).toString("hex");
}

export function isSeedHex(text) {
  return typeof text === "string" && HEX64.test(text);
}

// 4.2: the generator's key from the seed and every contribution
// ({seat: contribution hex}).
export function randomnessKey(seed, contributions) {
  const doc = { contributions: { ...contributions }, purpose: "boardlog randomness key" };
  return hmacSha256(seed, utf8(canonicalJSON(doc)));
}

const TWO_64 = 1n << 64n;
const TWO_53 = 1n << 53n;

// 4.3: the stream of one label, read as 64-bit big-endian words.
export class DrawStream {
  constructor(key, label) {
    this.key = key;
    this.prefix = Buffer.concat([utf8(label), Buffer.from([0])]);
    this.block = 0n;
    this.buffer = Buffer.alloc(0);
    this.offset = 0;
  }

  nextWord() {
    if (this.offset >= this.buffer.length) {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(this.block);
      this.buffer = hmacSha256(this.key, this.prefix, counter);
      this.block += 1n;
      this.offset = 0;
    }
    const w = this.buffer.readBigUInt64BE(this.offset);
    this.offset += 8;
    return w;
  }

  // below(n) for 1 ≤ n ≤ 2^53, n a BigInt or a safe integer; returns a
  // BigInt.
  below(n) {
    const big = BigInt(n);
    if (big < 1n || big > TWO_53) throw new RangeError(`below(${big}): n must be in [1, 2^53]`);
    const limit = TWO_64 - (TWO_64 % big);
    for (;;) {
      const w = this.nextWord();
      if (w < limit) return w % big;
    }
  }

  // The draws of the table in 4.3, built on below(n).
  integer(a, b) {
    return Number(BigInt(a) + this.below(BigInt(b) - BigInt(a) + 1n));
  }

  choice(list) {
    return list[Number(this.below(list.length))];
  }

  shuffle(list) {
    for (let i = list.length - 1; i >= 1; i--) {
      const j = Number(this.below(i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  }

  sample(list, k) {
    const copy = [...list];
    const m = copy.length;
    for (let i = 0; i < k; i++) {
      const j = i + Number(this.below(m - i));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, k);
  }

  real() {
    return Number(this.below(TWO_53)) / 2 ** 53;
  }

  weighted(weights) {
    const cumulative = [];
    let total = 0;
    for (const w of weights) {
      total += w;
      cumulative.push(total);
    }
    const x = this.real() * cumulative[cumulative.length - 1];
    for (let i = 0; i < cumulative.length; i++) if (x < cumulative[i]) return i;
    return cumulative.length - 1;
  }
}

// 4.3: the labels a decision may draw under.
export function parseLabel(label) {
  let m = /^(game|timeout)\/(0|[1-9][0-9]*)$/.exec(label);
  if (m) return { kind: m[1], decidedAt: BigInt(m[2]), seat: null };
  m = /^bot\/(.+)\/(0|[1-9][0-9]*)$/.exec(label);
  if (m) return { kind: "bot", decidedAt: BigInt(m[2]), seat: m[1] };
  return null;
}
