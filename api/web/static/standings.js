// @ts-check
// The end of a game: the standings in rank order (the API gives them so),
// each seat by its player's name, and every tie said with the rule that
// ranked it (the catalogue's `ranking` sentence, the rulebook's words).
import { get } from "./api.js";
import { h } from "./dom.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {{ seat: string, rank: number, score?: number | null }} Placed */

/** @type {Map<string, Promise<string>>} */
const rankings = new Map(); // one request per game for the page's life

/** @param {string} game @returns {Promise<string>} */
function rankingOf(game) {
  let known = rankings.get(game);
  if (!known) {
    known = get(`/rules/${encodeURIComponent(game)}`, { as: null }).then((rules) => rules.ranking, () => "");
    rankings.set(game, known);
  }
  return known;
}

/** @param {number} rank */
const place = (rank) => `${rank}${rank % 10 === 1 && rank % 100 !== 11 ? "st" : rank % 10 === 2 && rank % 100 !== 12 ? "nd" : rank % 10 === 3 && rank % 100 !== 13 ? "rd" : "th"}`;

/** @param {string[]} names */
const listed = (names) => (names.length < 3 ? names.join(" and ") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);

// The ties of a game's standings, each a sentence: places shared, and equal
// scores that the game's rule ranked apart.
/** @param {Placed[]} standings @param {(seat: string) => string} who @returns {string[]} */
export function ties(standings, who) {
  const sentences = [];
  /** @type {Map<number, Placed[]>} */
  const byRank = new Map();
  for (const s of standings) byRank.set(s.rank, [...(byRank.get(s.rank) || []), s]);
  for (const [rank, shared] of byRank) {
    if (shared.length > 1) sentences.push(`${listed(shared.map((s) => who(s.seat)))} share the ${place(rank)} place.`);
  }
  /** @type {Map<number, Placed[]>} */
  const byScore = new Map();
  for (const s of standings) if (s.score !== null && s.score !== undefined) byScore.set(s.score, [...(byScore.get(s.score) || []), s]);
  for (const [score, alike] of byScore) {
    const ranks = new Set(alike.map((s) => s.rank));
    if (alike.length > 1 && ranks.size > 1) {
      sentences.push(`${listed(alike.map((s) => `${who(s.seat)} (${place(s.rank)})`))} scored ${score} alike: the tie was broken by the game's rule.`);
    }
  }
  return sentences;
}

// The standings as a section: a row per seat in rank order, the ties, and how the game ranks.
/** @param {string} game @param {Placed[]} standings @param {(seat: string) => string} who the player's name of a seat */
export function standingsSection(game, standings, who) {
  const ordered = [...standings].sort((a, b) => a.rank - b.rank);
  const said = ties(ordered, who);
  const rule = h("p", { id: "standings-rule", class: "muted" });
  rankingOf(game).then((ranking) => { if (ranking) rule.textContent = `How this game ranks: ${ranking}`; });
  return h("section", { "aria-labelledby": "standings-title", id: "standings" },
    h("h2", { id: "standings-title" }, "Standings"),
    h("table", {}, h("thead", {}, h("tr", {}, ["place", "player", "seat", "score"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, ordered.map((s) => h("tr", { "data-seat": s.seat }, h("td", {}, place(s.rank)), h("td", {}, who(s.seat)), h("td", { class: "muted" }, s.seat), h("td", {}, s.score ?? "—"))))),
    said.length ? h("p", { id: "standings-ties" }, said.join(" ")) : null,
    rule);
}
