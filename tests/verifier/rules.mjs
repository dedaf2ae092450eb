// Section 5 of "Verifying a game": the rules every game obeys, checked from
// the engine's events and the metadata alone, without the games' rules.
// Each check names its rule (5.0 ... 5.8) and the version it concerns.

import { JNum, canonicalJSON } from "./json.mjs";
import { ENGINE_EVENTS, Seats, batchesOf, isObject } from "./seats.mjs";

const isInt = (v) => v instanceof JNum && v.isInteger();
const isBool = (v) => v === true || v === false;
const isStrings = (v) => Array.isArray(v) && v.every((s) => typeof s === "string");
const isPlayer = (actor) => actor !== "system" && !actor.startsWith("bot:");
const fail = (version, reason) => ({ ok: false, version: String(version), reason });

// 5.0: on the first metadata that fails, the rest of section 5 is not run.
function checkMetadata(ctx) {
  for (const e of ctx.events) {
    const m = e.metadata;
    const bad = (what) => {
      ctx.metadataBroken = true;
      return fail(e.version.text, `5.0: metadata.${what}`);
    };
    if (typeof m.actor !== "string") return bad("actor is not a string");
    if (!("seat" in m) || (m.seat !== null && typeof m.seat !== "string")) return bad("seat is not a string or null");
    if (!isObject(m.command) || typeof m.command.type !== "string") return bad("command is not an object with a string type");
    if (!isInt(m.decided_at) || m.decided_at.int() < 0n) return bad("decided_at is not an integer ≥ 0");
    if ("timeout" in m && !isBool(m.timeout)) return bad("timeout is not true or false");
    if ("lifecycle" in m && !isBool(m.lifecycle)) return bad("lifecycle is not true or false");
    if ("bot" in m && m.bot !== null && typeof m.bot !== "string") return bad("bot is not a string or null");
    if ("to_act" in m && !isStrings(m.to_act)) return bad("to_act is not an array of strings");
    if ("turn_came" in m && !isStrings(m.turn_came)) return bad("turn_came is not an array of strings");
    if ("seated" in m && !(isObject(m.seated) && Object.values(m.seated).every((p) => typeof p === "string"))) return bad("seated is not an object of strings");
  }
  return { ok: true, reason: "5.0: every event's metadata has the members and types it must" };
}

const notRun = (ctx) => (ctx.metadataBroken ? { ok: false, version: null, reason: "not run: the metadata is malformed (5.0)" } : null);

// 5.2: a batch starting at v was decided on v - 1 (a ComputeClocks batch on
// its commit's version, at most v - 1).
function checkBatches(ctx) {
  const stop = notRun(ctx);
  if (stop) return stop;
  ctx.batches = batchesOf(ctx.events);
  for (const b of ctx.batches) {
    const at = b.events[0].metadata.decided_at.int();
    const ok = b.kind === "ComputeClocks" ? at <= b.start - 1n : at === b.start - 1n;
    if (!ok) return fail(b.start, `5.2: a ${b.kind} batch at version ${b.start} decided at version ${at}, not ${b.start - 1n}`);
  }
  return { ok: true, reason: `5.2: ${ctx.batches.length} batches, each decided on the version before it` };
}

// 5.3: the events each kind of batch holds, as a pattern over their types
// (G: one of the game's own events).
const HOLDS = {
  create: /^GameCreated SeatTaken( BotSeated)*( RematchInvited)?$/,
  JoinGame: /^SeatTaken$/,
  LeaveGame: /^SeatLeft( GameCancelled)?$/,
  StartGame: /^PlayersSeated( G)*$/,
  move: /^G( G)*( GameOver)?$/,
  bot: /^G( G)*( GameOver)?$/,
  timeout: /^TurnTimedOut( G)*( GameOver)?$/,
  ResignSeat: /^SeatResigned( G)*( GameOver)?$/,
  AbortGame: /^GameAborted$/,
  IssueInvite: /^InviteIssued$/,
  RedeemInvite: /^InviteRedeemed (SeatTaken|SeatReplaced)$/,
  CreateRematch: /^RematchCreated$/,
  AbandonSeat: /^SeatAbandoned( SeatAbandoned)*$/,
  ComputeClocks: /^ClocksComputed$/,
  ScoreGame: /^GameScored$/,
  ContributeRandomness: /^SeedContributed$/,
  MarkAway: /^SeatAway$/,
  ReturnSeat: /^SeatBack$/,
  AskPause: /^PauseAsked( GamePaused)?$/,
  ResumeGame: /^GameResumed$/,
  AskTakeback: /^TakebackAsked$/,
  AcceptTakeback: /^TakebackAccepted( TakenBack)?$/,
  RefuseTakeback: /^TakebackRefused$/,
  GiveTime: /^TimeGiven$/,
  ProposeEnd: /^EndProposed( EndAgreed( GameOver)?)?$/,
  AcceptEnd: /^EndAccepted( EndAgreed( GameOver)?)?$/,
  WithdrawEnd: /^EndWithdrawn$/,
};

