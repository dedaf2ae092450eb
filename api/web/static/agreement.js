// @ts-check
// Ending a game by agreement, on the table: a seat's player proposes ending
// it (cancelled, or as it stands), every seat sees who proposed what and who
// has yet to accept, and answers with Accept / Decline (Withdraw for the
// proposer); once it ended, the API's outcome sentence. The view carries no
// proposal, so the section asks GET /end-proposal when the page opens and
// whenever the log brings one of the agreement's events.
import { change, get, Problem } from "./api.js";
import { h } from "./dom.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["AgreementState"]} State */
/** What the section reads of the table's view. @typedef {{ version: number, status: string, seat?: string | null }} Seen */

const EVENTS = new Set(["EndProposed", "EndAccepted", "EndWithdrawn", "EndAgreed"]);
const ENDINGS = {
  cancelled: ["Cancel it", "The game stops with no result: nobody wins or loses, and nothing counts for anyone's record."],
  "as-it-stands": ["End it as it stands", "The game stops now and the seats are ranked by the game's own score as it is, equal scores sharing a place."],
};
/** @param {string} ending */
const said = (ending) => (ending === "cancelled" ? "to cancel the game, with no result" : "to end the game as it stands, ranked by its score now");

/** @param {string[]} names */
const listed = (names) => (names.length < 3 ? names.join(" and ") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);

/**
 * The section and what the table calls: `draw` on each redrawing, `heard` on each event of its log.
 * @param {string} id the game
 * @param {{ as: string | null }} as whose token
 * @param {(seat: string) => string | undefined} nameOf a seat's player by name
 * @param {(problem: unknown) => void} failed how the table shows a failure
 */
export function agreement(id, as, nameOf, failed) {
  const section = h("section", { id: "agreement", "aria-labelledby": "agreement-title", hidden: true });
  /** @type {State | null} */
  let state = null;
  /** @type {Seen | null} */
  let seen = null;
  let choosing = false, busy = false, asked = false;
  let note = "", ended = "";
  /** @type {string | null} the seat that made the last proposal seen */
  let proposer = null;
  /** @param {string} seat */
  const who = (seat) => nameOf(seat) || seat;

  async function refresh() {
    try { state = /** @type {State} */ (await get(`/games/${encodeURIComponent(id)}/end-proposal`, as)); } catch (problem) { failed(problem); }
    if (seen) draw(seen);
  }

  /** @param {() => Promise<unknown>} send the proposal or the answer */
  async function answer(send) {
    if (busy) return;
    busy = true;
    note = "";
    try {
      state = /** @type {State} */ (await send());
      choosing = false;
    } catch (problem) {
      if (problem instanceof Problem && problem.status < 500 && problem.status !== 401) note = problem.message;
      else failed(problem);
    }
    busy = false;
    if (seen) draw(seen);
  }

  const withdraw = () => change(`/games/${encodeURIComponent(id)}/end-proposal/withdraw`, undefined, as);

  /** @param {Seen} view */
  function draw(view) {
    seen = view;
    if (!asked && view.status !== "lobby") { asked = true; refresh(); }
    const mine = view.seat && view.status === "active" ? view.seat : null;
    const proposal = state && view.status === "active" ? state.proposal : null;
    /** @type {HTMLElement[]} */
    const parts = [];
    if (state && state.outcome) parts.push(h("p", { id: "agreement-outcome", role: "status" }, state.outcome));
    if (proposal) {
      proposer = proposal.seat;
      parts.push(h("p", { id: "agreement-proposal" }, `${who(proposal.seat)} proposes ${said(proposal.ending)}.`),
        h("p", { id: "agreement-accepted" }, `Accepted: ${listed(proposal.accepted.map(who))}.`),
        h("p", { id: "agreement-waiting" }, proposal.waiting_for.length ? `Waiting for: ${listed(proposal.waiting_for.map(who))}.` : "Everyone has accepted."));
      const buttons = h("div", { class: "controls" });
      if (mine && proposal.waiting_for.includes(mine)) buttons.append(h("button", { class: "primary", id: "agreement-accept", type: "button", disabled: busy, onclick: () => answer(() => change(`/games/${encodeURIComponent(id)}/end-proposal/accept`, {}, as)) }, "Accept"));
      if (mine && mine === proposal.seat) buttons.append(h("button", { id: "agreement-withdraw", type: "button", disabled: busy, onclick: () => answer(withdraw) }, "Withdraw"));
      else if (mine) buttons.append(h("button", { id: "agreement-decline", type: "button", disabled: busy, onclick: () => answer(withdraw) }, "Decline"));
      parts.push(buttons);
    } else if (mine && state && !state.outcome) {
      parts.push(h("button", { id: "agreement-propose", type: "button", "aria-expanded": String(choosing), onclick: () => { choosing = !choosing; draw(view); } }, "Propose to end the game"));
      if (choosing) parts.push(proposing());
    }
    if (ended && !proposal && !(state && state.outcome)) parts.push(h("p", { id: "agreement-ended", class: "muted" }, ended));
    if (note) parts.push(h("p", { id: "agreement-note", class: "problem", role: "alert" }, note));
    section.hidden = !parts.length;
    section.replaceChildren(h("h2", { id: "agreement-title" }, "Ending by agreement"), ...parts);
  }

  function proposing() {
    const choices = Object.entries(ENDINGS).map(([ending, [title, sentence]], i) => h("div", { class: "agreement-choice" },
      h("input", { type: "radio", name: "agreement-ending", id: `agreement-${ending}`, value: ending, checked: i === 0, "aria-describedby": `agreement-${ending}-says` }),
      h("label", { for: `agreement-${ending}` }, title),
      h("p", { id: `agreement-${ending}-says`, class: "muted" }, sentence)));
    return h("form", {
      id: "agreement-form",
      onsubmit: (e) => {
        e.preventDefault();
        const chosen = /** @type {HTMLInputElement | null} */ (section.querySelector("input[name=agreement-ending]:checked"));
        if (chosen) answer(() => change(`/games/${encodeURIComponent(id)}/end-proposal`, { ending: /** @type {Schemas["ProposeEnd"]["ending"]} */ (chosen.value) }, as));
      },
    }, h("fieldset", {}, h("legend", {}, "How should it end? Every other player must accept."), choices),
    h("button", { class: "primary", id: "agreement-send", type: "submit", disabled: busy }, "Propose"));
  }

  // A proposal withdrawn or declined leaves a sentence saying by whom, until the next one.
  /** @param {{ type?: string, data?: unknown }} event */
  function heard(event) {
    if (!asked || !event.type || !EVENTS.has(event.type)) return; // the log's old tail: the first answer says it
    const seat = /** @type {{ seat?: string }} */ (event.data || {}).seat;
    if (event.type === "EndWithdrawn" && seat) {
      ended = proposer && proposer !== seat
        ? `${who(seat)} declined ${who(proposer)}'s proposal: the game goes on.`
        : `${who(seat)} withdrew the proposal: the game goes on.`;
    } else if (event.type === "EndProposed") ended = "";
    refresh();
  }

  return { section, draw, heard };
}
