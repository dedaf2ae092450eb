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
// and `data-name` (its name in the data).
import { h, s } from "./dom.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {import("./dom.js").Attrs} Attrs */
/** @typedef {import("./data.js").GameData} GameData */
/** @typedef {import("./data.js").DataJson} DataJson */
/** @typedef {import("./data.js").Card} Card */
/** @typedef {NonNullable<Schemas["ViewResponse"]["view"]>} View */
/**
 * A place as a board draws it: a circle (r) or a card (w, h).
 * @typedef {{ id: string | number, name?: string, x: number, y: number, r?: number, w?: number, h?: number,
 *   fill?: string, mark?: string | null, label?: string, caption?: string | number }} Place
 */
/** @typedef {{ file: string, what: string, places: Place[], under: (SVGElement | null)[], over: (SVGElement | null)[], size: number }} Layout */
/** @typedef {(view: View, files: Record<string, DataJson>, envelope: Schemas["ViewResponse"]) => Layout} Draw */
/**
 * What the board reads of each game's data files (the document types them
 * only as JSON objects): a fallback drawn from the view has the same shape.
 * @typedef {{ crossings?: { id: string, x: number, y: number }[],
 *   triangles?: { id: string, corners: string[], kind: string, x: number, y: number, wall_sides?: string[][] }[] }} CronbergBoardFile
 * @typedef {{ locations?: { id: number, name: string, x: number, y: number, jewel?: boolean, underground?: boolean, instrument?: string | null }[],
 *   foot_lines?: number[][], cab_lines?: number[][] }} CoronationBoardFile
 * @typedef {{ neighbourhoods?: { id: string, name: string, action: string, x: number, y: number,
 *     spots?: { spot: number, effect: string, amount: number, x: number, y: number }[] }[],
 *   renown_square?: { lines?: { line: number, toll: number, bonus: string, amount: number, x: number, y: number }[] },
 *   king_path?: { spaces?: { space: number, x: number, y: number, name?: string, wrath?: string }[] },
 *   seine?: { x: number, y: number } }} CourtBoardFile
 * @typedef {{ places?: { name: string, x: number, y: number, kind: string, starburst?: boolean }[], edges?: string[][] }} RuneboundDataFile
 * @typedef {{ layout?: { table?: Record<string, number[][]>, card?: Record<string, number>, northern_die?: number[] },
 *   nations?: { id: string, name: string, color?: string }[] }} TheCoilDataFile
 */

const SEAT_COLOURS = ["#d1495b", "#2e86ab", "#e0a100", "#3c9d5d", "#8e5ea2", "#6c757d"];

// p1 → the first colour, detective-2 → the second; any other seat by its name's letters.
/** @param {unknown} seat @returns {string} */
export function seatColour(seat) {
  const number = /(\d+)$/.exec(String(seat));
  const n = number ? Number(number[1]) - 1 : [...String(seat)].reduce((sum, c) => sum + c.charCodeAt(0), 0);
  return SEAT_COLOURS[((n % SEAT_COLOURS.length) + SEAT_COLOURS.length) % SEAT_COLOURS.length];
}

/** @template {{ id: string | number }} T @param {T[] | null | undefined} list @returns {Map<string, T>} */
const pairs = (list) => new Map((list || []).map((item) => [String(item.id), item]));
/** @param {Map<string, string>} at @param {unknown} key @param {string} text */
const mark = (at, key, text) => { at.set(String(key), at.has(String(key)) ? `${at.get(String(key))} ${text}` : text); };
/** @param {number} x @param {number} y @param {number} size @param {unknown} text @param {Attrs} [attrs] */
const label = (x, y, size, text, attrs = {}) => s("text", { x, y, "font-size": size, "text-anchor": "middle", "aria-hidden": "true", ...attrs }, String(text));

