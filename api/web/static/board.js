// Boards as SVG, from the view (each game's view carries its board's
// coordinates) and, when given, the game's data files (GET /v1/rules/{game}/data,
// not yet served: `data` is then null and the view alone is drawn).
// Each place may be a choice: `choose(field, id)` is called when a place
// that names a legal command is clicked or pressed.
import { s } from "./dom.js";

// Per game: its places {id, x, y, label, mark}, its lines [[a, b]], and the
// command field that names a place.
const GAMES = {
  cronberg: (view) => ({
    field: "crossing",
    places: (view.crossings || []).map((c) => ({ id: c.id, x: c.x * 60, y: c.y * 60, label: c.id, mark: c.member })),
    areas: (view.triangles || []).map((t) => ({ x: t.x * 60, y: t.y * 60, filled: t.tile !== null, label: t.id })),
    lines: [],
  }),
  coronation: (view) => {
    const board = view.board || {};
    const at = {};
    for (const d of view.detectives || []) if (d.location !== null) at[d.location] = (at[d.location] ? at[d.location] + " " : "") + d.id;
    if (view.lind && view.lind.location !== null && view.lind.location !== undefined) at[view.lind.location] = "lind";
    return {
      field: "location",
      places: (board.locations || []).map((l) => ({ id: l.id, x: l.x, y: l.y, label: `${l.id} ${l.name}`, mark: at[l.id] || (l.jewel ? "jewel" : null) })),
      lines: [...(board.foot_lines || []), ...(board.cab_lines || [])],
      areas: [],
    };
  },
  "court-of-miracles": (view) => ({
    field: "neighbourhood",
    places: (view.neighbourhoods || []).map((n) => ({ id: n.id, x: n.x, y: n.y, label: n.name, mark: n.controller })),
    lines: [],
    areas: [],
  }),
  runebound: (view) => {
    const board = view.board || {};
    const heroes = {};
    for (const hero of view.heroes || []) if (hero.place) heroes[hero.place] = (heroes[hero.place] ? heroes[hero.place] + " " : "") + (hero.seat || hero.name);
    return {
      field: "place",
      places: (board.places || []).map((p) => ({ id: p.name, x: p.x, y: p.y, label: p.name, mark: heroes[p.name] || null })),
      lines: board.edges || [],
      areas: [],
    };
  },
  "the-coil": (view) => ({
    field: null,
    places: (view.seats || []).map((seat) => ({ id: seat.seat, x: seat.x, y: seat.y, label: `${seat.seat} ${seat.nation || ""}`, mark: seat.nation })),
    lines: [],
    areas: [],
  }),
};

export function placeField(game) {
  const layout = GAMES[game];
  return layout ? layout({}).field : null;
}

export function drawBoard(game, envelope, data, { choices = new Set(), choose = null } = {}) {
  const view = envelope && envelope.view;
  const layout = GAMES[game] && view ? GAMES[game](view, data) : { places: [], lines: [], areas: [], field: null };
  const places = layout.places.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (places.length === 0) return seatsOnly(envelope);
  const xs = places.map((p) => p.x), ys = places.map((p) => p.y);
  const pad = 30;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const radius = Math.max(6, Math.min(box[2], box[3]) / 45);
  const byId = new Map(places.map((p) => [String(p.id), p]));
  const svg = s("svg", { viewBox: box.join(" "), role: "group", "aria-label": `${game} board` });
  for (const [a, b] of layout.lines) {
    const from = byId.get(String(a)), to = byId.get(String(b));
    if (from && to) svg.append(s("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, stroke: "#c9ced6", "stroke-width": radius / 4 }));
  }
  for (const area of layout.areas) {
    svg.append(s("circle", { cx: area.x, cy: area.y, r: radius / 2, fill: area.filled ? "#2d4a7a" : "#e3e7ee" }, s("title", {}, area.label)));
  }
  for (const place of places) {
    const choosable = choose && choices.has(String(place.id));
    const attrs = {
      cx: place.x, cy: place.y, r: radius,
      fill: place.mark ? "#f0b429" : "#fff", stroke: choosable ? "#b3261e" : "#5a6270", "stroke-width": choosable ? radius / 3 : radius / 8,
      "data-place": place.id,
    };
    if (choosable) {
      Object.assign(attrs, { tabindex: 0, role: "button", "aria-label": `choose ${place.label}`, class: "choice" });
      attrs.onclick = () => choose(layout.field, place.id);
      attrs.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(layout.field, place.id); } };
    }
    const circle = s("circle", attrs, s("title", {}, place.mark ? `${place.label}: ${place.mark}` : place.label));
    svg.append(circle);
    if (place.mark) svg.append(s("text", { x: place.x, y: place.y - radius * 1.3, "font-size": radius, "text-anchor": "middle", "aria-hidden": "true" }, String(place.mark)));
  }
  return svg;
}

// A game whose view has no coordinates: its seats, whose turn it is.
function seatsOnly(envelope) {
  const seats = envelope && envelope.view && Array.isArray(envelope.view.seats) ? envelope.view.seats.map((x) => (typeof x === "string" ? x : x.seat)) : [];
  const svg = s("svg", { viewBox: "0 0 200 200", role: "img", "aria-label": "seats" });
  seats.forEach((seat, n) => {
    const angle = (2 * Math.PI * n) / seats.length;
    const x = 100 + 70 * Math.sin(angle), y = 100 - 70 * Math.cos(angle);
    const turn = (envelope.to_act || []).includes(seat);
    svg.append(s("circle", { cx: x, cy: y, r: 18, fill: turn ? "#f0b429" : "#fff", stroke: "#5a6270" }));
    svg.append(s("text", { x, y: y + 4, "font-size": 11, "text-anchor": "middle" }, seat));
  });
  return svg;
}