// 5.4: the kinds each status takes.
const TAKES = {
  lobby: ["JoinGame", "LeaveGame", "StartGame", "IssueInvite", "RedeemInvite", "ContributeRandomness"],
  active: ["move", "bot", "timeout", "ResignSeat", "AbortGame", "IssueInvite", "RedeemInvite", "AbandonSeat", "ComputeClocks",
    "MarkAway", "ReturnSeat", "AskPause", "ResumeGame", "AskTakeback", "AcceptTakeback", "RefuseTakeback", "GiveTime",
    "ProposeEnd", "AcceptEnd", "WithdrawEnd"],
  scoring: ["ScoreGame", "CreateRematch"],
  finished: ["CreateRematch"],
  cancelled: [],
};

// 5.6: the hosted games in which some seat holds private information from the start.
const DEALT_AT_START = new Set(["coronation", "court-of-miracles", "the-coil"]);
const SEAT_LIFE = new Set(["ResignSeat", "AbortGame", "IssueInvite", "RedeemInvite", "CreateRematch", "AbandonSeat", "ComputeClocks", "ContributeRandomness",
  "MarkAway", "ReturnSeat", "AskPause", "ResumeGame", "AskTakeback", "AcceptTakeback", "RefuseTakeback", "GiveTime",
  "ProposeEnd", "AcceptEnd", "WithdrawEnd"]);

// 5.5: who may cause the batch, with the state folded before it; a
// sentence when not, else null.
function actorProblem(b, s) {
  const m = b.events[0].metadata;
  if (["move", "bot", "timeout"].includes(b.kind) && s.paused) return `a ${b.kind} while the game is paused`;
  if (b.kind === "timeout" && s.away.has(m.seat)) return `a timeout of seat ${m.seat}, which is away`;
  return kindProblem(b, s);
}

// A player holding the batch's seat, playing it, named with its seat by the first event (5.5).
function holderNamed(s, b, m, first) {
  if (!isPlayer(m.actor) || s.holders.get(m.seat) !== m.actor) return `${b.kind} of seat ${m.seat} by ${m.actor}, who does not hold it`;
  if (s.bots.has(m.seat) || s.resigned.includes(m.seat)) return `${b.kind} of seat ${m.seat}, which a bot plays or which resigned`;
  return first.seat === m.seat && first.player === m.actor ? null : `${b.events[0].type} does not name the seat and its holder`;
}

const AS_IT_STANDS = "Ended by agreement of its players, as it stands: ";
const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));

