// @ts-check
// A game stepped through version by version (GET /view?at=V), with the feed
// up to that version and the audit's verdict (chain, seed, re-run); the
// board drawn with the game's data files, loaded once (data.js).
import { get, me, Problem } from "./api.js";
import { drawBoard } from "./board.js";
import { untangle } from "./board_labels.js";
import { gameData } from "./data.js";
import { h, notice, tree, words } from "./dom.js";
import { eventWords } from "./table.js";
import { missing } from "./game_pages.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["FeedResponse"]["events"][number]} FeedEvent */

/** @param {HTMLElement} main @param {string} id @returns {Promise<null>} (nothing to clean up when leaving) */
export async function replay(main, id) {
  const as = { as: me.token };
  /** @type {Schemas["GameSummary"]} */
  let summary;
  /** @type {Schemas["Audit"]} */
  let audit;
  try {
    summary = await get(`/games/${encodeURIComponent(id)}`, as);
    audit = await get(`/games/${encodeURIComponent(id)}/audit`, as);
  } catch (problem) {
    if (problem instanceof Problem && problem.status < 500) { missing(main, problem); return null; }
    throw problem;
  }
  /** @type {FeedEvent[]} */
  const events = [];
  for (let after = 0; after < summary.version;) {
    const page = await get(`/games/${encodeURIComponent(id)}/events?after=${after}&limit=1000`, as);
    events.push(...page.events);
    if (!page.events.length) break;
    after = page.next_after;
  }
  // The feed read above starts with the GameCreated that names the files.
  const data = await gameData(summary.game, id, { ...as, events })
    .catch((problem) => { notice(/** @type {Error} */ (problem).message); return null; }); // without data the board is drawn from the view alone
  // How the board is drawn (the catalogue's `board`, its kind and file): without it, the seats only.
  const rules = await get(`/rules/${encodeURIComponent(summary.game)}`, { as: null })
    .catch((problem) => { notice(/** @type {Error} */ (problem).message); return null; });
  const last = summary.version;
  const steps = restingVersions(events, last);
  let at = last;
  const root = h("div", { id: "replay" });
  const position = h("input", { type: "number", id: "replay-at", min: 1, max: last, value: at });
  const state = h("p", { id: "replay-state", "aria-live": "polite" });
  const board = h("div", { class: "board" });
  // The log scrolls: it takes the keyboard's focus, so that arrows and Page Down scroll it without a mouse.
  const log = h("ul", { class: "log", id: "replay-log", tabindex: 0, "aria-label": "The log up to this version" });
  const view = h("div", { class: "tree" });
  // A step is a version the game rested at; a version asked for in the
  // middle of a move shows the move's end.
  const go = (/** @type {number} */ version) => show(steps.find((v) => v >= version) ?? last);
  const back = () => show([...steps].reverse().find((v) => v < at) ?? steps[0]);
  const forward = () => show(steps.find((v) => v > at) ?? last);
  const controls = h("div", { class: "controls", role: "group", "aria-label": "Step through the game" },
    h("button", { type: "button", id: "replay-first", onclick: () => go(1) }, "First"),
    h("button", { type: "button", id: "replay-back", onclick: back }, "Back"),
    h("button", { type: "button", id: "replay-forward", onclick: forward }, "Forward"),
    h("button", { type: "button", id: "replay-last", onclick: () => go(last) }, "Last"),
    h("label", { for: "replay-at" }, "Version"), position,
    h("button", { type: "button", id: "replay-jump", onclick: () => go(Number(position.value) || 1) }, "Jump"));
  root.dataset.steps = steps.join(",");
  root.addEventListener("keydown", (e) => {
    if (e.target === position) return;
    if (e.key === "ArrowLeft") { e.preventDefault(); back(); }
    if (e.key === "ArrowRight") { e.preventDefault(); forward(); }
  });
  root.append(h("h1", {}, `Replay: ${words(summary.game)} `, h("span", { class: "muted" }, id.slice(0, 8))),
    verdict(audit), controls, state,
    h("div", { class: "layout" }, h("section", { "aria-label": "Board at this version" }, board),
      h("section", { "aria-labelledby": "replay-log-title" }, h("h2", { id: "replay-log-title" }, "Log"), log)),
    h("section", { "aria-labelledby": "replay-view-title" }, h("h2", { id: "replay-view-title" }, "The view at this version"), view),
    h("p", {}, h("a", { href: `#/games/${id}` }, "Back to the table")));
  main.replaceChildren(root);

  let asked = 0;
  /** @param {number} version */
  async function show(version) {
    const ticket = ++asked;
    let envelope;
    try {
      envelope = await get(`/games/${encodeURIComponent(id)}/view?at=${version}`, as);
    } catch (problem) {
      if (ticket === asked) state.textContent = `Version ${version} cannot be shown: ${/** @type {Error} */ (problem).message}`;
      return;
    }
    if (ticket !== asked) return; // a later step was asked for meanwhile
    at = version;
    position.value = String(at);
    root.dataset.at = String(at);
    root.dataset.view = JSON.stringify(envelope);
    const shown = /** @type {{ names?: Record<string, string> }} */ (envelope);
    /** A seat by its player's name, as the table says it. @param {unknown} seat */
    const who = (seat) => shown.names?.[String(seat)] || summary.seats.find((s) => s.seat === String(seat))?.name || words(String(seat));
    state.textContent = `Version ${at} of ${last} · ${words(envelope.status)}${envelope.to_act.length ? ` · to act: ${envelope.to_act.map(who).join(", ")}` : ""}`;
    const drawn = drawBoard(rules && rules.board, envelope, data, rules ? rules.title : words(summary.game), who);
    board.replaceChildren(drawn);
    untangle(drawn);
    log.replaceChildren(...events.filter((e) => e.version <= at).map((e) => h("li", { class: e.version === at ? "now" : null }, eventWords(e))));
    log.scrollTop = log.scrollHeight;
    view.replaceChildren(envelope.view ? tree(envelope.view) : h("p", { class: "muted" }, "Not started at this version."));
  }
  await show(at);
  return null;
}

