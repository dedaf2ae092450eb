// @ts-check
// Boards as SVG, drawn from the game's data files as the API serves them
// (GET /v1/rules/{game}/data/{sha256}, the files its GameCreated records;
// see data.js) and from the view, which says what is where now: pieces,
// owners, counters, whose is what. Coordinates are the data's own units,
// y growing downwards; the SVG's viewBox is the extent GET /v1/rules/{game}/data
// declares (or, for a table with no sheet, the points' bounding box).
// Without data (`data` null: a caller that has not fetched it) the board is
// drawn from the coordinates the view repeats, where it has them.
// Each place of the data (crossing, triangle, location, neighbourhood, map
// place, a seat's nation card) is one element with `data-place` ("what:id")
// and `data-name` (its name in the data), and its label a text with
// `data-for` the same "what:id". What each kind of board looks like is in
// board_games.js, picked by the kind the game declares (the catalogue's
// `board`); labels are moved apart in board_labels.js.
import { h, s } from "./dom.js";
import { KINDS, label } from "./board_games.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {import("./dom.js").Attrs} Attrs */
/** @typedef {import("./data.js").GameData} GameData */
/** @typedef {import("./data.js").Card} Card */
/** @typedef {import("./board_games.js").Place} Place */
/** @typedef {import("./board_games.js").Key} Key */
/** @typedef {import("./board_games.js").Layout} Layout */
/** @typedef {import("./board_games.js").Draw} Draw */
/** @typedef {import("./board_games.js").Who} Who */
/** How the game's board is drawn: its kind and data file (the catalogue's `board`). @typedef {{ kind: string, data?: string }} BoardJson */

// Every place is drawn with `data-place="<what>:<id>"` (what a command field's
// Names says it names: "crossing:C12", "location:40"): the composer
// (compose.js) finds a step's candidates there, highlights them and takes the click.
/**
 * @param {BoardJson | null | undefined} drawing how the catalogue says the board is drawn (null: the seats only)
 * @param {Schemas["ViewResponse"] | null} envelope
 * @param {GameData | null} data
 * @param {string} title the game's title, for the board's name
 * @param {Who} [who] a seat's player by name (without it, the seat as the view says it)
 * @returns {SVGSVGElement}
 */
export function drawBoard(drawing, envelope, data, title, who = String) {
  const layout = layoutOf(drawing, envelope, data, who);
  if (!layout) return seatsOnly(envelope, who);
  const places = layout.places.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (places.length === 0) return seatsOnly(envelope, who);
  const about = data && data.about && data.about[layout.file];
  const extent = about && about.coordinates && about.coordinates.extent;
  const margin = Math.max(...places.map((p) => (p.r ? p.r * 1.6 : /** @type {number} */ (p.h) / 2 + 24))); // a place without r is a card
  const framed = extent ? [extent.x_min - margin, extent.y_min - margin, extent.x_max - extent.x_min + 2 * margin, extent.y_max - extent.y_min + 2 * margin] : bounds(places, margin);
  const box = layout.reach && layout.reach.length ? union(framed, bounds(layout.reach, margin)) : framed;
  const svg = s("svg", { viewBox: box.join(" "), role: "group", "aria-label": `the board of ${title}`, "data-drawn-from": data ? "data" : "view",
    "data-files": data ? Object.values(data.sha256).join(" ") : null });
  svg.append(...layout.under.filter((element) => element !== null));
  for (const place of places) svg.append(...drawPlace(place, layout.size, layout.what));
  svg.append(...layout.over.filter((element) => element !== null));
  return svg;
}

/** @param {Place[]} places @param {number} margin @returns {number[]} */
function bounds(places, margin) {
  const xs = places.flatMap((p) => [p.x - (p.w || 0) / 2, p.x + (p.w || 0) / 2]), ys = places.flatMap((p) => [p.y - (p.h || 0) / 2, p.y + (p.h || 0) / 2]);
  return [Math.min(...xs) - margin, Math.min(...ys) - margin, Math.max(...xs) - Math.min(...xs) + 2 * margin, Math.max(...ys) - Math.min(...ys) + 2 * margin];
}

