// @ts-check
// Composing a move from the legal commands, one part at a time (the kind of
// action, then each field in turn), each step offering only the values that
// still lead to at least one legal command. Generic: what a field's value
// names comes from the catalogue's `field_names` (GET /v1/rules/{game}), never
// from a branch per game. A place drawn on the board is chosen by clicking
// `[data-place="<what>:<value>"]`, a card of the hand by clicking
// `[data-card="<value>"]`; any other field by buttons, never more than
// MAX_BUTTONS at once (more values are grouped by ranges). Once one command
// is left, its sentence (`texts`) is shown with Confirm and Back.
import { capital, h } from "./dom.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["Command"]} Command */
/**
 * What a command field's value names (the kit's Names.to_json()).
 * @typedef {{ kind: string, what: string, data?: string, list?: string, key?: string, label?: string, colour?: ColourJson }} NamesJson
 */
/**
 * Where the data gives a named thing its colour (the kit's Colour.to_json()): a field of its entry (of
 * `data`'s `list`, when given) holding a colour, or with `table` the id of the table's entry whose colour it is.
 * @typedef {{ field: string, table?: string, data?: string, list?: string }} ColourJson
 */
/** Where a seat's own cards are in its view (the kit's Hand.to_json()). @typedef {{ field: string, names: NamesJson }} HandJson */
/** The catalogue's declarations a client composes and draws from. @typedef {{ title?: string, field_names?: Record<string, NamesJson>, hand?: HandJson | null, board?: import("./board.js").BoardJson | null }} Catalogue */
/** A part of a command, flattened: "type", "field" or "field.0" for a list's element. @typedef {string | number | boolean | null} Scalar */
/**
 * What a step needs besides the commands: the labels of values, the board
 * and the hand to find places and cards in, and what to do when done.
 * @typedef {{ texts: string[], catalogue: Catalogue, label: (names: NamesJson | null, value: Scalar) => string | null,
 *   board: Element, hand: Element, send: (command: Command) => void, busy: boolean }} Context
 */

export const MAX_BUTTONS = 12;
const END = "\u0000end"; // a shorter list has no element here: "no more"

/** @param {Command} command @returns {Map<string, Scalar>} */
function flatten(command) {
  /** @type {Map<string, Scalar>} */
  const parts = new Map([["type", command.type]]);
  /** @param {string} key @param {unknown} value */
  const add = (key, value) => {
    if (Array.isArray(value)) value.forEach((item, n) => add(`${key}.${n}`, item));
    else if (value && typeof value === "object") for (const [name, item] of Object.entries(value)) add(`${key}.${name}`, item);
    else parts.set(key, /** @type {Scalar} */ (value === undefined ? null : value));
  };
  for (const [key, value] of Object.entries(command)) if (key !== "type") add(key, value);
  return parts;
}

/** "triangles.1" → "triangles"; "to_spot" stays. @param {string} key */
const fieldOf = (key) => key.split(".")[0];
/** @param {string} key */
const elementOf = (key) => { const n = key.split(".")[1]; return n === undefined || Number.isNaN(Number(n)) ? null : Number(n); };
/** "to_neighbourhood" → "to neighbourhood". @param {string} name */
export const spoken = (name) => String(name).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ");
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth"];

/** @param {Catalogue} catalogue @param {Scalar} type @param {string} key @returns {NamesJson | null} */
export function namesOf(catalogue, type, key) {
  const declared = catalogue.field_names || {};
  const field = fieldOf(key);
  return declared[`${type}.${field}`] || declared[field] || null;
}

/**
 * A composer for one decision: `render(area)` draws the current step into
 * `area` and marks the board's and the hand's candidates; the picks survive
 * redrawings of the same commands.
 */
export class Composer {
  /** @param {Command[]} commands */
  constructor(commands) {
    this.commands = commands;
    this.flat = commands.map(flatten);
    /** @type {[string, Scalar][]} the explicit picks, in order */
    this.picks = [];
    /** @type {Scalar[] | null} a group of a step's values chosen to narrow it */
    this.narrow = null;
    /** @type {string} why the last click changed nothing */
    this.why = "";
    this.clicks = 0;
    /**
     * The board step being asked, for a click on another place (refuse).
     * @type {{ on: Element, values: Scalar[], names: NamesJson | null, area: HTMLElement, context: Context, labelOf: (value: Scalar) => string } | null}
     */
    this.refusing = null;
  }

  /** The indices of commands that agree with every pick. */
  remaining() {
    return this.flat.map((_, n) => n).filter((n) => this.picks.every(([key, value]) => (this.flat[n].has(key) ? this.flat[n].get(key) : END) === value));
  }

  /** The next field to ask about among `left`, with its values, or null when one command is left. @param {number[]} left */
  step(left) {
    const picked = new Set(this.picks.map(([key]) => key));
    /** @type {string[]} */
    const keys = [];
    for (const n of left) for (const key of this.flat[n].keys()) if (!keys.includes(key)) keys.push(key);
    for (const key of keys) {
      if (picked.has(key)) continue;
      /** @type {Scalar[]} */
      const values = [];
      for (const n of left) {
        const value = this.flat[n].has(key) ? /** @type {Scalar} */ (this.flat[n].get(key)) : END;
        if (!values.includes(value)) values.push(value);
      }
      if (values.length > 1) return { key, values };
    }
    return null;
  }

