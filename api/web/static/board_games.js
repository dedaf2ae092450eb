// @ts-check
// Each kind of board as board.js draws it: what is where on it, from the
// game's data files (`files`, by name; {} without data) and from the view.
// A game declares its board's kind and data file (the catalogue's `board`,
// the kit's Board: BOARD_DRAWING in the game's shapes.py); board.js picks the
// drawing by that kind, never by the game's name, so a new game of a known
// kind is drawn with no change here. What stays per kind: the shape of the
// data file's places and lines it reads, the view's fields it reads for what
// stands where, and what a board of that kind looks like (walls, lines,
// paths, spots, which colour means what); choosing on the board stays
// generic (compose.js finds `data-place`).
// A layout: {file: the data file whose extent frames the board (the declared one),
//  places: [{id, name, x, y, r | w h, fill, mark, label, inside, caption}],
//  under / over: SVG elements drawn below / above the places,
//  size: a label's font size, legend: what the colours and signs mean, from the data,
//  reach: what else the frame must hold (The Coil's regions, placed by the view beyond the data's extent)}.
import { s } from "./dom.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {import("./dom.js").Attrs} Attrs */
/** @typedef {import("./data.js").DataJson} DataJson */
/** @typedef {NonNullable<Schemas["ViewResponse"]["view"]>} View */
/**
 * A place as a board draws it: a circle (r) or a card (w, h); `inside` its
 * label drawn within it, `caption` beside it, `mark` what stands on it.
 * @typedef {{ id: string | number, name?: string, x: number, y: number, r?: number, w?: number, h?: number,
 *   fill?: string, mark?: string | null, label?: string, inside?: string | number, caption?: string, above?: boolean }} Place
 */
/** A legend's entry: a swatch (a colour, a shape) and what it means. @typedef {{ fill: string, shape?: "circle" | "square" | "line" | "dash", text: string }} Key */
/** @typedef {{ file: string, what: string, places: Place[], under: (SVGElement | null)[], over: (SVGElement | null)[], size: number, legend: Key[], reach?: Place[] }} Layout */
/** A seat's player as people call him ("Ada"): never the seat's id on the board. @typedef {(seat: unknown) => string} Who */
/** A kind's drawing: the view, the game's data files by name, the declared board file's name, the seats' players. @typedef {(view: View, files: Record<string, DataJson>, file: string, who: Who) => Layout} Draw */
/**
 * What each kind reads of its board file (the document types data files
 * only as JSON objects): a fallback drawn from the view has the same shape.
 * Each is named for the game it was first drawn for, whose view it reads.
 * @typedef {{ crossings?: { id: string, x: number, y: number }[],
 *   triangles?: { id: string, corners: string[], kind: string, x: number, y: number, wall_sides?: string[][] }[] }} CronbergBoardFile
 * @typedef {{ locations?: { id: number, name: string, x: number, y: number, jewel?: boolean, underground?: boolean, instrument?: string | null }[],
 *   foot_lines?: number[][], cab_lines?: number[][] }} CoronationBoardFile
 * @typedef {{ neighbourhoods?: { id: string, name: string, action: string, x: number, y: number,
 *     spots?: { spot: number, effect: string, amount: number, x: number, y: number }[] }[],
 *   renown_square?: { lines?: { line: number, toll: number, bonus: string, amount: number, x: number, y: number }[] },
 *   king_path?: { spaces?: { space: number, x: number, y: number, name?: string, wrath?: string }[] },
 *   seine?: { x: number, y: number } }} CourtBoardFile
 * @typedef {{ places?: { name: string, x: number, y: number, kind: string, counter?: string, starburst?: boolean }[], edges?: string[][] }} RuneboundDataFile
 * @typedef {{ layout?: { table?: Record<string, number[][]>, card?: Record<string, number>, northern_die?: number[] },
 *   nations?: { id: string, name: string, color?: string }[] }} TheCoilDataFile
 * @typedef {{ cards?: { id: string, name: string }[] }} TheCoilNamesFile
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
/** "first-aid-kit" → "first aid kit". @param {unknown} text */
const spoken = (text) => String(text).replace(/[_-]+/g, " ");
// A label the board may move away from another (data-label="free"); fixed ones (a place's own) never move.
/** @param {number} x @param {number} y @param {number} size @param {unknown} text @param {Attrs} [attrs] */
export const label = (x, y, size, text, attrs = {}) => s("text", { x, y, "font-size": size, "text-anchor": "middle", "aria-hidden": "true", "data-label": "free", ...attrs }, String(text));
/** The seats present in the view, for the legend, by their players. @param {unknown[]} seats @param {Who} who @returns {Key[]} */
const seatKeys = (seats, who) => [...new Set(seats.filter(Boolean).map(String))].map((seat) => ({ fill: seatColour(seat), text: who(seat) }));

