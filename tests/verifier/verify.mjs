#!/usr/bin/env node
// A second verifier of boardlog exports, written from "Verifying a game"
// (openapi/verifying-a-game.md) alone, never from boardlog's code, so that
// the specification is shown to be enough. Node.js 20, standard library only.
//
//   node tests/verifier/verify.mjs EXPORT.jsonl [--keys keys.json]
//        [--receipts receipts.json] [--json] [--timing]
//
// Prints one line per check, in the specification's order, then VERIFIED
// (exit 0), NOT VERIFIED naming the first failed check and the event version
// where it failed (exit 1), or NOT AUDITED naming a chain or randomness
// version this verifier does not know (exit 2). Where the specification left
// something open, tests/verifier/SPEC_GAPS.md says what was assumed.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { JNum, parseJSON } from "./json.mjs";
import { fromHex, isSeedHex } from "./primitives.mjs";
import { CHAIN_CHECKS, RANDOMNESS_CHECKS } from "./checks.mjs";
import { RULE_CHECKS } from "./commits.mjs";
import { SIGNATURE_CHECKS, parseKeys } from "./signatures.mjs";

export * from "./json.mjs";
export * from "./primitives.mjs";
export { headMessage, keyIdOf, verifySignature, parseKeys } from "./signatures.mjs";

export const KNOWN_CHAIN_VERSIONS = [1, 2];
export const KNOWN_RANDOMNESS_VERSIONS = [1, 2];

const EVENT_MEMBERS = {
  stream_id: "string",
  version: "integer",
  event_id: "uuid",
  type: "string",
  schema_version: "integer",
  data: "object",
  metadata: "object",
  recorded_at: "string",
  hash: "hex64",
};

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof JNum);
export const isInt = (v) => v instanceof JNum && v.isInteger();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function memberShape(kind, value) {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "integer":
      return isInt(value) && value.int() >= 1n;
    case "uuid":
      return typeof value === "string" && UUID.test(value);
    case "object":
      return isObject(value);
    case "hex64":
      return isSeedHex(value);
  }
  return false;
}

// Section 1: every line an event line, but for one last head line.
function checkLines(ctx) {
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(ctx.bytes);
  } catch {
    return { ok: false, reason: "the export is not UTF-8" };
  }
  const raw = text.split("\n");
  if (raw.length && raw[raw.length - 1] === "") raw.pop();
  if (raw.length === 0) return { ok: false, reason: "the export is empty" };
  for (let i = 0; i < raw.length; i++) {
    const where = `line ${i + 1}`;
    let line;
    try {
      line = parseJSON(raw[i]);
    } catch (e) {
      return { ok: false, reason: `${where} is not JSON: ${e.message}` };
    }
    if (!isObject(line)) return { ok: false, reason: `${where} is not an object` };
    if ("head" in line) {
      if (i !== raw.length - 1) return { ok: false, reason: `${where} is a head line but not the last line` };
      if (Object.keys(line).length !== 1 || !isObject(line.head))
        return { ok: false, reason: `${where}: a head line is {"head": Receipt} and nothing else` };
      ctx.head = line.head;
      continue;
    }
    const keys = Object.keys(line);
    for (const [member, kind] of Object.entries(EVENT_MEMBERS)) {
      if (!(member in line)) return { ok: false, reason: `${where} has no member ${member}` };
      if (!memberShape(kind, line[member])) return { ok: false, reason: `${where}: ${member} is not a ${kind}` };
    }
    const extra = keys.filter((k) => !(k in EVENT_MEMBERS));
    if (extra.length) return { ok: false, reason: `${where} has members the specification does not define: ${extra.join(", ")}` };
    ctx.events.push(line);
  }
  if (ctx.events.length === 0) return { ok: false, reason: "the export holds no event" };
  if (ctx.events[0].type !== "GameCreated") return { ok: false, version: ctx.events[0].version.text, reason: "the first event is not GameCreated" };
  ctx.created = ctx.events[0];
  const headNote = ctx.head ? ", then a head line" : ", no head line";
  return { ok: true, reason: `${raw.length} lines: ${ctx.events.length} events${headNote}` };
}

// Section 1: the two versions of GameCreated (absent means 1).
function checkVersions(ctx) {
  const data = ctx.created.data;
  if (!isObject(data)) return { ok: false, version: "1", reason: "GameCreated has no data object" };
  const read = (name) => {
    if (!(name in data)) return 1n;
    return isInt(data[name]) ? data[name].int() : null;
  };
  const chain = read("chain_version");
  const randomness = read("randomness_version");
  if (chain === null) return { ok: false, version: "1", reason: "GameCreated.data.chain_version is not an integer" };
  if (randomness === null) return { ok: false, version: "1", reason: "GameCreated.data.randomness_version is not an integer" };
  ctx.chainVersion = Number(chain);
  ctx.randomnessVersion = Number(randomness);
  const unknown = [];
  if (!KNOWN_CHAIN_VERSIONS.includes(ctx.chainVersion)) unknown.push(`chain_version ${chain}`);
  if (!KNOWN_RANDOMNESS_VERSIONS.includes(ctx.randomnessVersion)) unknown.push(`randomness_version ${randomness}`);
  if (unknown.length)
    return { ok: false, notAudited: true, reason: `unknown ${unknown.join(" and ")} (this verifier knows chain versions ${KNOWN_CHAIN_VERSIONS.join(", ")} and randomness versions ${KNOWN_RANDOMNESS_VERSIONS.join(", ")})` };
  // The published seed (section 4.1), which salts, commitment and key need.
  const over = ctx.events.find((e) => e.type === "GameOver");
  ctx.gameOver = over ?? null;
  if (over && isObject(over.data) && isSeedHex(over.data.seed)) ctx.seed = fromHex(over.data.seed);
  return { ok: true, reason: `chain version ${chain}, randomness version ${randomness}` };
}