  /**
   * The kind of action of the commands `left`: picked, or the one all of them share (never asked then).
   * The catalogue's field_names are by "Type.field": without it a value would be shown as its id.
   * @param {number[]} left
   */
  type(left) { return this.picks.find(([key]) => key === "type")?.[1] ?? this.flat[left[0]]?.get("type") ?? null; }

  /** @param {string} key @param {Scalar} value */
  pick(key, value) { this.picks.push([key, value]); this.narrow = null; this.why = ""; this.clicks += 1; }

  back() {
    if (this.narrow) this.narrow = null;
    else this.picks.pop();
    this.why = "";
  }

  /** @param {HTMLElement} area @param {Context} context */
  render(area, context) {
    clearMarks(context.board, context.hand);
    const left = this.remaining();
    const type = this.type(left);
    const step = this.step(left);
    const back = this.picks.length || this.narrow
      ? h("button", { type: "button", id: "compose-back", onclick: () => { this.back(); this.render(area, context); } }, "Back") : "";
    const why = this.why ? h("p", { id: "compose-why", class: "problem", role: "alert" }, this.why) : "";
    if (!step) {
      const n = left[0];
      const sentence = context.texts[n] || this.sentence(n, context);
      area.replaceChildren(h("div", { id: "composer", "data-step": "confirm" },
        h("p", { id: "compose-sentence", class: "sentence" }, sentence),
        h("div", { class: "controls" },
          h("button", { type: "button", class: "primary", id: "compose-confirm", disabled: context.busy,
            onclick: () => { this.clicks += 1; context.send(this.commands[n]); } }, "Confirm"), " ", back), why));
      return;
    }
    const names = step.key === "type" ? null : namesOf(context.catalogue, type, step.key);
    const question = this.question(step.key, names);
    /** @param {Scalar} value */
    const labelOf = (value) => (value === END ? "no more" : this.valueLabel(step.key, names, value, context));
    const values = this.narrow ? step.values.filter((v) => /** @type {Scalar[]} */ (this.narrow).includes(v)) : step.values;
    /** @param {Scalar} value */
    const choose = (value) => { this.pick(step.key, value); this.render(area, context); };
    const onBoard = names && names.kind === "place" && !this.narrow ? marked(context.board, values, (v) => `[data-place="${CSS.escape(`${names.what}:${v}`)}"]`) : null;
    const inHand = names && names.kind === "card" && !onBoard && !this.narrow ? marked(context.hand, values, (v) => `[data-card="${CSS.escape(String(v))}"]`) : null;
    const drawn = onBoard || inHand;
    if (drawn) {
      for (const [value, elements] of drawn) for (const element of elements) candidate(element, `${question}: ${labelOf(value)}`, () => choose(value));
      const where = onBoard ? "on the board" : "in your hand";
      area.replaceChildren(h("div", { id: "composer", "data-step": step.key, "data-where": onBoard ? "board" : "hand" },
        h("p", { class: "question" }, `${question}: click one of the highlighted ${names ? plural(spoken(names.what)) : "choices"} ${where} (or Tab to it and press Enter).`),
        this.chosen(context), h("div", { class: "controls" }, back), why));
      this.refusing = onBoard ? { on: context.board, values, names, area, context, labelOf } : null;
      return;
    }
    this.refusing = null;
    area.replaceChildren(h("div", { id: "composer", "data-step": step.key, "data-where": "buttons" },
      h("p", { class: "question" }, `${question}:`), this.chosen(context),
      h("ul", { class: "choices", id: "choices" }, groups(values, labelOf).map(({ label, members }) => h("li", {},
        h("button", { type: "button", class: "choice", "data-value": members.length === 1 ? String(members[0]) : null,
          onclick: () => {
            if (members.length === 1) choose(members[0]);
            else { this.narrow = members; this.clicks += 1; this.render(area, context); }
          } }, label)))),
      h("div", { class: "controls" }, back), why));
  }

  /**
   * A click on the board's place `place` ("what:value") while a board step
   * asks: a candidate chooses it (its own listener); another says why and changes nothing.
   * @param {string} place
   */
  refuse(place) {
    const asking = this.refusing;
    if (!asking || !asking.names) return false;
    const [what, ...rest] = place.split(":");
    const value = rest.join(":");
    if (what === asking.names.what && asking.values.some((v) => String(v) === value)) return false;
    const named = asking.context.label(what === asking.names.what ? asking.names : null, value) || value;
    this.why = `${named} cannot be chosen now: no move you can make names it there. Choose one of the highlighted ${plural(spoken(asking.names.what))}.`;
    this.render(asking.area, asking.context);
    return true;
  }

  /** @param {string} key @param {NamesJson | null} names */
  question(key, names) {
    if (key === "type") return "Choose what to do";
    const n = elementOf(key);
    const thing = names ? spoken(names.what) : spoken(fieldOf(key));
    if (n === null) return `Choose the ${thing}`;
    return names ? `Choose the ${ORDINALS[n] || "next"} ${thing}` : `Choose the ${ORDINALS[n] || "next"} of the ${thing}`;
  }