/** Two boxes [x, y, width, height] → the box holding both. @param {number[]} a @param {number[]} b @returns {number[]} */
function union(a, b) {
  const x = Math.min(a[0], b[0]), y = Math.min(a[1], b[1]);
  return [x, y, Math.max(a[0] + a[2], b[0] + b[2]) - x, Math.max(a[1] + a[3], b[1] + b[3]) - y];
}

/**
 * The board's layout (board_games.js, by its declared kind), or null for a
 * game that declares no board, or one of a kind the client does not know.
 * @param {BoardJson | null | undefined} drawing @param {Schemas["ViewResponse"] | null} envelope @param {GameData | null} data @param {Who} who
 * @returns {Layout | null}
 */
function layoutOf(drawing, envelope, data, who) {
  const view = envelope && envelope.view;
  // A kind's drawing takes a view of the shape its games declare: the game declared the kind.
  const draw = drawing ? /** @type {Record<string, Draw | undefined>} */ (KINDS)[drawing.kind] : undefined;
  return view && drawing && draw ? draw(view, (data && data.files) || {}, drawing.data || "", who) : null;
}

// What the board's colours and signs mean, from the game's data (the kinds
// of its places, its nations' colours, its lines): empty for a game without one.
/** @param {BoardJson | null | undefined} drawing @param {Schemas["ViewResponse"] | null} envelope @param {GameData | null} data @param {Who} [who] @returns {HTMLElement} */
export function drawLegend(drawing, envelope, data, who = String) {
  const layout = layoutOf(drawing, envelope, data, who);
  const keys = layout ? layout.legend : [];
  if (!keys.length) return h("p", { id: "legend", hidden: true });
  return h("ul", { id: "legend", class: "legend", "aria-label": "What the board shows" }, keys.map((key) => h("li", {},
    s("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" }, swatch(key)), ` ${key.text}`)));
}

/** @param {Key} key @returns {SVGElement} */
function swatch(key) {
  if (key.shape === "line" || key.shape === "dash") return s("line", { x1: 1, y1: 8, x2: 15, y2: 8, stroke: key.fill, "stroke-width": 4, "stroke-dasharray": key.shape === "dash" ? "4 2" : null });
  if (key.shape === "circle") return s("circle", { cx: 8, cy: 8, r: 6.5, fill: key.fill, stroke: "#5a6270" });
  return s("rect", { x: 1.5, y: 1.5, width: 13, height: 13, rx: 2, fill: key.fill, stroke: "#5a6270" });
}

/** @param {Place} place @param {number} size @param {string} what @returns {SVGElement[]} */
function drawPlace(place, size, what) {
  const r = place.r || Math.min(/** @type {number} */ (place.w), /** @type {number} */ (place.h)) / 2; // a card without r
  const key = `${what}:${place.id}`;
  /** @type {Attrs} */
  const attrs = {
    fill: place.fill || "#fff", stroke: "#5a6270", "stroke-width": r / 8,
    "data-place": key, "data-name": place.name,
    ...(place.w ? { x: place.x - place.w / 2, y: place.y - /** @type {number} */ (place.h) / 2, width: place.w, height: place.h, rx: r / 6 } : { cx: place.x, cy: place.y, r }),
  };
  /** @type {SVGElement[]} */
  const drawn = [s(place.w ? "rect" : "circle", attrs, s("title", {}, place.label || place.name))];
  const fixed = { "pointer-events": "none", "data-label": "fixed", "data-for": key };
  if (place.w) drawn.push(label(place.x, place.y + size / 3, size, place.name, fixed));
  // A short label (Coronation's numbers, Cronberg's crossings) inside the place, a name beside it.
  if (place.inside !== undefined) {
    const text = String(place.inside);
    drawn.push(label(place.x, place.y + r * 0.36, Math.min(r, (2.1 * r) / Math.max(text.length, 1.6) / 0.62), text, fixed));
  }
  if (place.caption !== undefined) drawn.push(label(place.x, place.above ? place.y - r - size * 0.4 : place.y + r + size * 0.9, size * 0.8, place.caption, { ...fixed, "data-label": "free" }));
  if (place.mark && !place.w) drawn.push(label(place.x, place.y - r * 1.35, size, place.mark, { "pointer-events": "none" }));
  return drawn;
}