function kindProblem(b, s) {
  const m = b.events[0].metadata;
  const first = isObject(b.events[0].data) ? b.events[0].data : {};
  const actor = m.actor;
  const seat = m.seat;
  const types = b.events.map((e) => e.type);
  const data = (type) => b.events.find((e) => e.type === type)?.data ?? {};
  const joinProblem = (taken) => {
    if (taken.player !== actor) return `the seat is taken for ${taken.player}, not the actor ${actor}`;
    if (s.holdsAny(actor)) return `${actor} already holds a seat`;
    if (!s.seats.includes(taken.seat) || s.holders.has(taken.seat) || s.bots.has(taken.seat)) return `seat ${taken.seat} is not a free seat of the game`;
    return null;
  };
  switch (b.kind) {
    case "create": {
      if (m.command.type !== "CreateGame" && m.command.type !== "CreateRematch") return "the first batch is not CreateGame or CreateRematch";
      if ((m.command.type === "CreateRematch") !== types.includes("RematchInvited")) return "a rematch is created with one RematchInvited, and only a rematch";
      if (actor !== s.host) return `created by ${actor}, not its host ${s.host}`;
      return data("SeatTaken").player === actor ? null : "the host's SeatTaken names another player";
    }
    case "JoinGame":
      if (!isPlayer(actor) || seat !== null) return "a JoinGame is a player's, with seat null";
      return joinProblem(first);
    case "LeaveGame": {
      if (!isPlayer(actor) || seat !== null) return "a LeaveGame is a player's, with seat null";
      if (first.player !== actor || s.holders.get(first.seat) !== actor) return `${actor} leaves seat ${first.seat}, which they do not hold`;
      const cancelled = types.includes("GameCancelled");
      if (actor !== s.host) return first.new_host === null && !cancelled ? null : "only the host's leaving names a new host or cancels";
      const other = [...s.holders.values()].find((p) => p !== actor) ?? null;
      if ((first.new_host ?? null) !== other) return `the new host is ${first.new_host}, not the first other player seated (${other})`;
      return cancelled === (other === null) ? null : "the game is cancelled exactly when the host leaves nobody else seated";
    }
    case "StartGame": {
      if (actor !== s.host || seat !== null) return `started by ${actor}, not the host ${s.host}`;
      const empty = s.seats.filter((x) => !s.holders.has(x) && !s.bots.has(x));
      if (empty.length) return `seats ${empty.join(", ")} are neither held nor a bot's`;
      return canonicalJSON(first.players) === canonicalJSON(s.holdersObject()) ? null : "PlayersSeated.players is not the seats' holders";
    }
    case "IssueInvite":
      if (actor !== s.host) return `an invite issued by ${actor}, not the host`;
      if (seat !== s.seatOf(actor)) return "the invite's batch is not of the seat its host holds";
      return (first.seat ?? null) === (m.command.seat ?? null) ? null : "InviteIssued.seat is not the command's seat";
    case "RedeemInvite": {
      if (!isPlayer(actor) || first.player !== actor) return "an invite redeemed by another than its actor";
      if (!s.invites.has(first.code_sha256)) return "an invite redeemed that was not issued, or is spent";
      const invited = s.invites.get(first.code_sha256);
      if (s.status === "lobby") {
        const taken = data("SeatTaken");
        const p = joinProblem(taken);
        if (p) return p;
        if (invited !== null && taken.seat !== invited) return `the invite is for seat ${invited}, not ${taken.seat}`;
        return taken.seat === seat ? null : "the batch's seat is not the seat taken";
      }
      const replaced = data("SeatReplaced");
      if (invited === null || !s.bots.has(invited) || s.resigned.includes(invited)) return `seat ${invited} is not a bot's seat free to replace`;
      if (s.holdsAny(actor) && s.seatOf(actor) !== invited) return `${actor} holds another seat`;
      const expected = { seat: invited, player_before: s.holders.get(invited) ?? null, player: actor };
      if (canonicalJSON(replaced) !== canonicalJSON(expected)) return "SeatReplaced is not {seat, player_before, player} of the invite";
      return seat === invited ? null : "the batch's seat is not the invite's";
    }
    case "move":
      if (!isPlayer(actor) || seat === null) return "a move is a player's, for a seat";
      if (s.holders.get(seat) !== actor) return `a move of seat ${seat} by ${actor}, who does not hold it (${s.holders.get(seat) ?? "nobody"} does)`;
      if (s.resigned.includes(seat)) return `a move of seat ${seat}, which resigned`;
      return s.bots.has(seat) ? `a player's move of seat ${seat}, which a bot plays` : null;
    case "ResignSeat":
    case "AbortGame": {
      if (!isPlayer(actor) || s.holders.get(seat) !== actor) return `${b.kind} of seat ${seat} by ${actor}, who does not hold it`;
      if (s.resigned.includes(seat)) return `seat ${seat} resigned already`;
      return first.seat === seat && first.player === actor ? null : `${types[0]} does not name the seat and its holder`;
    }
    case "CreateRematch":
      return isPlayer(actor) && s.holders.get(seat) === actor ? null : "a rematch asked for by a player who does not hold the batch's seat";
    case "bot":
      return actor === "bot:" + m.bot && s.bots.get(seat) === m.bot ? null : `a bot's move by ${actor} for seat ${seat}, whose bot is ${s.bots.get(seat) ?? "none"}`;
    case "timeout":
      if (actor !== "system" || seat === null) return "a timeout is the system's, for a seat";
      return first.seat === seat && isInt(first.deadline_version) && first.deadline_version.int() === m.decided_at.int() ? null : "TurnTimedOut is not of the batch's seat and deadline";
    case "AbandonSeat":
    case "ScoreGame":
      return actor === "system" && seat === null ? null : `${b.kind} is the system's, with seat null`;
    case "ComputeClocks": {
      if (actor !== "system" || seat !== null) return "ComputeClocks is the system's, with seat null";
      const o = s.options;
      const bank = o.time_bank_seconds instanceof JNum && o.time_bank_seconds.float() !== 0;
      return bank || (o.deadline_per_seat === true && o.turn_seconds !== null && o.turn_seconds !== undefined) ? null : "clocks computed in a game that keeps none";
    }
    case "ContributeRandomness":
      return isPlayer(actor) && s.holders.get(seat) === actor ? null : "a contribution by another than the seat's holder";
    case "MarkAway":
    case "ReturnSeat": {
      if (actor !== "system" || first.seat !== seat) return `${b.kind} is the system's, naming the batch's seat`;
      if (b.kind === "ReturnSeat") return s.away.has(seat) ? null : `seat ${seat} comes back without being away`;
      const o = s.options;
      if (o.absences === "forbidden") return "an absence in a game that forbids them";
      const clocked = (o.turn_seconds !== null && o.turn_seconds !== undefined) || (o.time_bank_seconds !== null && o.time_bank_seconds !== undefined);
      if (!clocked) return "an absence in a game without deadlines or banks";
      if (!s.holders.has(seat) || s.bots.has(seat) || s.resigned.includes(seat) || s.away.has(seat)) return `seat ${seat} cannot be away`;
      return typeof first.since === "string" && typeof first.until === "string" && first.since < first.until ? null : "an absence whose since is not before its until";
    }
    case "GiveTime": {
      const problem = holderNamed(s, b, m, first);
      if (problem) return problem;
      const o = s.options;
      const bank = o.time_bank_seconds instanceof JNum && o.time_bank_seconds.float() !== 0;
      const clocked = bank || (o.deadline_per_seat === true && o.turn_seconds !== null && o.turn_seconds !== undefined);
      if (!clocked || s.paused) return "time given in a game that keeps no clocks, or while it is paused";
      const to = first.to_seat;
      if (to === seat || !s.seats.includes(to) || s.holders.get(to) === actor) return `time given to ${to}, not another player's seat`;
      const seconds = isInt(first.seconds) ? first.seconds.float() : NaN;
      if (!(seconds >= 60) || (s.given.get(seat) ?? 0) + seconds > 86400) return `a gift of ${seconds} s: under 60 s, or beyond the day a seat may give in a game`;
      return null;
    }
    case "ProposeEnd":
    case "AcceptEnd":
    case "WithdrawEnd": {
      const problem = holderNamed(s, b, m, first);
      if (problem) return problem;
      let p = s.proposal;
      if (b.kind === "ProposeEnd") {
        if (p !== null) return "an ending proposed while another proposal is open";
        if (!["cancelled", "as-it-stands"].includes(first.ending) || first.ending !== m.command.ending) return `an ending ${first.ending} that is not cancelled or as-it-stands, or not the command's`;
        p = { seat, ending: first.ending, accepted: new Set() };
      } else if (p === null) return `${b.kind} with no proposal to end the game open`;
      if (b.kind === "WithdrawEnd") return null;
      if (b.kind === "AcceptEnd" && (seat === p.seat || p.accepted.has(seat))) return `seat ${seat} accepts a proposal it made, or accepted already`;
      const all = s.playing().every((x) => x === p.seat || x === seat || p.accepted.has(x));
      const agreed = b.events[1];
      if (all !== (agreed !== undefined) || (agreed && agreed.data.ending !== p.ending)) return "EndAgreed does not come exactly when every player has accepted, or names another ending";
      if (all && types.includes("GameOver") !== (p.ending === "as-it-stands")) return "GameOver does not come exactly when the game ends as it stands";
      const over = types.includes("GameOver") ? b.events[b.events.length - 1].data : null;
      return over === null || String(over.outcome).startsWith(AS_IT_STANDS) ? null : "the GameOver of a game ended by agreement does not say so";
    }
    case "AskPause":
    case "ResumeGame": {
      const problem = holderNamed(s, b, m, first);
      if (problem) return problem;
      if (b.kind === "ResumeGame") return s.paused ? null : "a resume of a game that is not paused";
      if (s.paused || s.pauseAsked.has(seat)) return "a pause asked twice, or of a paused game";
      const everyone = sameSet(s.playing(), [...s.pauseAsked, seat]);
      return everyone === types.includes("GamePaused") ? null : "GamePaused does not come exactly when every player has asked";
    }
    case "AskTakeback":
    case "AcceptTakeback":
    case "RefuseTakeback": {
      const problem = holderNamed(s, b, m, first);
      if (problem) return problem;
      if (b.kind === "AskTakeback") {
        if (s.options.takebacks !== "with-consent") return "a takeback in a game that takes none";
        if (!(s.randomnessVersion >= 2n)) return "a takeback in a game of randomness version 1";
        if (s.takeback !== null) return "a takeback asked while another is open";
        const last = s.lastMove;
        const ok = last && last.kind === "move" && last.seat === seat && isInt(first.version) && last.decidedAt === first.version.int() && !last.draws;
        return ok ? null : "a takeback of another than the seat's own last move, or of one that drew";
      }
      const t = s.takeback;
      if (t === null || seat === t.seat || t.accepted.has(seat)) return `${b.kind} with no takeback open to seat ${seat}`;
      if (b.kind === "RefuseTakeback") return null;
      if (!isInt(first.version) || !isInt(t.version) || first.version.int() !== t.version.int()) return "a takeback accepted for another version";
      const others = s.playing().filter((x) => x !== t.seat);
      const all = sameSet(others, [...t.accepted, seat]);
      const back = b.events[1];
      if (all !== (back !== undefined)) return "TakenBack does not come exactly when every other player has accepted";
      return back === undefined || (isInt(back.data.version) && back.data.version.int() === t.version.int()) ? null : "TakenBack returns to another version";
    }
  }
  return `a batch of unknown kind ${b.kind}`;
}