  /** @param {string} key @param {NamesJson | null} names @param {Scalar} value @param {Context} context */
  valueLabel(key, names, value, context) {
    if (key === "type") return capital(spoken(String(value))); // "HideLind" → "Hide Lind": a name keeps its capital
    if (value === null) return "none";
    if (typeof value === "boolean") return `${spoken(fieldOf(key))}: ${value ? "yes" : "no"}`;
    return context.label(names, value) || capital(spoken(String(value)));
  }

  /** What is chosen so far, in words. @param {Context} context */
  chosen(context) {
    if (!this.picks.length) return "";
    const type = this.type(this.remaining());
    return h("p", { class: "muted", id: "compose-so-far" }, "So far: ", this.picks.map(([key, value]) =>
      (key === "type" ? this.valueLabel(key, null, value, context) : `${spoken(fieldOf(key))} ${value === END ? "no more" : this.valueLabel(key, namesOf(context.catalogue, type, key), value, context)}`)).join(", "));
  }

  /** A sentence for a server that sends no `texts`. @param {number} n @param {Context} context */
  sentence(n, context) {
    const type = this.flat[n].get("type") ?? null;
    const parts = [...this.flat[n]].filter(([key, value]) => key !== "type" && value !== null)
      .map(([key, value]) => `${spoken(fieldOf(key))} ${this.valueLabel(key, namesOf(context.catalogue, type, key), value, context)}`);
    return `${this.valueLabel("type", null, type, context)}${parts.length ? `: ${parts.join(", ")}` : ""}.`;
  }
}

/** "crossing" → "crossings", "Renown Square line" → "Renown Square lines". @param {string} text */
const plural = (text) => (text.endsWith("s") ? text : `${text}s`);

// The values as at most MAX_BUTTONS buttons: each its own when few, else in
// ranges of neighbours in order ("1 – 8", "Alder – Birch"), chosen to narrow the step.
/** @param {Scalar[]} values @param {(value: Scalar) => string} labelOf @returns {{ label: string, members: Scalar[] }[]} */
export function groups(values, labelOf) {
  const labelled = values.map((value) => ({ value, label: labelOf(value) }));
  if (labelled.length <= MAX_BUTTONS) return labelled.map(({ value, label }) => ({ label, members: [value] }));
  labelled.sort((a, b) => (typeof a.value === "number" && typeof b.value === "number" ? a.value - b.value : a.label.localeCompare(b.label)));
  const size = Math.ceil(labelled.length / MAX_BUTTONS);
  /** @type {{ label: string, members: Scalar[] }[]} */
  const out = [];
  for (let i = 0; i < labelled.length; i += size) {
    const part = labelled.slice(i, i + size);
    out.push({ label: part.length === 1 ? part[0].label : `${part[0].label} – ${part[part.length - 1].label}`, members: part.map((x) => x.value) });
  }
  return out;
}

// Each value's elements in `root`, or null when one of them is not drawn there
// (then the step is asked with buttons: no value may be out of reach).
/** @param {Element} root @param {Scalar[]} values @param {(value: Scalar) => string} selector @returns {Map<Scalar, Element[]> | null} */
function marked(root, values, selector) {
  /** @type {Map<Scalar, Element[]>} */
  const found = new Map();
  for (const value of values) {
    if (value === END || value === null) return null;
    const elements = [...root.querySelectorAll(selector(value))];
    if (!elements.length) return null;
    found.set(value, elements);
  }
  return found;
}

/** @param {Element} element @param {string} label @param {() => void} chosen */
function candidate(element, label, chosen) {
  element.classList.add("candidate");
  element.setAttribute("tabindex", "0");
  element.setAttribute("role", "button");
  // A place of the board has no words of its own: the label names it. A card of the hand is named by
  // what it shows (a name that hid its visible text would fail people who speak to their browser).
  element.setAttribute(element instanceof HTMLElement && element.innerText.trim() ? "title" : "aria-label", label);
  /** @param {Event} event */
  const click = (event) => { event.stopPropagation(); chosen(); };
  /** @param {Event} event */
  const key = (event) => {
    const pressed = /** @type {KeyboardEvent} */ (event).key;
    if (pressed === "Enter" || pressed === " ") { event.preventDefault(); event.stopPropagation(); chosen(); }
  };
  element.addEventListener("click", click);
  element.addEventListener("keydown", key);
  listeners.set(element, [click, key]);
}

/** @type {WeakMap<Element, EventListener[]>} */
const listeners = new WeakMap();

/** @param {...Element} roots */
function clearMarks(...roots) {
  for (const root of roots) for (const element of root.querySelectorAll(".candidate")) {
    element.classList.remove("candidate");
    element.removeAttribute("tabindex");
    element.removeAttribute("role");
    element.removeAttribute("aria-label");
    element.removeAttribute("title");
    const [click, key] = listeners.get(element) || [];
    if (click) element.removeEventListener("click", click);
    if (key) element.removeEventListener("keydown", key);
  }
}
