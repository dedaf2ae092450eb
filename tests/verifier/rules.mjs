// Section 5 of "Verifying a game": the metadata every event carries and the
// rules every game obeys, checked without the games' own rules.

import { JNum, canonicalJSON } from "./json.mjs";

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof JNum);
const isInt = (v) => v instanceof JNum && v.isInteger();

// Section 5, first paragraph: the members of metadata and their types.
function checkMetadata(ctx) {
  for (const e of ctx.events) {
    const v = e.version.text;
    const m = e.metadata;
    if (typeof m.actor !== "string") return { ok: false, version: v, reason: "metadata.actor is not a string" };
    if (!("seat" in m) || (m.seat !== null && typeof m.seat !== "string")) return { ok: false, version: v, reason: "metadata.seat is not a seat or null" };
    if (!isObject(m.command) || typeof m.command.type !== "string") return { ok: false, version: v, reason: "metadata.command is not an object with a type" };
    if (!isInt(m.decided_at) || m.decided_at.int() < 0n) return { ok: false, version: v, reason: "metadata.decided_at is not a version" };
    if ("timeout" in m && m.timeout !== true) return { ok: false, version: v, reason: "metadata.timeout is present but not true" };
  }
  return { ok: true, reason: "every event says who acted, for which seat, with which command, on which version" };
}

// Section 5: events of one decision share decided_at, and the next decision
// is taken on the version its last event made (the first on version 0).
// Section 4.4: every event of one decision carries the same metadata, but
// for its own salt (3.2) and to_act, on the decision's last event only.
const PER_EVENT = new Set(["salt", "to_act"]);

function sharedMetadata(m) {
  const shared = Object.create(null);
  for (const k of Object.keys(m)) if (!PER_EVENT.has(k)) shared[k] = m[k];
  return canonicalJSON(shared);
}

function checkDecisions(ctx) {
  let current = null;
  let shared = null;
  let previous = null;
  let previousVersion = 0n;
  let decisions = 0;
  for (const e of ctx.events) {
    const at = e.metadata.decided_at.int();
    const v = e.version.text;
    if (at !== current) {
      if (at !== previousVersion) return { ok: false, version: v, reason: `a decision taken at version ${at}, not on the version before it (${previousVersion})` };
      current = at;
      shared = sharedMetadata(e.metadata);
      decisions++;
    } else {
      if (sharedMetadata(e.metadata) !== shared) return { ok: false, version: v, reason: "an event whose metadata is not its decision's (actor, seat, command, ...)" };
      if ("to_act" in previous.metadata) return { ok: false, version: previous.version.text, reason: "to_act on an event that is not its decision's last" };
    }
    previous = e;
    previousVersion = e.version.int();
  }
  return { ok: true, reason: `${decisions} decisions, each taken on the version before it, each event with its decision's metadata` };
}

// Section 5: the game ends with GameOver and, last, GameScored.
function checkEnd(ctx) {
  const events = ctx.events;
  const overs = events.filter((e) => e.type === "GameOver");
  if (overs.length === 0) return { ok: false, version: null, reason: "the export has no GameOver (not a finished game)" };
  if (overs.length > 1) return { ok: false, version: overs[1].version.text, reason: "a second GameOver" };
  const last = events[events.length - 1];
  if (last.type !== "GameScored") return { ok: false, version: last.version.text, reason: `the export ends in ${last.type}, not in GameScored (cut off?)` };
  const at = overs[0].version.int();
  for (const e of events) {
    if (e.version.int() > at && e.type !== "GameScored") return { ok: false, version: e.version.text, reason: `${e.type} after GameOver` };
  }
  const scored = events.filter((e) => e.type === "GameScored");
  if (scored.length !== 1) return { ok: false, version: scored[1].version.text, reason: "a second GameScored" };
  return { ok: true, reason: `GameOver at version ${at}, then the standings` };
}

export const RULE_CHECKS = [
  { name: "metadata", section: "5", run: checkMetadata },
  { name: "decisions", section: "5", run: checkDecisions },
  { name: "end", section: "5", run: checkEnd },
];
