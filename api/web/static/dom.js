// Building elements without innerHTML: every text goes in as text, so nothing
// a server or another player wrote can become markup.
const SVG = "http://www.w3.org/2000/svg";

export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  return fill(element, attrs, children);
}

export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

function fill(element, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export function notice(text) {
  document.getElementById("notice").textContent = text || "";
}

// "PlaceMember" → "place member"; "lock-pick" → "lock pick".
export function words(name) {
  return String(name).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
}

export function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
}

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