// Per game, from its data files (`files`, by name; {} without data) and the view:
// {file: the data file whose extent frames the board, places: [{id, name, x, y, r | w h, fill, mark, label}],
//  under: [SVG elements drawn below the places], over: [above them], size: a label's font size}.
const GAMES = {
  /** @param {Schemas["CronbergView"]} view @param {Record<string, DataJson>} files @returns {Layout} */
  cronberg(view, files) {
    /** @type {CronbergBoardFile} */
    const board = /** @type {CronbergBoardFile | undefined} */ (files["board.json"]) || view;
    const crossings = pairs(board.crossings), now = pairs(view.crossings), triangles = pairs(view.triangles);
    /** @type {Record<string, string>} */
    const kinds = { plain: "#f4f1ea", park: "#cfe8c4", musketeer: "#d9e2f2", coat_of_arms: "#f3dcdc" };
    /** @type {SVGElement[]} */
    const under = [], over = [];
    for (const t of board.triangles || []) {
      const corners = t.corners.map((id) => crossings.get(String(id))).filter((c) => c !== undefined);
      const tile = triangles.get(t.id)?.tile;
      under.push(s("polygon", { points: corners.map((c) => `${c.x},${c.y}`).join(" "), fill: tile ? "#9c7b52" : kinds[t.kind] || "#fff", stroke: "#c9ced6", "stroke-width": 0.02, "data-triangle": t.id, "data-place": `triangle:${t.id}`, "data-name": t.id },
        s("title", {}, `${t.id} ${t.kind}${tile ? `, building ${tile}` : ""}`)));
      for (const [a, b] of t.wall_sides || []) {
        const from = crossings.get(String(a)), to = crossings.get(String(b));
        if (from && to) under.push(s("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, stroke: "#5a4632", "stroke-width": 0.08, "stroke-linecap": "round" }));
      }
      if (tile) over.push(label(t.x, t.y + 0.06, 0.16, tile, { fill: "#fff" }));
    }
    return {
      file: "board.json", what: "crossing", size: 0.16, under, over,
      places: [...crossings.values()].map((c) => {
        const live = now.get(c.id) || /** @type {Partial<Schemas["CronbergCrossing"]>} */ ({});
        return { id: c.id, name: c.id, x: c.x, y: c.y, r: 0.13, mark: live.member, fill: live.member ? seatColour(live.member) : "#fff",
          label: `${c.id}${live.value ? `, worth ${live.value}` : ""}${live.member ? `, ${live.member}'s family member` : ""}` };
      }),
    };
  },

  /** @param {Schemas["CoronationView"]} view @param {Record<string, DataJson>} files @returns {Layout} */
  coronation(view, files) {
    /** @type {CoronationBoardFile} */
    const board = /** @type {CoronationBoardFile | undefined} */ (files["board.json"]) || view.board || {};
    /** @type {Map<string, string>} */
    const at = new Map();
    for (const d of view.detectives || []) if (d.location !== null && d.location !== undefined) mark(at, d.location, d.name || d.id);
    if (view.lind && view.lind.location !== null && view.lind.location !== undefined) mark(at, view.lind.location, "Lind");
    const locations = pairs(board.locations);
    /** @param {number[][] | undefined} list @param {string} colour @param {number} width @param {string} [dash] */
    const lines = (list, colour, width, dash) => (list || []).map(([a, b]) => {
      const from = locations.get(String(a)), to = locations.get(String(b));
      return from && to ? s("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, stroke: colour, "stroke-width": width, "stroke-dasharray": dash }) : null;
    });
    return {
      file: "board.json", what: "location", size: 13,
      under: [...lines(board.foot_lines, "#e3a3a0", 2), ...lines(board.cab_lines, "#6fbf73", 4, "10 6")],
      over: [],
      places: (board.locations || []).map((l) => ({
        id: l.id, name: l.name, x: l.x, y: l.y, r: 11, caption: l.id, mark: at.get(String(l.id)),
        fill: at.has(String(l.id)) ? "#f0b429" : l.jewel ? "#f7e3a1" : l.underground ? "#d5d8de" : "#fff",
        label: `${l.id} ${l.name}${l.jewel ? ", a jewel" : ""}${l.underground ? ", underground" : ""}${l.instrument ? `, ${l.instrument}` : ""}`,
      })),
    };
  },

  /** @param {Schemas["CourtOfMiraclesView"]} view @param {Record<string, DataJson>} files @returns {Layout} */
  "court-of-miracles"(view, files) {
    /** @type {CourtBoardFile} */
    const board = /** @type {CourtBoardFile | undefined} */ (files["board.json"]) || { neighbourhoods: view.neighbourhoods, renown_square: { lines: view.renown_square }, king_path: { spaces: view.king?.path },
      // The view's `seine` is the rogues in it, not a point: without the data the Seine has no place.
      seine: undefined };
    const now = pairs(view.neighbourhoods), lines = new Map((view.renown_square || []).map((l) => [l.line, l]));
    /** @type {SVGElement[]} */
    const under = [], over = [];
    for (const space of board.king_path?.spaces || []) {
      const here = view.king && view.king.space === space.space;
      under.push(s("rect", { x: space.x - 16, y: space.y - 16, width: 32, height: 32, rx: 4, fill: here ? "#f0b429" : space.wrath ? "#f3dcdc" : "#fff", stroke: "#5a6270" },
        s("title", {}, `${space.name || `King's path ${space.space}`}${space.wrath ? `, Wrath on ${space.wrath}` : ""}${here ? ": the Penniless King is here" : ""}`)));
      over.push(label(space.x, space.y + 5, 13, here ? "K" : space.space));
    }
    for (const line of board.renown_square?.lines || []) {
      const seats = lines.get(line.line)?.seats || [];
      under.push(s("rect", { x: line.x - 60, y: line.y - 9, width: 140, height: 18, fill: "#eef2f8", stroke: "#c9ced6",
        "data-place": `Renown Square line:${line.line}`, "data-name": `line ${line.line}` }, s("title", {}, `Renown line ${line.line}: pay ${line.toll}, gain ${line.amount} ${line.bonus}`)));
      over.push(label(line.x - 20, line.y + 5, 12, `${line.line}: ${line.toll} → ${line.amount} ${line.bonus}`));
      seats.forEach((seat, n) => over.push(s("circle", { cx: line.x + 50 + n * 12, cy: line.y, r: 5, fill: seatColour(seat) }, s("title", {}, seat))));
    }
    if (board.seine) over.push(label(board.seine.x, board.seine.y, 18, `Seine (${view.seine_size ?? 0} rogues)`, { fill: "#2e86ab" }));
    for (const n of board.neighbourhoods || []) {
      const live = now.get(n.id);
      const spots = new Map(((live?.spots) || []).map((spot) => [spot.spot, spot]));
      for (const spot of n.spots || []) {
        const taken = spots.get(spot.spot) || /** @type {Partial<Schemas["CourtOfMiraclesSpot"]>} */ ({});
        under.push(s("line", { x1: n.x, y1: n.y, x2: spot.x, y2: spot.y, stroke: "#c9ced6", "stroke-width": 3 }));
        over.push(s("circle", { cx: spot.x, cy: spot.y, r: 14, fill: taken.owner ? seatColour(taken.owner) : "#fff", stroke: "#5a6270", "data-spot": `${n.id}-${spot.spot}` },
          s("title", {}, `${n.name} spot ${spot.spot}: ${spot.effect} ${spot.amount}${taken.owner ? `; ${taken.owner}'s ${taken.rogue || "rogue"}` : ""}`)));
        over.push(label(spot.x, spot.y + 4, 11, taken.rogue ? taken.rogue.slice(0, 3) : `${spot.amount}${spot.effect[0]}`));
      }
    }
    return {
      file: "board.json", what: "neighbourhood", size: 18, under, over,
      places: (board.neighbourhoods || []).map((n) => {
        const controller = now.get(n.id)?.controller;
        return { id: n.id, name: n.name, x: n.x, y: n.y, r: 30, caption: n.name, mark: controller, fill: controller ? seatColour(controller) : "#fff",
          label: `${n.name} (${n.action})${controller ? `, controlled by ${controller}` : ""}` };
      }),
    };
  },

  /** @param {Schemas["RuneboundView"]} view @param {Record<string, DataJson>} files @returns {Layout} */
  runebound(view, files) {
    /** @type {RuneboundDataFile} */
    const board = /** @type {RuneboundDataFile | undefined} */ (files["data.json"]) || view.board || {};
    const places = new Map((board.places || []).map((p) => [p.name, p]));
    /** @type {Map<string, string>} */
    const heroes = new Map();
    /** @type {Map<string, string[]>} */
    const counters = new Map();
    for (const hero of view.heroes || []) if (hero.place) mark(heroes, hero.place, hero.seat || hero.hero);
    for (const counter of view.counters || []) counters.set(counter.place, [...(counters.get(counter.place) || []), counter.colour]);
    /** @type {Record<string, string>} */
    const kinds = { town: "#e8d9b5", wild: "#cfe3c1", mountain: "#d5d8de", forest: "#a8cf9b", swamp: "#bfc9a4", water: "#bcd9ef" };
    /** @type {SVGElement[]} */
    const over = [];
    for (const [name, colours] of counters) {
      const p = places.get(name);
      if (p) colours.forEach((colour, n) => over.push(s("circle", { cx: p.x + 4.5 + n * 2.4, cy: p.y - 3, r: 1.6, fill: colour, stroke: "#333", "stroke-width": 0.2 }, s("title", {}, `${colour} adventure at ${name}`))));
    }
    return {
      file: "data.json", what: "place", size: 2.4, over,
      under: (board.edges || []).map(([a, b]) => {
        const from = places.get(a), to = places.get(b);
        return from && to ? s("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, stroke: "#b9a27a", "stroke-width": 0.7 }) : null;
      }),
      places: (board.places || []).map((p) => ({
        id: p.name, name: p.name, x: p.x, y: p.y, r: 3.2, caption: p.name, mark: heroes.get(p.name), fill: heroes.has(p.name) ? "#f0b429" : kinds[p.kind] || "#fff",
        label: `${p.name} (${p.kind}${p.starburst ? ", starburst" : ""})${heroes.has(p.name) ? `: ${heroes.get(p.name)}` : ""}`,
      })),
    };
  },

  /** @param {Schemas["TheCoilView"]} view @param {Record<string, DataJson>} files @returns {Layout} */
  "the-coil"(view, files) {
    /** @type {TheCoilDataFile} */
    const about = /** @type {TheCoilDataFile | undefined} */ (files["data.json"]) || {};
    /** @type {NonNullable<TheCoilDataFile["layout"]>} */
    const layout = about.layout || view.layout || {};
    const seats = view.seats || [];
    const table = (layout.table || {})[String(seats.length)] || seats.map((seat) => [seat.x, seat.y]);
    const card = layout.card || { width: 60, height: 90 };
    const nations = pairs(about.nations);
    const under = (view.coil || []).map((region) => s("rect", { x: region.x - card.width / 2, y: region.y - card.height / 2, width: card.width, height: card.height, rx: 4,
      fill: nations.get(region.card && region.card.nation)?.color || "#eee", stroke: "#5a6270", opacity: 0.8,
      "data-place": region.card ? `region:${region.card.id}` : null, "data-name": region.card ? region.card.id : null },
    s("title", {}, `The Coil, region ${region.position}: ${region.card ? `${region.card.id}, ${region.card.slots} slots` : "empty"}`)));
    const [dx, dy] = layout.northern_die || [0, 0];
    return {
      file: "data.json", what: "seat", size: 14, under,
      over: [s("rect", { x: dx - 18, y: dy - 18, width: 36, height: 36, rx: 6, fill: "#fff", stroke: "#1b1f24" }, s("title", {}, "the northern die")), label(dx, dy + 7, 20, view.northern_die ?? "")],
      places: table.map(([x, y], n) => {
        const seat = seats[n] || /** @type {Partial<Schemas["TheCoilSeat"]>} */ ({});
        // A seat's nation, as the view gives it or by its id.
        const nation = nations.get(/** @type {string} */ (seat.nation && (seat.nation.id || seat.nation))) || seat.nation || null;
        return { id: seat.seat || `seat-${n + 1}`, name: nation ? nation.name : seat.seat, x, y, w: card.width, h: card.height, mark: seat.seat,
          fill: nation ? nation.color || "#eee" : "#fff", label: `${seat.seat}${nation ? `, ${nation.name}` : ", no nation yet"}` };
      }),
    };
  },
};

// Every place is drawn with `data-place="<what>:<id>"` (what a command field's
// Names says it names: "crossing:C12", "location:40"): the composer
// (compose.js) finds a step's candidates there, highlights them and takes the click.
/**
 * @param {string} game
 * @param {Schemas["ViewResponse"] | null} envelope
 * @param {GameData | null} data
 * @returns {SVGSVGElement}
 */
export function drawBoard(game, envelope, data) {
  const view = envelope && envelope.view;
  // Each game's drawing takes that game's view: `game` names the game the view is of.
  const draw = /** @type {Record<string, Draw | undefined>} */ (GAMES)[game];
  if (!view || !draw) return seatsOnly(envelope);
  const files = (data && data.files) || {};
  const layout = draw(view, files, /** @type {Schemas["ViewResponse"]} */ (envelope));
  const places = layout.places.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (places.length === 0) return seatsOnly(envelope);
  const about = data && data.about && data.about[layout.file];
  const extent = about && about.coordinates && about.coordinates.extent;
  const margin = Math.max(...places.map((p) => (p.r ? p.r * 1.6 : /** @type {number} */ (p.h) / 2 + 24))); // a place without r is a card
  const box = extent ? [extent.x_min - margin, extent.y_min - margin, extent.x_max - extent.x_min + 2 * margin, extent.y_max - extent.y_min + 2 * margin] : bounds(places, margin);
  const svg = s("svg", { viewBox: box.join(" "), role: "group", "aria-label": `the board of ${game.replace(/-/g, " ")}`, "data-drawn-from": data ? "data" : "view",
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

/** @param {Place} place @param {number} size @param {string} what @returns {SVGElement[]} */
function drawPlace(place, size, what) {
  const r = place.r || Math.min(/** @type {number} */ (place.w), /** @type {number} */ (place.h)) / 2; // a card without r
  /** @type {Attrs} */
  const attrs = {
    fill: place.fill || "#fff", stroke: "#5a6270", "stroke-width": r / 8,
    "data-place": `${what}:${place.id}`, "data-name": place.name,
    ...(place.w ? { x: place.x - place.w / 2, y: place.y - /** @type {number} */ (place.h) / 2, width: place.w, height: place.h, rx: r / 6 } : { cx: place.x, cy: place.y, r }),
  };
  /** @type {SVGElement[]} */
  const drawn = [s(place.w ? "rect" : "circle", attrs, s("title", {}, place.label || place.name))];
  if (place.w) drawn.push(label(place.x, place.y + size / 3, size, place.name));
  if (place.mark && !place.w) drawn.push(label(place.x, place.y - r * 1.35, size, place.mark));
  // A caption inside a small place (Coronation's numbers), below a large one (names).
  if (place.caption !== undefined) drawn.push(typeof place.caption === "number" ? label(place.x, place.y + r * 0.4, r, place.caption, { "pointer-events": "none" })
    : label(place.x, place.y + r + size, size * 0.8, place.caption, { "pointer-events": "none" }));
  return drawn;
}

// The cards in your hand and your private information, with their names and
// texts from the data (data.js's handOf).
/** @param {Card[]} cards @returns {HTMLElement} */
export function drawHand(cards) {
  if (!cards.length) return h("p", { class: "muted" }, "No cards in your hand.");
  return h("ul", { class: "hand", id: "hand" }, cards.map((card) => h("li", { "data-card": card.id },
    h("strong", {}, card.name), card.count > 1 ? ` ×${card.count}` : "", h("span", { class: "muted" }, ` ${card.kind}`),
    card.text ? h("p", {}, card.text) : "")));
}

// A game whose view has no coordinates: its seats, whose turn it is.
/** @param {Schemas["ViewResponse"] | null} envelope @returns {SVGSVGElement} */
function seatsOnly(envelope) {
  // Seats as names (Cronberg's, Court of Miracles') or as objects (The Coil's); some views have none.
  const view = /** @type {{ seats?: (string | { seat: string })[] } | null} */ (envelope && envelope.view);
  const seats = envelope && view && Array.isArray(view.seats) ? view.seats.map((x) => (typeof x === "string" ? x : x.seat)) : [];
  const svg = s("svg", { viewBox: "0 0 200 200", role: "img", "aria-label": "seats" });
  seats.forEach((seat, n) => {
    const angle = (2 * Math.PI * n) / seats.length;
    const x = 100 + 70 * Math.sin(angle), y = 100 - 70 * Math.cos(angle);
    const turn = ((envelope && envelope.to_act) || []).includes(seat); // seats come from an envelope
    svg.append(s("circle", { cx: x, cy: y, r: 18, fill: turn ? "#f0b429" : "#fff", stroke: "#5a6270" }));
    svg.append(s("text", { x, y: y + 4, "font-size": 11, "text-anchor": "middle" }, seat));
  });
  return svg;
}
