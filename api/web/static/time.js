// @ts-check
// Time at the table: every seat's deadline and time bank, and giving time to
// a player who is to act (POST /v1/games/{id}/time-gifts: his deadline moves
// later and his bank, if the game keeps one, grows by it), as the ending by
// agreement is asked (agreement.js): a button, then a form whose every choice
// is said in a sentence, then the answer or the refusal in words.
import { change, Problem } from "./api.js";
import { duration, h, when } from "./dom.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** What the section reads of the table's view. @typedef {{ status: string, seat?: string | null, to_act: string[], clocks?: Schemas["ViewResponse"]["clocks"] }} Seen */

// The gifts offered: from the least the server takes (a minute) to a day, the most a seat gives in a game.
/** @type {[number, string][]} */
const GIFTS = [[600, "10 minutes"], [3600, "an hour"], [6 * 3600, "6 hours"], [86400, "a day"]];

// Each seat's deadline and bank, by its player's name; the turn's deadline (the summary's).
/**
 * @param {string | null | undefined} deadline the game's next deadline (GameSummary's), while it is active
 * @param {Seen} view @param {(seat: string) => string} who a seat by its player's name
 * @returns {HTMLElement | ""}
 */
export function clocksList(deadline, view, who) {
  const rows = [];
  if (deadline && view.status === "active") rows.push(h("li", {}, `The turn times out at ${when(deadline)}`));
  for (const [seat, clock] of Object.entries((view.clocks && view.clocks.seats) || {})) {
    const parts = [];
    if (clock.bank_seconds !== null && clock.bank_seconds !== undefined) parts.push(`bank ${duration(clock.bank_seconds)}${clock.running ? " (running)" : ""}`);
    if (clock.turn_deadline) parts.push(`deadline ${when(clock.turn_deadline)}`);
    if (parts.length) rows.push(h("li", {}, `${who(seat)}: ${parts.join(", ")}`));
  }
  return rows.length ? h("ul", { "aria-label": "Deadlines and time banks" }, rows) : "";
}

/**
 * The give-time section and what the table calls: `draw` on each redrawing.
 * @param {string} id the game
 * @param {{ as: string | null }} as whose token
 * @param {(seat: string) => string | undefined} nameOf a seat's player by name
 * @param {(problem: unknown) => void} failed how the table shows a failure
 */
export function timeGifts(id, as, nameOf, failed) {
  const section = h("section", { id: "give-time", "aria-labelledby": "give-time-title", hidden: true });
  let choosing = false, busy = false;
  let note = "", said = "";
  /** @type {Seen | null} */
  let seen = null;
  /** @param {string} seat */
  const who = (seat) => nameOf(seat) || seat;

  /** @param {string} seat @param {number} seconds @param {string} amount */
  async function give(seat, seconds, amount) {
    if (busy) return;
    busy = true;
    note = said = "";
    try {
      await change(`/games/${encodeURIComponent(id)}/time-gifts`, { seat, seconds }, as);
      said = `You gave ${who(seat)} ${amount} more.`;
      choosing = false;
    } catch (problem) {
      if (problem instanceof Problem && problem.status < 500 && problem.status !== 401) note = `No time was given: ${problem.message}`;
      else failed(problem);
    }
    busy = false;
    if (seen) draw(seen);
  }

  /** @param {Seen} view */
  function draw(view) {
    seen = view;
    // Another seat to act, with a clock to give time on: the server takes nothing else.
    const others = view.seat && view.status === "active" && view.clocks ? view.to_act.filter((seat) => seat !== view.seat) : [];
    /** @type {(HTMLElement | string)[]} */
    const parts = [];
    if (others.length) {
      parts.push(h("button", { id: "give-time-open", type: "button", "aria-expanded": String(choosing), onclick: () => { choosing = !choosing; draw(view); } },
        "Give time to a player who is to act"));
      if (choosing) parts.push(form(others));
    }
    if (said) parts.push(h("p", { id: "give-time-said", role: "status" }, said));
    if (note) parts.push(h("p", { id: "give-time-note", class: "problem", role: "alert" }, note));
    section.hidden = !parts.length;
    section.replaceChildren(h("h2", { id: "give-time-title" }, "Giving time"), ...parts);
  }

  /** @param {string[]} others */
  function form(others) {
    /** @param {string} name @param {string} value @param {string} title @param {string} sentence @param {boolean} checked */
    const choice = (name, value, title, sentence, checked) => h("div", { class: "agreement-choice" },
      h("input", { type: "radio", name, id: `${name}-${value}`, value, checked, "aria-describedby": `${name}-${value}-says` }),
      h("label", { for: `${name}-${value}` }, title),
      h("p", { id: `${name}-${value}-says`, class: "muted" }, sentence));
    return h("form", {
      id: "give-time-form",
      onsubmit: (e) => {
        e.preventDefault();
        const seat = /** @type {HTMLInputElement | null} */ (section.querySelector("input[name=give-time-to]:checked"));
        const much = /** @type {HTMLInputElement | null} */ (section.querySelector("input[name=give-time-much]:checked"));
        const gift = much && GIFTS.find(([seconds]) => String(seconds) === much.value);
        if (seat && gift) give(seat.value, gift[0], gift[1]);
      },
    },
    h("fieldset", {}, h("legend", {}, "To whom?"), others.map((seat, n) => choice("give-time-to", seat, who(seat),
      `${who(seat)} is to act now: the time is added to this turn's deadline.`, n === 0))),
    h("fieldset", {}, h("legend", {}, "How much?"), GIFTS.map(([seconds, amount], n) => choice("give-time-much", String(seconds), amount,
      `The deadline moves ${amount} later, and the time bank, if the game keeps one, grows by as much. You give at most a day in a game.`, n === 0))),
    h("button", { class: "primary", id: "give-time-send", type: "submit", disabled: busy }, "Give the time"));
  }

  return { section, draw };
}
