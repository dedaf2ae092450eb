// A game's data files (boards, cards, tiles), exactly those it was played
// with: its GameCreated event (the feed's first) records each file's sha256
// in `data_files`, and GET /v1/rules/{game}/data/{sha256} serves those bytes,
// cacheable for ever. Each file is fetched once per page (and the browser
// keeps it after), whatever the number of games or tables that use it.
// GET /v1/rules/{game}/data says how to read each file's coordinates (units,
// axes, extent): it is fetched once per game.
import { get } from "./api.js";

const files = new Map(); // sha256 → a promise of the file's JSON
const listings = new Map(); // game → a promise of its files' descriptions, by sha256

function once(cache, key, load) {
  if (!cache.has(key)) cache.set(key, load().catch((error) => { cache.delete(key); throw error; }));
  return cache.get(key);
}

// The data of game `id`: {game, sha256: {name: digest}, files: {name: JSON}, about: {name: description}}.
// `events` may hold the feed's tail already fetched: its GameCreated spares a request.
// `as` is the token the feed is read with (null: as a spectator).
export async function gameData(game, id, { events = [], as } = {}) {
  let created = events.find((event) => event.type === "GameCreated");
  if (!created) {
    const feed = await get(`/games/${encodeURIComponent(id)}/events?after=0&limit=1`, { as });
    created = feed.events.find((event) => event.type === "GameCreated");
  }
  const digests = (created && created.data && created.data.data_files) || {};
  const listing = once(listings, game, async () => new Map(
    (await get(`/rules/${encodeURIComponent(game)}/data`, { as: null })).files.map((file) => [file.sha256, file])));
  const names = Object.keys(digests);
  const contents = await Promise.all(names.map((name) => once(files, digests[name],
    () => get(`/rules/${encodeURIComponent(game)}/data/${digests[name]}`, { as: null }))));
  const described = await listing;
  return {
    game,
    sha256: digests,
    files: Object.fromEntries(names.map((name, n) => [name, contents[n]])),
    about: Object.fromEntries(names.map((name) => [name, described.get(digests[name]) || null])),
  };
}

// The cards in a seat's hand and its private information, each with its name
// and text from the data: [{kind, id, name, text, count}]. Only what the view
// shows: a hand the view hides (null) gives no card.
export function handOf(game, envelope, data) {
  const view = envelope && envelope.view;
  const seat = envelope && envelope.seat;
  const files = (data && data.files) || {};
  if (!view || !seat) return [];
  const card = (kind, id, found, count = 1) => ({ kind, id, name: (found && found.name) || String(id), text: (found && found.text) || "", count });
  const byId = (list, key = "id") => new Map((list || []).map((item) => [item[key], item]));
  if (game === "court-of-miracles") {
    const cards = files["cards.json"] || {}, texts = files["card_texts.json"] || {};
    const plots = byId(texts.plots || cards.plots, "card"), rogues = byId(texts.rogues || cards.rogues, "kind");
    const me = (view.players || []).find((p) => p.seat === seat) || {};
    return [...(me.hand || []).map((id) => card("Plot card", id, plots.get(id))),
      ...counted(me.supply || []).map(([id, count]) => card("Rogue", id, rogues.get(id), count))];
  }
  if (game === "coronation") {
    const cards = files["cards.json"] || {};
    const traps = byId(cards.traps), instruments = byId(cards.instruments);
    const named = { ticket: { name: "Ticket", text: "Pays for a cab ride." }, note: { name: "Note" }, "turn-skip": { name: "Turn skip" } };
    const lind = view.lind && view.lind.hand ? view.lind.hand.filter((c) => c.count > 0)
      .map((c) => card("Lind's card", c.card, traps.get(c.card) || instruments.get(c.card) || named[c.card], c.count)) : [];
    const mine = (view.detectives || []).filter((d) => d.seat === seat).flatMap((d) => counted(d.instruments || [])
      .map(([id, count]) => ({ ...card(`${d.name}'s instrument`, id, instruments.get(id), count) })));
    return [...lind, ...mine];
  }
  if (game === "the-coil") {
    const about = files["data.json"] || {};
    const tactics = byId(about.tactics), objectives = byId(about.objectives);
    const me = (view.seats || []).find((x) => x.seat === seat) || {};
    return [...(me.hand || []).map((c) => {
      const tactic = tactics.get(c.tactic) || {};
      return card("Homeland card", c.id, { name: `${c.id}: ${tactic.name || c.tactic}`, text: `${tactic.text || c.tactic_text || ""} Slots ${c.slots}; ${(c.resources || []).join(", ") || "no resources"}.` });
    }), ...(me.strategies || []).map((c) => card("Strategy card", c.id, { name: c.name, text: (objectives.get(c.objective) || {}).text || c.objective_text }))];
  }
  if (game === "runebound") {
    const about = files["data.json"] || {};
    const market = byId(about.market, "name");
    const hero = (view.heroes || []).find((x) => x.seat === seat);
    return hero ? [...(hero.items || []), ...(hero.allies || [])].map((name) => {
      const item = market.get(name) || {};
      return card(item.type || "Item", name, { name, text: item.cost !== undefined ? `Costs ${item.cost}.` : "" });
    }) : [];
  }
  if (game === "cronberg" && view.drawn) {
    const tiles = byId((files["tiles.json"] || {}).tiles);
    const id = typeof view.drawn === "object" ? view.drawn.id : view.drawn;
    const tile = tiles.get(id) || view.drawn;
    return [card("Building", id, { name: `Building ${id}`, text: `Corners ${(tile.corners || []).join(", ")} (clockwise from an acute corner).` })];
  }
  return [];
}

function counted(ids) {
  const counts = new Map();
  for (const id of ids) counts.set(id, (counts.get(id) || 0) + 1);
  return [...counts];
}