// The versions a view can be asked for (?at=): where the game rested, which is
// the last version, or one on which the next event was decided (each event
// of the feed says at which version its decision was taken). A running game
// steps so as well as a finished one: never to a version in the middle of a move.
/** @param {FeedEvent[]} events @param {number} last @returns {number[]} */
function restingVersions(events, last) {
  const decidedAt = new Map(events.map((event) => [event.version, event.decided_at]));
  const steps = [];
  for (let v = 1; v <= last; v++) if (v === last || decidedAt.get(v + 1) === v) steps.push(v);
  return steps;
}

/** @param {Schemas["Audit"]} audit */
function verdict(audit) {
  const chain = audit.chain.ok ? `the hash chain holds (${audit.chain.checked} events)` : `the hash chain breaks at version ${audit.chain.broken_at}: ${audit.chain.reason}`;
  const seed = audit.seed ? `the seed is published (its commitment: sha256 ${audit.seed_sha256.slice(0, 12)}…, which the re-run checks)` : "the seed is published when the game ends";
  const rerun = audit.rerun ? (audit.rerun.ok ? `a re-run of every decision agrees (${audit.rerun.batches} batches)` : `the re-run disagrees: ${audit.rerun.problems.join("; ")}`) : "the re-run comes when the game ends";
  const ok = audit.chain.ok && (!audit.rerun || audit.rerun.ok);
  return h("section", { id: "audit", "aria-labelledby": "audit-title", "data-ok": String(ok) },
    h("h2", { id: "audit-title" }, ok ? "Audit: sound" : "Audit: problems found"),
    h("ul", {}, h("li", {}, chain), h("li", {}, seed), h("li", {}, rerun)));
}