// Each kind's drawing takes a view shaped as that of the game it was first
// drawn for (board.js picks it by the declared kind).
export const KINDS = {
  // Crossings and triangles of a triangular grid inside a wall; buildings over
  // pairs of triangles with their corner numbers; a seat's pieces on crossings.
  /** @param {Schemas["CronbergView"]} view @param {Record<string, DataJson>} files @param {string} file @param {Who} who @returns {Layout} */
  "triangle-grid"(view, files, file, who) {
    /** @type {CronbergBoardFile} */
    const board = /** @type {CronbergBoardFile | undefined} */ (files[file]) || view;
    const crossings = pairs(board.crossings), now = pairs(view.crossings), triangles = pairs(view.triangles);
    /** @type {Record<string, string>} */
    const kinds = { plain: "#f4f1ea", park: "#cfe8c4", musketeer: "#d9e2f2", coat_of_arms: "#f3dcdc" };
    /** @type {SVGElement[]} */
    const under = [], over = [];
    for (const t of board.triangles || []) {
      const corners = t.corners.map((id) => crossings.get(String(id))).filter((c) => c !== undefined);
      const tile = triangles.get(t.id)?.tile;
      under.push(s("polygon", { points: corners.map((c) => `${c.x},${c.y}`).join(" "), fill: tile ? "#9c7b52" : kinds[t.kind] || "#fff", stroke: "#c9ced6", "stroke-width": 0.02, "data-triangle": t.id, "data-place": `triangle:${t.id}`, "data-name": t.id },
        s("title", {}, `Triangle ${t.id}, ${spoken(t.kind)}${tile ? `, building ${tile}` : ""}`)));
      for (const [a, b] of t.wall_sides || []) {
        const from = crossings.get(String(a)), to = crossings.get(String(b));
        if (from && to) under.push(s("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, stroke: "#5a4632", "stroke-width": 0.08, "stroke-linecap": "round" }));
      }
      over.push(label(t.x, t.y + 0.04, 0.13, tile ? `${t.id} · ${tile}` : t.id, { fill: tile ? "#fff" : "#5a6270", "data-label": "fixed", "data-for": `triangle:${t.id}` }));
    }
    // A building's corner numbers, each inside the building near its crossing.
    for (const building of view.buildings || []) {
      const halves = building.triangles.map((id) => triangles.get(id)).filter((t) => t !== undefined);
      if (!halves.length) continue;
      const cx = halves.reduce((sum, t) => sum + t.x, 0) / halves.length, cy = halves.reduce((sum, t) => sum + t.y, 0) / halves.length;
      // Its outline: two buildings side by side read as two.
      const outline = (building.corners || []).map((corner) => crossings.get(corner.crossing)).filter((c) => c !== undefined);
      under.push(s("polygon", { points: outline.map((c) => `${c.x},${c.y}`).join(" "), fill: "none", stroke: "#fff8e6", "stroke-width": 0.04, "stroke-linejoin": "round" }));
      for (const corner of building.corners || []) {
        const at = crossings.get(corner.crossing);
        const away = at && Math.hypot(cx - at.x, cy - at.y);  // clear of the crossing's circle, whichever corner
        if (at && away) over.push(label(at.x + ((cx - at.x) * 0.27) / away, at.y + ((cy - at.y) * 0.27) / away + 0.04, 0.12, corner.number, { fill: "#fff", "font-weight": 700, "data-label": "fixed" }));
      }
    }
    const used = new Set((board.triangles || []).map((t) => t.kind));
    return {
      file, what: "crossing", size: 0.16, under, over,
      legend: [...Object.entries(kinds).filter(([kind]) => used.has(kind)).map(([kind, fill]) => ({ fill, shape: /** @type {const} */ ("square"), text: `${spoken(kind)} triangle` })),
        { fill: "#9c7b52", shape: "square", text: "a building: its tile and its corner numbers" }, { fill: "#5a4632", shape: "line", text: "the city wall" },
        { fill: "#fff", shape: "circle", text: "a crossing (X01…), where a family member stands" }, ...seatKeys(view.seats || [], who)],
      places: [...crossings.values()].map((c) => {
        const live = now.get(c.id) || /** @type {Partial<Schemas["CronbergCrossing"]>} */ ({});
        return { id: c.id, name: c.id, x: c.x, y: c.y, r: 0.17, inside: c.id, mark: live.member ? who(live.member) : null, fill: live.member ? seatColour(live.member) : "#fff",
          label: `Crossing ${c.id}${live.value ? `, worth ${live.value}` : ""}${live.member ? `, ${who(live.member)}'s family member` : ""}` };
      }),
    };
  },

  // Numbered, named locations joined by two kinds of line (on foot, by cab);
  // the pieces (detectives, a hidden one) at their locations.
  /** @param {Schemas["CoronationView"]} view @param {Record<string, DataJson>} files @param {string} file @returns {Layout} */
  "numbered-map"(view, files, file) {
    /** @type {CoronationBoardFile} */
    const board = /** @type {CoronationBoardFile | undefined} */ (files[file]) || view.board || {};
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
    const all = board.locations || [];
    const instruments = [...new Set(all.map((l) => l.instrument).filter(Boolean))];
    return {
      file, what: "location", size: 17,
      under: [...lines(board.foot_lines, "#e3a3a0", 2), ...lines(board.cab_lines, "#6fbf73", 4, "10 6")],
      over: [],
      legend: [{ fill: "#e3a3a0", shape: "line", text: "on foot" }, { fill: "#6fbf73", shape: "dash", text: "by cab" },
        ...(all.some((l) => l.jewel) ? [{ fill: "#f7e3a1", shape: /** @type {const} */ ("circle"), text: "a jewel location" }] : []),
        ...(all.some((l) => l.underground) ? [{ fill: "#d5d8de", shape: /** @type {const} */ ("circle"), text: "an underground entrance" }] : []),
        ...(instruments.length ? [{ fill: "#fff", shape: /** @type {const} */ ("circle"), text: `a special location (${instruments.map(spoken).join(", ")})` }] : []),
        { fill: "#f0b429", shape: "circle", text: "a detective or Lind is here" }],
      places: all.map((l) => ({
        id: l.id, name: l.name, x: l.x, y: l.y, r: 14, inside: l.id, mark: at.get(String(l.id)),
        fill: at.has(String(l.id)) ? "#f0b429" : l.jewel ? "#f7e3a1" : l.underground ? "#d5d8de" : "#fff",
        label: `${l.id} ${l.name}${l.jewel ? ", a jewel" : ""}${l.underground ? ", underground" : ""}${l.instrument ? `, ${spoken(l.instrument)}` : ""}`,
      })),
    };
  },

  // Neighbourhoods, each with spots a seat's pieces take, a track of lines
  // (Renown Square), a path a pawn walks (the King's) and a discard place.
  /** @param {Schemas["CourtOfMiraclesView"]} view @param {Record<string, DataJson>} files @param {string} file @param {Who} who @returns {Layout} */
  neighbourhoods(view, files, file, who) {
    /** @type {CourtBoardFile} */
    const board = /** @type {CourtBoardFile | undefined} */ (files[file]) || { neighbourhoods: view.neighbourhoods, renown_square: { lines: view.renown_square }, king_path: { spaces: view.king?.path },
      // The view's `seine` is the rogues in it, not a point: without the data the Seine has no place.
      seine: undefined };
    const now = pairs(view.neighbourhoods), lines = new Map((view.renown_square || []).map((l) => [l.line, l]));
    /** @type {SVGElement[]} */
    const under = [], over = [];
    for (const space of board.king_path?.spaces || []) {
      const here = view.king && view.king.space === space.space;
      under.push(s("rect", { x: space.x - 20, y: space.y - 20, width: 40, height: 40, rx: 4, fill: here ? "#f0b429" : space.wrath ? "#f3dcdc" : "#fff", stroke: "#5a6270" },
        s("title", {}, `${space.name || `King's path ${space.space}`}${space.wrath ? `, Wrath on ${space.wrath}` : ""}${here ? ": the Penniless King is here" : ""}`)));
      over.push(label(space.x, space.y + 7, 20, here ? "K" : space.space, { "data-label": "fixed" }));
    }
    for (const line of board.renown_square?.lines || []) {
      const seats = lines.get(line.line)?.seats || [];
      under.push(s("rect", { x: line.x - 110, y: line.y - 10, width: 250, height: 20, fill: "#eef2f8", stroke: "#c9ced6",
        "data-place": `Renown Square line:${line.line}`, "data-name": `line ${line.line}` }, s("title", {}, `Renown line ${line.line}: pay ${line.toll}, gain ${line.amount} ${spoken(line.bonus)}`)));
      over.push(label(line.x + 15, line.y + 5, 15, `${line.line}: pay ${line.toll} → ${line.amount} ${spoken(line.bonus)}`, { "data-label": "fixed", "data-for": `Renown Square line:${line.line}` }));
      seats.forEach((seat, n) => over.push(s("circle", { cx: line.x + 150 + n * 14, cy: line.y, r: 6, fill: seatColour(seat) }, s("title", {}, who(seat)))));
    }
    if (board.seine) over.push(label(board.seine.x, board.seine.y, 20, `Seine (${view.seine_size ?? 0} rogues)`, { fill: "#2e86ab" }));
    /** @type {Set<string>} */
    const effects = new Set();
    const rogues = pairs(/** @type {{ cards?: { id: string, name: string }[] } | undefined} */ (files["names.json"])?.cards);
    for (const n of board.neighbourhoods || []) {
      const live = now.get(n.id);
      const spots = new Map(((live?.spots) || []).map((spot) => [spot.spot, spot]));
      for (const spot of n.spots || []) {
        const taken = spots.get(spot.spot) || /** @type {Partial<Schemas["CourtOfMiraclesSpot"]>} */ ({});
        effects.add(spot.effect);
        under.push(s("line", { x1: n.x, y1: n.y, x2: spot.x, y2: spot.y, stroke: "#c9ced6", "stroke-width": 3 }));
        over.push(s("circle", { cx: spot.x, cy: spot.y, r: 19, fill: taken.owner ? seatColour(taken.owner) : "#fff", stroke: "#5a6270", "data-spot": `${n.id}-${spot.spot}` },
          s("title", {}, `${n.name} spot ${spot.spot}: ${spot.amount} ${spoken(spot.effect)}${taken.owner ? `; ${who(taken.owner)}'s ${taken.rogue ? rogues.get(taken.rogue)?.name || spoken(taken.rogue) : "rogue"}` : ""}`)));
        // A rogue by its name's first letters (names.json's name, not its id), a free spot by its bonus.
        const rogue = taken.rogue ? (rogues.get(taken.rogue)?.name || spoken(taken.rogue)).replace(/^The /, "").slice(0, 3) : "";
        over.push(label(spot.x, spot.y + 6, 17, rogue || `${spot.amount}${spot.effect[0]}`, { "data-label": "fixed" }));
      }
    }
    return {
      file, what: "neighbourhood", size: 30, under, over,
      legend: [...[...effects].map((effect) => ({ fill: "#fff", shape: /** @type {const} */ ("circle"), text: `${effect[0]}: a spot that gives ${spoken(effect)}` })),
        { fill: "#f3dcdc", shape: "square", text: "the King's path: Wrath here" }, { fill: "#f0b429", shape: "square", text: "the Penniless King" },
        ...seatKeys((view.players || []).map((p) => p.seat), who)],
      places: (board.neighbourhoods || []).map((n) => {
        const controller = now.get(n.id)?.controller;
        return { id: n.id, name: n.name, x: n.x, y: n.y, r: 26, caption: n.name, above: true, mark: controller ? who(controller) : null, fill: controller ? seatColour(controller) : "#fff",
          label: `${n.name} (${n.action})${controller ? `, controlled by ${who(controller)}` : ""}` };
      }),
    };
  },

  // Named places of kinds of terrain joined by roads; heroes and coloured
  // counters on places.
  /** @param {Schemas["RuneboundView"]} view @param {Record<string, DataJson>} files @param {string} file @param {Who} who @returns {Layout} */
  "terrain-map"(view, files, file, who) {
    /** @type {RuneboundDataFile} */
    const board = /** @type {RuneboundDataFile | undefined} */ (files[file]) || view.board || {};
    const places = new Map((board.places || []).map((p) => [p.name, p]));
    /** @type {Map<string, string>} */
    const heroes = new Map();
    /** @type {Map<string, string[]>} */
    const counters = new Map();
    for (const hero of view.heroes || []) if (hero.place) mark(heroes, hero.place, hero.seat ? who(hero.seat) : hero.hero);
    for (const counter of view.counters || []) counters.set(counter.place, [...(counters.get(counter.place) || []), counter.colour]);
    /** @type {Record<string, string>} */
    const kinds = { town: "#e8d9b5", wild: "#cfe3c1", mountain: "#d5d8de", forest: "#a8cf9b", swamp: "#bfc9a4", water: "#bcd9ef" };
    /** @type {SVGElement[]} */
    const over = [];
    for (const [name, colours] of counters) {
      const p = places.get(name);
      if (p) colours.forEach((colour, n) => over.push(s("circle", { cx: p.x + 4.5 + n * 2.4, cy: p.y - 3, r: 1.6, fill: colour, stroke: "#333", "stroke-width": 0.2 }, s("title", {}, `${colour} adventure at ${name}`))));
    }
    const all = board.places || [];
    const used = [...new Set(all.map((p) => p.kind))], colours = [...new Set(all.map((p) => p.counter).filter(Boolean))];
    return {
      file, what: "place", size: 2.4, over,
      under: (board.edges || []).map(([a, b]) => {
        const from = places.get(a), to = places.get(b);
        return from && to ? s("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, stroke: "#b9a27a", "stroke-width": 0.7 }) : null;
      }),
      legend: [...used.map((kind) => ({ fill: kinds[kind] || "#fff", shape: /** @type {const} */ ("circle"), text: `${spoken(kind)}` })),
        ...colours.map((colour) => ({ fill: String(colour), shape: /** @type {const} */ ("circle"), text: `a ${colour} adventure` })),
        { fill: "#b9a27a", shape: "line", text: "a road" }, { fill: "#f0b429", shape: "circle", text: "a hero is here" }],
      places: all.map((p) => ({
        id: p.name, name: p.name, x: p.x, y: p.y, r: 3.2, caption: p.name, mark: heroes.get(p.name), fill: heroes.has(p.name) ? "#f0b429" : kinds[p.kind] || "#fff",
        label: `${p.name} (${p.kind}${p.starburst ? ", starburst" : ""})${heroes.has(p.name) ? `: ${heroes.get(p.name)}` : ""}`,
      })),
    };
  },

  // No map: each seat's card around a table (the file's layout, by seat
  // count), a row of regions the view places, a die.
  /** @param {Schemas["TheCoilView"]} view @param {Record<string, DataJson>} files @param {string} file @param {Who} who @returns {Layout} */
  "card-table"(view, files, file, who) {
    /** @type {TheCoilDataFile} */
    const about = /** @type {TheCoilDataFile | undefined} */ (files[file]) || {};
    /** @type {NonNullable<TheCoilDataFile["layout"]>} */
    const layout = about.layout || view.layout || {};
    const seats = view.seats || [];
    const table = (layout.table || {})[String(seats.length)] || seats.map((seat) => [seat.x, seat.y]);
    const card = layout.card || { width: 60, height: 90 };
    const nations = pairs(about.nations);
    const names = pairs(/** @type {TheCoilNamesFile | undefined} */ (files["card_names.json"])?.cards);
    /** @type {SVGElement[]} */
    const under = [];
    for (const region of view.coil || []) {
      const id = region.card && region.card.id, name = id ? names.get(id)?.name || spoken(id) : "";
      under.push(s("rect", { x: region.x - card.width / 2, y: region.y - card.height / 2, width: card.width, height: card.height, rx: 4,
        fill: nations.get(region.card && region.card.nation)?.color || "#eee", stroke: "#5a6270", opacity: 0.8,
        "data-place": id ? `region:${id}` : null, "data-name": id ? name : null },
      s("title", {}, `Region ${region.position}: ${id ? `${name}, ${region.card.slots} slots` : "empty"}`)));
      if (id) under.push(label(region.x, region.y + 5, 14, name.split(":")[0], { "data-for": `region:${id}` }));
    }
    const [dx, dy] = layout.northern_die || [0, 0];
    return {
      file, what: "seat", size: 16, under,
      reach: (view.coil || []).map((region) => ({ id: region.position, x: region.x, y: region.y, w: card.width, h: card.height })),
      over: [s("rect", { x: dx - 18, y: dy - 18, width: 36, height: 36, rx: 6, fill: "#fff", stroke: "#1b1f24" }, s("title", {}, "the northern die")), label(dx, dy + 7, 20, view.northern_die ?? "", { "data-label": "fixed" })],
      legend: [...[...nations.values()].map((nation) => ({ fill: nation.color || "#eee", shape: /** @type {const} */ ("square"), text: nation.name })),
        { fill: "#fff", shape: "square", text: "the northern die" }],
      places: table.map(([x, y], n) => {
        const seat = seats[n] || /** @type {Partial<Schemas["TheCoilSeat"]>} */ ({});
        // A seat's nation, as the view gives it or by its id.
        const nation = nations.get(/** @type {string} */ (seat.nation && (seat.nation.id || seat.nation))) || seat.nation || null;
        return { id: seat.seat || `seat-${n + 1}`, name: nation ? nation.name : who(seat.seat), x, y, w: card.width, h: card.height, mark: seat.seat ? who(seat.seat) : null,
          fill: nation ? nation.color || "#eee" : "#fff", label: `${who(seat.seat)}${nation ? `, ${nation.name}` : ", no nation yet"}` };
      }),
    };
  },
};
