// Section 5.1 and 5.2 of "Verifying a game": the seats folded from the
// engine's events, and the batches of a log with their kinds.

import { JNum, canonicalJSON } from "./json.mjs";

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof JNum);

// Section 5: the engine's event types; any other type is the game's own.
// SeedContributed (section 4.2) is not in section 5's list: see SPEC_GAPS.md.
export const ENGINE_EVENTS = new Set([
  "GameCreated", "SeatTaken", "SeatLeft", "GameCancelled", "PlayersSeated", "TurnTimedOut", "GameOver",
  "GameScored", "BotSeated", "SeatResigned", "GameAborted", "SeatAbandoned", "InviteIssued", "InviteRedeemed",
  "SeatReplaced", "RematchInvited", "RematchCreated", "ClocksComputed", "SeedContributed",
  "SeatAway", "SeatBack", "PauseAsked", "GamePaused", "GameResumed", "TakebackAsked", "TakebackAccepted",
  "TakebackRefused", "TakenBack", "TimeGiven", "EndProposed", "EndAccepted", "EndWithdrawn", "EndAgreed",
]);

export const LIFECYCLE_KINDS = new Set(["ResignSeat", "AbortGame", "IssueInvite", "RedeemInvite", "CreateRematch", "AbandonSeat", "ComputeClocks",
  "MarkAway", "ReturnSeat", "AskPause", "ResumeGame", "AskTakeback", "AcceptTakeback", "RefuseTakeback", "GiveTime",
  "ProposeEnd", "AcceptEnd", "WithdrawEnd"]);
export const ENGINE_COMMANDS = new Set(["CreateGame", "JoinGame", "LeaveGame", "StartGame", "ScoreGame"]);

// 5.1: the state, and how each engine event changes it.
export class Seats {
  constructor(created) {
    const d = created.data;
    this.seats = Array.isArray(d.seats) ? d.seats : [];
    this.game = d.game;
    this.host = d.host;
    this.options = isObject(d.options) ? d.options : Object.create(null);
    this.status = "lobby";
    this.holders = new Map(); // insertion order is "when the entry was added"
    this.bots = new Map();
    this.resigned = [];
    this.abandoned = [];
    this.invites = new Map();
    this.spent = new Set();
    this.rematch = null;
    this.away = new Set();
    this.pauseAsked = new Set();
    this.given = new Map(); // seat -> the seconds its player gave others (TimeGiven)
    this.paused = false;
    this.takeback = null; // {seat, version, accepted: Set}
    this.proposal = null; // the open proposal to end the game: {seat, ending, accepted: Set}
    this.agreed = null; // the ending its players agreed on (EndAgreed)
    this.lastMove = null; // {kind, seat, decidedAt, draws} of the last move, bot, timeout or StartGame batch
    const rv = d.randomness_version;
    this.randomnessVersion = rv instanceof JNum && rv.isInteger() ? rv.int() : 1n;
  }

  // The seats a player plays: held, and neither a bot's nor resigned.
  playing() {
    return [...this.holders.keys()].filter((seat) => !this.bots.has(seat) && !this.resigned.includes(seat));
  }

  holdersObject() {
    const o = Object.create(null);
    for (const [seat, player] of this.holders) o[seat] = player;
    return o;
  }

  holdsAny(player) {
    for (const p of this.holders.values()) if (p === player) return true;
    return false;
  }

  seatOf(player) {
    for (const [seat, p] of this.holders) if (p === player) return seat;
    return null;
  }

