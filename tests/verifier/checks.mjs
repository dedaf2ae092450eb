// The checks of sections 2 to 4 of "Verifying a game": number forms, the
// hash chain, the salts, the seed's commitment, the generator's key and the
// draw lists. Each takes the verification context and returns
// {ok, version, reason} (version: the event version where it failed).

import { JNum, canonicalJSON, serverNumberForm } from "./json.mjs";
import { HASHED_MEMBERS, chainLink, commitmentOf, fromHex, hashedDocument, isSeedHex, parseLabel, randomnessKey, saltOf, DrawStream } from "./primitives.mjs";

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof JNum);
const isInt = (v) => v instanceof JNum && v.isInteger();

function firstBadNumber(value) {
  if (value instanceof JNum) return serverNumberForm(value) ? null : value.text;
  if (Array.isArray(value)) {
    for (const v of value) {
      const bad = firstBadNumber(v);
      if (bad !== null) return bad;
    }
  } else if (isObject(value)) {
    for (const k in value) {
      const bad = firstBadNumber(value[k]);
      if (bad !== null) return bad;
    }
  }
  return null;
}

// Section 2: numbers are hashed as written, so they must be written as the
// server writes them (a "3600.00" in an export was not written by it).
function checkCanonicalJSON(ctx) {
  for (const e of ctx.events) {
    for (const member of HASHED_MEMBERS) {
      const bad = firstBadNumber(e[member]);
      if (bad !== null) return { ok: false, version: e.version.text, reason: `${member} holds the number ${bad}, not in the server's form` };
    }
  }
  return { ok: true, reason: "every number in the server's form, kept as written" };
}

// Section 3.1.
function checkChain(ctx) {
  const stream = ctx.events[0].stream_id;
  if (!stream.startsWith("game-")) return { ok: false, version: "1", reason: `stream_id ${JSON.stringify(stream)} does not start with "game-"` };
  let previous = Buffer.alloc(0);
  for (let i = 0; i < ctx.events.length; i++) {
    const e = ctx.events[i];
    if (e.version.int() !== BigInt(i + 1)) return { ok: false, version: String(i + 1), reason: `version ${i + 1} is missing: line ${i + 1} holds version ${e.version.text}` };
    if (e.stream_id !== stream) return { ok: false, version: e.version.text, reason: `stream_id ${e.stream_id} is not the first event's ${stream}` };
    const link = chainLink(previous, hashedDocument(e));
    if (link.toString("hex") !== e.hash) return { ok: false, version: e.version.text, reason: `the hash is not SHA256(hash(${i}) ‖ document(${i + 1}))` };
    previous = link;
  }
  ctx.lastHash = previous.toString("hex");
  return { ok: true, reason: `${ctx.events.length} links, head ${ctx.lastHash}` };
}

function noSeed(ctx) {
  if (ctx.gameOver === null) return { ok: false, version: null, reason: "no GameOver publishes the seed" };
  return { ok: false, version: ctx.gameOver.version.text, reason: "GameOver.data.seed is not 64 hex digits" };
}

// Section 3.2 (chain version 2).
function checkSalts(ctx) {
  if (ctx.chainVersion === 1) return { ok: true, skipped: true, reason: "chain version 1 has no salts" };
  if (ctx.seed === null) return noSeed(ctx);
  for (const e of ctx.events) {
    const salt = e.metadata.salt;
    if (typeof salt !== "string") return { ok: false, version: e.version.text, reason: "metadata has no salt" };
    if (salt !== saltOf(ctx.seed, e.version.text)) return { ok: false, version: e.version.text, reason: "metadata.salt is not HMAC-SHA256(seed, \"boardlog/salt/\" + version)" };
  }
  return { ok: true, reason: `${ctx.events.length} salts derived from the seed` };
}

// Section 4.1.
function checkCommitment(ctx) {
  const committed = ctx.created.data.seed_sha256;
  if (!isSeedHex(committed)) return { ok: false, version: "1", reason: "GameCreated.data.seed_sha256 is not 64 hex digits" };
  if (ctx.seed === null) return noSeed(ctx);
  if (commitmentOf(ctx.seed) !== committed) return { ok: false, version: ctx.gameOver.version.text, reason: "SHA256(seed) is not GameCreated.data.seed_sha256" };
  return { ok: true, reason: "SHA256(GameOver.data.seed) = GameCreated.data.seed_sha256" };
}