// 5.1, 5.3-5.6: the batches in order, with the seats folded before each.
function checkSeats(ctx) {
  const stop = notRun(ctx);
  if (stop) return stop;
  if (!ctx.batches) return { ok: false, version: null, reason: "not run: the batches are not known (5.2)" };
  const s = new Seats(ctx.created);
  const acted = new Set();
  const streak = new Map();
  ctx.folded = s;
  let moves = 0;
  for (const b of ctx.batches) {
    const v = b.start;
    const pattern = b.events.map((e) => (ENGINE_EVENTS.has(e.type) ? e.type : "G")).join(" ");
    if (!HOLDS[b.kind].test(pattern)) return fail(v, `5.3: a ${b.kind} batch holds ${b.events.map((e) => e.type).join(", ")}`);
    if (b.kind !== "create" && !TAKES[s.status].includes(b.kind)) return fail(v, `5.4: a ${b.kind} batch while the game is ${s.status}`);
    if (b.kind === "CreateRematch" && s.rematch !== null) return fail(v, "5.4: a second rematch");
    const problem = actorProblem(b, s);
    if (problem) return fail(v, `5.5: ${problem}`);
    const seat = b.events[0].metadata.seat;
    if (b.kind === "AbortGame" && s.seats.every((x) => acted.has(x) || s.resigned.includes(x))) return fail(v, "5.6: an abort after every seat has acted or resigned");
    if (b.kind === "AbortGame" && s.options.no_abort_once_dealt === true && DEALT_AT_START.has(s.game)) return fail(v, "5.6: an abort once private information was dealt");
    if (b.kind === "AbandonSeat") {
      const limit = s.options.abandon_after instanceof JNum ? s.options.abandon_after.int() : 3n;
      for (const e of b.events) {
        const d = e.data;
        const count = BigInt(streak.get(d.seat) ?? 0);
        if (limit <= 0n) return fail(e.version.text, "5.6: an abandonment in a game that abandons nobody");
        if (d.player !== s.holders.get(d.seat) || s.bots.has(d.seat)) return fail(e.version.text, `5.6: seat ${d.seat} abandoned for another than its player, or a bot's`);
        if (!isInt(d.timeouts) || d.timeouts.int() !== count || count < limit) return fail(e.version.text, `5.6: seat ${d.seat} abandoned after ${d.timeouts} timeouts, its streak on record is ${count} (at least ${limit} needed)`);
      }
    }
    if (b.kind === "move" || b.kind === "bot") moves++;
    for (const e of b.events) s.fold(e);
    if (["move", "bot", "timeout", "StartGame"].includes(b.kind))
      s.lastMove = { kind: b.kind, seat, decidedAt: b.events[0].metadata.decided_at.int(), draws: isObject(b.events[0].metadata.draws) && Object.keys(b.events[0].metadata.draws).length > 0 };
    const step = b.events[0].metadata.timeout_step;
    const laterStep = b.kind === "timeout" && isInt(step) && step.int() >= 2n; // the same missed turn as the step before
    if (seat !== null && !laterStep) {
      if (b.kind === "RedeemInvite") streak.set(seat, 0);
      else if (!SEAT_LIFE.has(b.kind)) {
        acted.add(seat);
        streak.set(seat, b.kind === "timeout" ? (streak.get(seat) ?? 0) + 1 : 0);
      }
    }
  }
  return { ok: true, reason: `5.1-5.6: ${ctx.batches.length} batches of the kinds their status takes, ${moves} moves each by its seat's holder or bot` };
}

export { checkMetadata, checkBatches, checkSeats, fail, notRun };