export const CHECKS = [
  { name: "lines", section: "1", run: checkLines, fatal: true },
  { name: "versions", section: "1", run: checkVersions, fatal: true },
  ...CHAIN_CHECKS,
  ...RANDOMNESS_CHECKS,
  ...RULE_CHECKS,
  ...SIGNATURE_CHECKS,
];

// Verifies one export (a Buffer). options: keys (a Map key_id → raw public
// key, from parseKeys) and receipts (the parsed receipts file). Returns {verdict, checks, events}.
export function verifyExport(bytes, options = {}) {
  const ctx = { bytes, events: [], head: null, created: null, seed: null, gameOver: null, keys: options.keys ?? null, receipts: options.receipts ?? null };
  const checks = [];
  let verdict = "VERIFIED";
  let stopped = false;
  for (const check of CHECKS) {
    if (stopped) break;
    let result;
    try {
      result = check.run(ctx);
    } catch (e) {
      result = { ok: false, reason: `the check could not run: ${e.message}` };
    }
    const entry = { name: check.name, section: check.section, ok: result.ok, version: result.version ?? null, reason: result.reason ?? "" };
    if (result.skipped) entry.skipped = true;
    checks.push(entry);
    if (result.notAudited) {
      // Unknown versions stop everything; a receipt that cannot be judged
      // judges nothing, but does not undo a check that already failed.
      if (verdict === "VERIFIED") verdict = "NOT AUDITED";
      stopped = true;
    } else if (!result.ok) {
      if (verdict === "VERIFIED") verdict = "NOT VERIFIED";
      if (check.fatal) stopped = true;
    }
  }
  return { verdict, checks, events: ctx.events.length, chainVersion: ctx.chainVersion ?? null, randomnessVersion: ctx.randomnessVersion ?? null };
}

export function verdictLine(result) {
  if (result.verdict === "VERIFIED") {
    const draws = result.checks.find((c) => c.name === "draws");
    return draws && draws.skipped ? `VERIFIED (${draws.reason})` : "VERIFIED";
  }
  const failed = result.checks.find((c) => !c.ok);
  if (result.verdict === "NOT AUDITED") return `NOT AUDITED: ${failed.reason}`;
  // NOT VERIFIED names the first check that failed (a receipt that could not
  // be judged is reported on its own line, not as the failure).
  const at = failed.version !== null ? ` at version ${failed.version}` : "";
  return `NOT VERIFIED: ${failed.name} (section ${failed.section}) failed${at}: ${failed.reason}`;
}

function usage(message) {
  process.stderr.write(`${message}\nusage: node verify.mjs EXPORT.jsonl [--keys keys.json] [--receipts receipts.json] [--json] [--timing]\n`);
  process.exit(2);
}

function readJSONFile(path, what) {
  try {
    return parseJSON(readFileSync(path, "utf8"));
  } catch (e) {
    usage(`cannot read the ${what} file ${path}: ${e.message}`);
  }
}

function main(argv) {
  let file = null;
  const options = {};
  let asJSON = false;
  let timing = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--json") asJSON = true;
    else if (a === "--timing") timing = true;
    else if (a === "--keys") {
      const path = argv[++i] ?? usage("--keys needs a file");
      try {
        options.keys = parseKeys(readJSONFile(path, "keys"));
      } catch (e) {
        usage(`the keys file ${path} cannot be used: ${e.message}`);
      }
    }
    else if (a === "--receipts") options.receipts = readJSONFile(argv[++i] ?? usage("--receipts needs a file"), "receipts");
    else if (a.startsWith("--")) usage(`unknown option ${a}`);
    else if (file === null) file = a;
    else usage("one export at a time");
  }
  if (file === null) usage("no export given");
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    usage(`cannot read ${file}: ${e.message}`);
  }
  const started = process.hrtime.bigint();
  const result = verifyExport(bytes, options);
  let elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  let runs = 1;
  if (timing) {
    // Repeat until a second has passed, so that a short game is measured too.
    while (elapsed < 1) {
      verifyExport(bytes, options);
      runs++;
      elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    }
  }
  const rate = (result.events * runs) / elapsed;
  if (asJSON) {
    const out = { verdict: result.verdict, chain_version: result.chainVersion, randomness_version: result.randomnessVersion, events: result.events, checks: result.checks.map(({ name, ok, version, reason, skipped }) => ({ name, ok, version, reason, ...(skipped ? { skipped } : {}) })) };
    if (timing) out.events_per_second = Math.round(rate);
    process.stdout.write(JSON.stringify(out) + "\n");
  } else {
    for (const c of result.checks) {
      const mark = c.ok ? (c.skipped ? "skip" : "ok  ") : "FAIL";
      const at = c.version !== null ? ` (version ${c.version})` : "";
      process.stdout.write(`${mark}  ${c.name.padEnd(16)} ${c.reason}${at}\n`);
    }
    if (timing) process.stdout.write(`timing: ${result.events} events, ${runs} runs in ${elapsed.toFixed(3)} s: ${Math.round(rate)} events per second\n`);
    process.stdout.write(verdictLine(result) + "\n");
  }
  process.exit(result.verdict === "VERIFIED" ? 0 : result.verdict === "NOT VERIFIED" ? 1 : 2);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) main(process.argv.slice(2));
