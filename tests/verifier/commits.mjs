// Sections 5.7 (what a commit records of its result) and 5.8 (the end) of
// "Verifying a game", and the list of section 5's checks in order.

import { JNum, canonicalJSON } from "./json.mjs";
import { Seats, isObject } from "./seats.mjs";
import { checkBatches, checkMetadata, checkSeats, fail, notRun } from "./rules.mjs";

const isInt = (v) => v instanceof JNum && v.isInteger();

// 5.7: at each event carrying to_act, with the state folded through it.
function checkCommits(ctx) {
  const stop = notRun(ctx);
  if (stop) return stop;
  if (!ctx.events.some((e) => "to_act" in e.metadata)) return { ok: true, skipped: true, reason: "5.7: no event records to_act (a game recorded before these members existed)" };
  const s = new Seats(ctx.created);
  const firstOfBatch = new Map((ctx.batches ?? []).map((b) => [b.events[0], b]));
  let previousToAct = null;
  let pending = []; // events since the last commit's end
  let commits = 0;
  let previousEvent = null;
  for (const e of ctx.events) {
    const m = e.metadata;
    const v = e.version.text;
    s.fold(e);
    const b = firstOfBatch.get(e);
    if (b && ["move", "bot", "timeout"].includes(b.kind) && previousEvent && "to_act" in previousEvent.metadata && !previousEvent.metadata.to_act.includes(m.seat))
      return fail(v, `5.7: a ${b.kind} of seat ${m.seat}, which was not to act (${previousEvent.metadata.to_act.join(", ") || "nobody"})`);
    pending.push(e);
    previousEvent = e;
    if (!("to_act" in m)) continue;
    commits++;
    const toAct = m.to_act;
    const sorted = [...toAct].sort();
    if (toAct.some((x, i) => x !== sorted[i] || (i > 0 && x === toAct[i - 1])) || toAct.some((x) => !s.seats.includes(x)))
      return fail(v, "5.7: to_act is not a sorted list of distinct seats of the game");
    if (toAct.length && s.status !== "active") return fail(v, `5.7: seats to act while the game is ${s.status}`);
    const came = toAct.filter((x) => !(previousToAct ?? []).includes(x));
    // turn_came: sorted, distinct, among the seats newly to act, and holding every one of them a player plays.
    const told = Array.isArray(m.turn_came) ? m.turn_came : null;
    const players = came.filter((x) => s.holders.has(x) && !s.bots.has(x));
    if (!told || told.some((x, i) => typeof x !== "string" || (i > 0 && x <= told[i - 1]) || !came.includes(x))
        || players.some((x) => !told.includes(x)))
      return fail(v, `5.7: turn_came is not the seats newly to act that players play (${players.join(", ") || "none"}), with perhaps some of the bots' among them`);
    const holders = canonicalJSON(s.holdersObject());
    if (!("seated" in m)) return fail(v, "5.7: a commit's last event without seated");
    for (const p of pending) if ("seated" in p.metadata && canonicalJSON(p.metadata.seated) !== holders) return fail(p.version.text, "5.7: seated is not the seats' holders after the commit");
    previousToAct = toAct;
    pending = [];
  }
  for (const p of pending) if ("seated" in p.metadata || "turn_came" in p.metadata) return fail(p.version.text, "5.7: seated or turn_came that no to_act closes");
  return { ok: true, reason: `5.7: ${commits} commits, each recording whose turn it is and who holds each seat` };
}

// 5.8: a finished game's export ends in its standings, which rank every
// seat once, the resigned last.
function checkEnd(ctx) {
  const stop = notRun(ctx);
  if (stop) return stop;
  const s = new Seats(ctx.created);
  let over = null;
  let scored = null;
  for (const e of ctx.events) {
    if (scored && e.type !== "RematchCreated") return fail(e.version.text, `5.8: ${e.type} after the standings`);
    if (e.type === "GameOver") over = e;
    if (e.type === "GameScored") scored = e;
    s.fold(e);
  }
  if (s.status === "cancelled") return { ok: true, reason: "5.8: the game was cancelled or aborted" };
  const last = ctx.events[ctx.events.length - 1].version.text;
  if (!over) return fail(last, "5.8: no GameOver, and the game was not cancelled: not a finished game's export");
  if (!scored) return fail(last, "5.8: the export does not end in the standings (GameScored): cut off?");
  const standings = isObject(scored.data) && Array.isArray(scored.data.standings) ? scored.data.standings : null;
  const v = scored.version.text;
  if (!standings || !standings.every((x) => isObject(x) && typeof x.seat === "string" && isInt(x.rank) && x.rank.int() >= 1n))
    return fail(v, "5.8: the standings are not a list of {seat, rank ≥ 1}");
  const ranked = standings.map((x) => x.seat);
  if (ranked.length !== s.seats.length || [...ranked].sort().join("\n") !== [...s.seats].sort().join("\n")) return fail(v, "5.8: the standings do not rank every seat exactly once");
  const resigned = [...s.resigned].reverse();
  const tail = ranked.slice(ranked.length - resigned.length);
  if (resigned.length && tail.join("\n") !== resigned.join("\n")) return fail(v, "5.8: the seats that resigned are not last, the last to resign first");
  for (const x of standings) {
    const detail = isObject(x.detail) ? x.detail : {};
    if ((detail.resigned === true) !== s.resigned.includes(x.seat)) return fail(v, `5.8: seat ${x.seat}'s detail.resigned is not whether it resigned`);
    const abandoned = s.abandoned.includes(x.seat) && !s.resigned.includes(x.seat);
    if ((detail.abandoned === true) !== abandoned) return fail(v, `5.8: seat ${x.seat}'s detail.abandoned is not whether it was abandoned`);
  }
  if (s.agreed === "as-it-stands") {
    // Ended by agreement as it stands: ranked by the scores alone, equal ones sharing a place; all first without numbers.
    const standing = standings.filter((x) => !s.resigned.includes(x.seat));
    const numbers = standing.every((x) => x.score instanceof JNum);
    for (const x of standing) {
      const due = numbers ? 1 + standing.filter((y) => y.score.float() > x.score.float()).length : 1;
      if (x.rank.int() !== BigInt(due)) return fail(v, `5.8: seat ${x.seat} ranks ${x.rank.text} in a game ended as it stands, where its score gives ${due}`);
    }
  }
  const table = standings.map((x) => `${x.rank.text} ${x.seat} (${x.score instanceof JNum ? x.score.text : x.score ?? "-"}; ${s.holders.get(x.seat) ?? "no player"}${s.resigned.includes(x.seat) ? ", resigned" : ""}${s.abandoned.includes(x.seat) ? ", abandoned" : ""})`);
  return { ok: true, reason: `5.8: GameOver at version ${over.version.text}, standings at ${v}: ${table.join(", ")}` };
}

export const RULE_CHECKS = [
  { name: "metadata", section: "5.0", run: checkMetadata },
  { name: "batches", section: "5.2", run: checkBatches },
  { name: "seats", section: "5.1-5.6", run: checkSeats },
  { name: "commits", section: "5.7", run: checkCommits },
  { name: "end", section: "5.8", run: checkEnd },
];
