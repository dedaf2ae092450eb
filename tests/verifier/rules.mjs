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

// Section 5: who holds each seat, from the engine's own events, and the
// actor of each decision against it. The engine's commands (lobby, scoring)
// are not moves of a seat. See SPEC_GAPS.md for what had to be assumed.
export const ENGINE_COMMANDS = new Set(["CreateGame", "CreateRematch", "JoinGame", "LeaveGame", "StartGame", "ScoreGame"]);

function isPlayersMove(m) {
  return m.seat !== null && m.timeout !== true && m.bot === undefined && !m.lifecycle && !ENGINE_COMMANDS.has(m.command.type);
}

function checkSeats(ctx) {
  const holders = new Map();
  const host = ctx.created.data.host;
  let moves = 0;
  let current = null;
  for (const e of ctx.events) {
    const v = e.version.text;
    const m = e.metadata;
    const d = isObject(e.data) ? e.data : {};
    const at = m.decided_at.int();
    const first = at !== current;
    current = at;
    if (e.type === "GameCreated" && m.actor !== host) return { ok: false, version: v, reason: "GameCreated by another than its host" };
    if (e.type === "SeatTaken") {
      if (typeof d.seat !== "string" || typeof d.player !== "string") return { ok: false, version: v, reason: "SeatTaken without a seat and a player" };
      if (holders.has(d.seat)) return { ok: false, version: v, reason: `seat ${d.seat} taken while ${holders.get(d.seat)} holds it` };
      if ((m.command.type === "JoinGame" || m.command.type === "CreateGame") && d.player !== m.actor)
        return { ok: false, version: v, reason: `seat ${d.seat} taken for ${d.player} by ${m.actor}` };
      holders.set(d.seat, d.player);
    } else if (e.type === "SeatLeft") {
      if (holders.get(d.seat) !== m.actor) return { ok: false, version: v, reason: `seat ${d.seat} left by ${m.actor}, who does not hold it` };
      holders.delete(d.seat);
    } else if (e.type === "PlayersSeated") {
      const players = isObject(d.players) ? d.players : {};
      for (const [seat, player] of Object.entries(players))
        if (holders.has(seat) && holders.get(seat) !== player) return { ok: false, version: v, reason: `PlayersSeated gives seat ${seat} to ${player}, held by ${holders.get(seat)}` };
      for (const [seat, player] of Object.entries(players)) holders.set(seat, player);
    } else if (e.type === "SeatReplaced") {
      if (typeof d.seat === "string" && typeof d.player === "string") holders.set(d.seat, d.player);
    }
    if (first && isPlayersMove(m)) {
      moves++;
      if (holders.get(m.seat) !== m.actor) return { ok: false, version: v, reason: `a move of seat ${m.seat} by ${m.actor}, who does not hold it (${holders.get(m.seat) ?? "nobody"} does)` };
    }
  }
  return { ok: true, reason: `${moves} moves, each by the holder of its seat` };
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
  { name: "seats", section: "5", run: checkSeats },
  { name: "end", section: "5", run: checkEnd },
];