// Section 4.2 (randomness version 2): contributions only in the lobby, by
// the seat's holder, at most one per seat, 1 to 64 bytes. The lobby ends
// when the players are seated (PlayersSeated): see SPEC_GAPS.md.
function checkKey(ctx) {
  const contributed = ctx.events.filter((e) => e.type === "SeedContributed");
  if (ctx.randomnessVersion === 1) {
    if (contributed.length) return { ok: false, version: contributed[0].version.text, reason: "a contribution in a game of randomness version 1" };
    return { ok: true, skipped: true, reason: "randomness version 1 takes no contributions" };
  }
  const seats = Array.isArray(ctx.created.data.seats) ? ctx.created.data.seats : [];
  const contributions = {};
  const holders = new Map();
  let started = false;
  for (const e of ctx.events) {
    const d = isObject(e.data) ? e.data : {};
    if (e.type === "PlayersSeated") started = true;
    else if (e.type === "SeatTaken") holders.set(d.seat, d.player);
    else if (e.type === "SeatLeft") holders.delete(d.seat);
    if (e.type !== "SeedContributed") continue;
    const v = e.version.text;
    const { seat, contribution } = d;
    const m = e.metadata;
    if (started) return { ok: false, version: v, reason: "a contribution after the game started" };
    if (typeof seat !== "string" || !seats.includes(seat)) return { ok: false, version: v, reason: `contribution of ${JSON.stringify(seat)}, not a seat of the game` };
    const bytes = fromHex(contribution);
    if (bytes === null || bytes.length < 1 || bytes.length > 64) return { ok: false, version: v, reason: "a contribution is not 1 to 64 bytes of lowercase hex" };
    if (Object.prototype.hasOwnProperty.call(contributions, seat)) return { ok: false, version: v, reason: `a second contribution of seat ${seat}` };
    if (m.seat !== seat || holders.get(seat) !== m.actor) return { ok: false, version: v, reason: `the contribution of seat ${seat} is not by its holder` };
    if (!isObject(m.command) || m.command.type !== "ContributeRandomness" || m.command.contribution !== contribution)
      return { ok: false, version: v, reason: "the contribution is not the ContributeRandomness command's" };
    contributions[seat] = contribution;
  }
  if (ctx.seed === null) return noSeed(ctx);
  ctx.key = randomnessKey(ctx.seed, contributions);
  const n = Object.keys(contributions).length;
  return { ok: true, reason: n ? `key from the seed and ${n} contribution(s) (${Object.keys(contributions).join(", ")})` : "key from the seed alone (nobody contributed)" };
}

// Sections 4.3-4.4 (randomness version 2): on every event that lists
// draws, label by label, a fresh stream of the label gives each listed
// value, and each label belongs to the event's decision. The events of one
// decision list the same draws, so each list is replayed once.
function checkDraws(ctx) {
  if (ctx.randomnessVersion === 1) return { ok: true, skipped: true, reason: "randomness version 1: draws are checked by boardlog audit only" };
  if (!ctx.key) return { ok: false, version: null, reason: "no key (see the key check)" };
  const checked = new Set();
  const labels = new Set();
  let count = 0;
  for (const e of ctx.events) {
    const v = e.version.text;
    const m = e.metadata;
    const draws = m.draws;
    if (draws === undefined) continue;
    if (!isObject(draws)) return { ok: false, version: v, reason: "metadata.draws is not an object" };
    const at = isInt(m.decided_at) ? m.decided_at.int() : null;
    const once = `${at}|${m.seat}|${canonicalJSON(draws)}`;
    if (checked.has(once)) continue;
    checked.add(once);
    for (const label of Object.keys(draws)) {
      const parsed = parseLabel(label);
      if (parsed === null) return { ok: false, version: v, reason: `draw label ${JSON.stringify(label)} is not game/d, timeout/d or bot/seat/d` };
      if (at === null || parsed.decidedAt !== at) return { ok: false, version: v, reason: `draw label ${label} is not of the decision taken at version ${m.decided_at}` };
      if (parsed.kind === "bot" && parsed.seat !== m.seat) return { ok: false, version: v, reason: `draw label ${label} is not of the deciding seat ${m.seat}` };
      labels.add(label);
      const list = draws[label];
      if (!Array.isArray(list)) return { ok: false, version: v, reason: `draws of ${label} are not a list` };
      const stream = new DrawStream(ctx.key, label);
      for (let k = 0; k < list.length; k++) {
        const d = list[k];
        if (!Array.isArray(d) || d.length !== 2 || !isInt(d[0]) || !isInt(d[1])) return { ok: false, version: v, reason: `draw ${k} of ${label} is not [n, value]` };
        const n = d[0].int();
        if (n < 1n || n > 1n << 53n) return { ok: false, version: v, reason: `draw ${k} of ${label}: n = ${n} is not in [1, 2^53]` };
        const got = stream.below(n);
        if (got !== d[1].int()) return { ok: false, version: v, reason: `draw ${k} of ${label}: below(${n}) gives ${got}, the list says ${d[1].text}` };
        count++;
      }
    }
  }
  return { ok: true, reason: `${count} draws under ${labels.size} labels, each from its stream` };
}

export const CHAIN_CHECKS = [
  { name: "canonical_json", section: "2", run: checkCanonicalJSON },
  { name: "chain", section: "3.1", run: checkChain },
  { name: "salts", section: "3.2", run: checkSalts },
];

export const RANDOMNESS_CHECKS = [
  { name: "commitment", section: "4.1", run: checkCommitment },
  { name: "key", section: "4.2", run: checkKey },
  { name: "draws", section: "4.3-4.4", run: checkDraws },
];