  fold(e) {
    const d = isObject(e.data) ? e.data : Object.create(null);
    switch (e.type) {
      case "SeatTaken":
        this.holders.delete(d.seat);
        this.holders.set(d.seat, d.player);
        break;
      case "SeatLeft":
        this.holders.delete(d.seat);
        if (d.new_host !== null && d.new_host !== undefined) this.host = d.new_host;
        break;
      case "GameCancelled":
      case "GameAborted":
        this.status = "cancelled";
        break;
      case "PlayersSeated":
        this.status = "active";
        this.holders = new Map(isObject(d.players) ? Object.entries(d.players) : []);
        break;
      case "GameOver":
        this.status = "scoring";
        break;
      case "GameScored":
        this.status = "finished";
        break;
      case "BotSeated":
        this.bots.set(d.seat, d.kind);
        break;
      case "SeatResigned":
        this.resigned.push(d.seat);
        if (d.bot !== null && d.bot !== undefined) this.bots.set(d.seat, d.bot);
        break;
      case "SeatAbandoned":
        this.bots.set(d.seat, d.bot);
        this.abandoned.push(d.seat);
        break;
      case "InviteIssued":
        this.invites.set(d.code_sha256, d.seat ?? null);
        break;
      case "InviteRedeemed":
        this.invites.delete(d.code_sha256);
        this.spent.add(d.code_sha256);
        break;
      case "SeatReplaced":
        if (this.holders.has(d.seat)) this.holders.set(d.seat, d.player); // keeps its place
        else this.holders.set(d.seat, d.player);
        this.bots.delete(d.seat);
        this.abandoned = this.abandoned.filter((s) => s !== d.seat);
        break;
      case "RematchCreated":
        this.rematch = d.game_id;
        break;
      case "SeatAway":
        this.away.add(d.seat);
        break;
      case "SeatBack":
        this.away.delete(d.seat);
        break;
      case "PauseAsked":
        this.pauseAsked.add(d.seat);
        break;
      case "GamePaused":
        this.paused = true;
        break;
      case "GameResumed":
        this.paused = false;
        this.pauseAsked = new Set();
        break;
      case "TimeGiven":
        this.given.set(d.seat, (this.given.get(d.seat) ?? 0) + (d.seconds instanceof JNum ? d.seconds.float() : NaN));
        break;
      case "EndProposed":
        this.proposal = { seat: d.seat, ending: d.ending, accepted: new Set() };
        break;
      case "EndAccepted":
        if (this.proposal) this.proposal.accepted.add(d.seat);
        break;
      case "EndWithdrawn":
        this.proposal = null;
        break;
      case "EndAgreed":
        this.proposal = null;
        this.agreed = d.ending;
        if (d.ending === "cancelled") this.status = "cancelled";
        break;
      case "TakebackAsked":
        this.takeback = { seat: d.seat, version: d.version, accepted: new Set() };
        break;
      case "TakebackAccepted":
        if (this.takeback) this.takeback.accepted.add(d.seat);
        break;
      case "TakebackRefused":
        this.takeback = null;
        break;
      case "TakenBack":
        this.takeback = null;
        this.lastMove = null;
        break;
      default:
        if (!ENGINE_EVENTS.has(e.type)) this.takeback = null; // a move by anyone ends the request
    }
  }
}

// 5.2: maximal runs of events agreeing on decided_at, seat, timeout and
// command; each with its kind.
export function batchesOf(events) {
  const batches = [];
  let key = null;
  for (const e of events) {
    const m = e.metadata;
    const k = canonicalJSON([m.decided_at, m.seat, m.timeout === true, m.command]);
    if (k !== key) {
      batches.push({ events: [e], start: e.version.int() });
      key = k;
    } else batches[batches.length - 1].events.push(e);
  }
  for (const b of batches) b.kind = kindOf(b);
  return batches;
}

function kindOf(batch) {
  const m = batch.events[0].metadata;
  const type = m.command.type;
  if (batch.start === 1n) return "create";
  if (m.timeout === true) return "timeout";
  if (m.bot !== null && m.bot !== undefined) return "bot";
  if (m.lifecycle === true && LIFECYCLE_KINDS.has(type)) return type;
  if (ENGINE_COMMANDS.has(type)) return type;
  if (type === "ContributeRandomness") return type; // section 4.2's batch, see SPEC_GAPS.md
  return "move";
}
