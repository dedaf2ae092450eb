// @ts-check
// A game's options as a host reads them: each with a sentence a player
// understands. The game's own options say what they do in their catalogue
// description; the engine's (clocks, abandonment, absences, takebacks,
// talk) are the same for every game, so their sentences are written here
// once, and the form keeps them closed under "More options", at their
// defaults, which suit a friendly game.
import { h, words } from "./dom.js";

/** @typedef {import("./openapi").components["schemas"]["Option"]} Option */

/** @type {Record<string, string>} */
export const MORE = {
  turn_seconds: "How long each turn may last, in seconds. When it runs out the game plays a simple move for the player. Empty: turns never run out.",
  deadline_per_seat: "Each player's turn time counts from when his own turn came, not from anyone's last move.",
  time_bank_seconds: "A chess-clock bank of thinking time each player draws on, in seconds. Empty: no bank.",
  time_increment_seconds: "Seconds added to a player's bank after each of his turns.",
  time_cap_seconds: "The most a player's bank may hold, in seconds. Empty: what it started with.",
  abandon_after: "After this many turns missed in a row, a bot takes the seat for good. 0: never.",
  absences: "Whether a player may say he is away (a holiday, say): his clocks stop meanwhile.",
  takebacks: "Whether a player may ask to take back his last move, which the others accept or refuse.",
  spectators_read_table: "Let people watching the game read the table's talk (never a team's or a private message).",
};

// Asked by the form itself, not drawn from the catalogue.
export const ASKED = new Set(["players", "visibility", "detective_seats"]);

/** @param {string} text a description, made a sentence: capital first, full stop last */
function sentence(text) {
  const trimmed = text.trim();
  return trimmed ? `${trimmed[0].toUpperCase()}${trimmed.slice(1)}${/[.!?)]$/.test(trimmed) ? "" : "."}` : "";
}

/** @param {Option} option @returns {string} the option's sentence for a player */
export function explained(option) {
  return MORE[option.name] || sentence(option.description);
}

/** @param {string} name */
const label = (name) => { const said = words(name); return `${said[0].toUpperCase()}${said.slice(1)}`; };

// One option's input, its label, and its sentence (which a screen reader reads with it).
/** @param {Option} option */
export function optionInput(option) {
  const id = `option-${option.name}`;
  const hint = h("span", { class: "hint", id: `${id}-hint` }, explained(option));
  const described = { "aria-describedby": `${id}-hint`, "data-option": option.name };
  if (option.kind === "bool") {
    return h("div", { class: "option" }, h("label", { for: id }, h("input", { type: "checkbox", id, ...described, checked: !!option.default }), " ", label(option.name)), hint);
  }
  const input = option.kind === "choice"
    ? h("select", { id, ...described },
      /** @type {string[]} */ (option.choices || []).map((choice) => h("option", { value: choice, selected: choice === option.default }, words(choice))))
    : h("input", { type: "number", id, ...described, min: option.minimum, max: option.maximum, value: option.default ?? "", placeholder: option.default === null ? "none" : null });
  return h("div", { class: "option" }, h("label", { for: id }, label(option.name)), input, hint);
}