// The cards in your hand and your private information, each a picture (SVG)
// with its name, its kind and value in its colour, from the data
// (data.js's declaredHand), its text below.
/** @param {Card[]} cards @returns {HTMLElement} */
export function drawHand(cards) {
  if (!cards.length) return h("p", { class: "muted" }, "No cards in your hand.");
  // Focusable: on a phone the hand is a row that scrolls, and the keyboard scrolls it too. A group, not a
  // list: a card the move is chosen from becomes a button, and a list may hold only its items.
  return h("div", { class: "hand", id: "hand", role: "group", tabindex: 0, "aria-label": "Your cards" }, cards.map((card) => h("div", { "data-card": card.id },
    cardPicture(card), card.text ? h("p", {}, card.text) : "")));
}

/** @param {Card} card @returns {SVGSVGElement} */
function cardPicture(card) {
  const colour = card.colour || "#8a9bb4";
  const worth = [card.kind, card.value !== undefined && card.value !== null ? `${card.value}` : ""].filter(Boolean).join(" · ");
  const spoken = `${card.name}${card.count > 1 ? `, ×${card.count}` : ""}${worth ? `, ${worth}` : ""}`;
  const picture = s("svg", { class: "card", viewBox: "0 0 180 54", role: "img", "aria-label": spoken },
    s("rect", { x: 1, y: 1, width: 178, height: 52, rx: 6, fill: "#fffdf6", stroke: "#5a6270" }),
    s("rect", { x: 1, y: 1, width: 10, height: 52, rx: 3, fill: colour, stroke: "#5a6270", "stroke-width": 0.5 }),
    // A long name is set smaller rather than cut at the card's edge.
    s("text", { x: 18, y: 22, "font-size": Math.min(14, (card.corners ? 100 : 152) / (0.6 * Math.max(card.name.length, 1))), "font-weight": 700 }, card.name),
    s("text", { x: 18, y: 42, "font-size": 12, fill: "#5a6270" }, worth));
  if (card.count > 1) picture.append(s("text", { x: 172, y: 42, "font-size": 13, "text-anchor": "end", "font-weight": 700 }, `×${card.count}`));
  if (card.corners) picture.append(tile(card.corners));
  return picture;
}

// A tile (a card whose data lists its `corners`): a rhombus with its corner numbers, clockwise from the left.
/** @param {number[]} corners @returns {SVGElement} */
function tile(corners) {
  const points = [[122, 27], [148, 12], [174, 27], [148, 42]];
  return s("g", { "aria-hidden": "true" }, s("polygon", { points: points.map((p) => p.join(",")).join(" "), fill: "#9c7b52", stroke: "#5a4632" }),
    ...corners.slice(0, 4).map((n, i) => s("text", { x: (points[i][0] * 3 + 148 * 2) / 5, y: (points[i][1] * 3 + 27 * 2) / 5 + 3.5, "font-size": 10, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, String(n))));
}

// A game whose view has no coordinates: its seats, whose turn it is.
/** @param {Schemas["ViewResponse"] | null} envelope @param {Who} who @returns {SVGSVGElement} */
function seatsOnly(envelope, who) {
  // Seats as names (Cronberg's, Court of Miracles') or as objects (The Coil's); some views have none.
  const view = /** @type {{ seats?: (string | { seat: string })[] } | null} */ (envelope && envelope.view);
  const seats = envelope && view && Array.isArray(view.seats) ? view.seats.map((x) => (typeof x === "string" ? x : x.seat)) : [];
  const svg = s("svg", { viewBox: "0 0 200 200", role: "img", "aria-label": "seats" });
  seats.forEach((seat, n) => {
    const angle = (2 * Math.PI * n) / seats.length;
    const x = 100 + 70 * Math.sin(angle), y = 100 - 70 * Math.cos(angle);
    const turn = ((envelope && envelope.to_act) || []).includes(seat); // seats come from an envelope
    svg.append(s("circle", { cx: x, cy: y, r: 18, fill: turn ? "#f0b429" : "#fff", stroke: "#5a6270" }));
    svg.append(s("text", { x, y: y + 4, "font-size": 11, "text-anchor": "middle" }, who(seat)));
  });
  return svg;
}
