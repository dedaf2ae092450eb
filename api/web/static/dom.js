// @ts-check
// Building elements without innerHTML: every text goes in as text, so nothing
// a server or another player wrote can become markup.
const SVG = "http://www.w3.org/2000/svg";

// A text with its first letter in capitals.
/** @param {string} text */
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * An element's attributes: a value is set as its text (true: present, empty;
 * null, undefined and false: absent); an `on…` one is a listener, of the event
 * its name says (onclick a MouseEvent, onsubmit a SubmitEvent, …).
 * @typedef {{ [K in keyof HTMLElementEventMap as `on${K}`]?: (event: HTMLElementEventMap[K]) => unknown }
 *   & { [name: string]: unknown }} Attrs
 */
/** One thing inside an element: a node, a text (a number as its text), or nothing. @typedef {Node | string | number | boolean | null | undefined} Leaf */
/** A child, or an array of them (one level: fill flattens one). @typedef {Leaf | Leaf[]} Child */

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  return fill(element, attrs, children);
}

/**
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

/**
 * @template {Element} E
 * @param {E} element
 * @param {Attrs | null | undefined} attrs
 * @param {Child[]} children
 * @returns {E}
 */
function fill(element, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// A redrawing replaces elements, the one the keyboard is on among them: it is
// found again by what names it (its id, its place on the board, its command),
// so that a keyboard user's next Enter still lands where they left it.
/** @param {Element} root @returns {string | null} a selector for the focused element inside root */
export function focusKey(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  for (const name of ["id", "data-place", "data-card", "data-value"]) {
    const value = active.getAttribute(name);
    if (value !== null) return `[${name}="${CSS.escape(value)}"]`;
  }
  return null;
}

/** @param {Element} root @param {string | null} key what focusKey said before the redrawing */
export function refocus(root, key) {
  if (!key || (document.activeElement && root.contains(document.activeElement))) return;
  for (const again of root.querySelectorAll(key)) {
    if ((again instanceof HTMLElement || again instanceof SVGElement) && again.tabIndex >= 0) { again.focus({ preventScroll: true }); return; }
  }
}

/** @param {string | null | undefined} text */
export function notice(text) {
  /** @type {HTMLElement} */ (document.getElementById("notice")).textContent = text || "";
}

// "PlaceMember" → "place member"; "lock-pick" → "lock pick".
/** @param {unknown} name @returns {string} */
export function words(name) {
  return String(name).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
}

/** @param {string | null | undefined} iso @returns {string} */
export function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
}

/** @param {number | null | undefined} seconds @returns {string} */
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d) return `${d} d ${hh} h`;
  if (hh) return `${hh} h ${m} min`;
  if (m) return `${m} min ${s % 60} s`;
  return `${s} s`;
}

// A JSON value as nested definition lists, for the parts of a view the board does not draw.
/** @param {unknown} value @param {number} [depth] @returns {Node | string} */
export function tree(value, depth = 0) {
  if (Array.isArray(value)) {
    if (value.length === 0) return h("span", { class: "muted" }, "none");
    if (value.every((item) => item === null || typeof item !== "object")) return value.join(", ");
    if (depth > 3) return `${value.length} items`;
    return h("ol", {}, value.map((item) => h("li", {}, tree(item, depth + 1))));
  }
  if (value && typeof value === "object") {
    if (depth > 3) return `${Object.keys(value).length} fields`;
    return h("dl", {}, Object.entries(value).flatMap(([key, item]) => [h("dt", {}, words(key)), h("dd", {}, tree(item, depth + 1))]));
  }
  if (value === null) return h("span", { class: "muted" }, "—");
  return String(value);
}
