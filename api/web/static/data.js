// @ts-check
// A game's data files (boards, cards, tiles), exactly those it was played
// with: its GameCreated event (the feed's first) records each file's sha256
// in `data_files`, and GET /v1/rules/{game}/data/{sha256} serves those bytes,
// cacheable for ever. Each file is fetched once per page (and the browser
// keeps it after), whatever the number of games or tables that use it.
// GET /v1/rules/{game}/data says how to read each file's coordinates (units,
// axes, extent): it is fetched once per game.
import { get } from "./api.js";

/** @typedef {import("./openapi").paths} Paths */
/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["FeedResponse"]["events"][number]} FeedEvent */
/** A data file's JSON, as GET /v1/rules/{game}/data/{sha256} answers it. @typedef {Paths["/v1/rules/{game}/data/{sha256}"]["get"]["responses"][200]["content"]["application/json"]} DataJson */
/**
 * A game's data: each file's sha256, JSON and description, by the file's name.
 * @typedef {{ game: string, sha256: Record<string, string>, files: Record<string, DataJson>, about: Record<string, Schemas["DataFile"] | null> }} GameData
 */
/**
 * A card in a hand, with its name, text, colour and value from the data (a
 * Cronberg building: its corner numbers).
 * @typedef {{ kind: string, id: unknown, name: string, text: string, count: number, colour?: string, value?: unknown, corners?: number[] }} Card
 */
/**
 * What a hand reads of the data files (the document types them only as JSON objects).
 * @typedef {{ name?: string, text?: string }} Named
 * @typedef {{ plots?: ({ card: string } & Named)[], rogues?: ({ kind: string } & Named)[] }} CourtCardsFile
 * @typedef {{ traps?: ({ id: string } & Named)[], instruments?: ({ id: string } & Named)[] }} CoronationCardsFile
 * @typedef {{ tactics?: ({ id: string } & Named)[], objectives?: ({ id: string } & Named)[] }} TheCoilDataFile
 * @typedef {{ market?: { name: string, type?: string, cost?: number }[] }} RuneboundDataFile
 * @typedef {{ tiles?: { id: number, corners: number[] }[] }} CronbergTilesFile
 */

/** @type {Map<string, Promise<DataJson>>} */
const files = new Map(); // sha256 → a promise of the file's JSON
/** @type {Map<string, Promise<Map<string, Schemas["DataFile"]>>>} */
const listings = new Map(); // game → a promise of its files' descriptions, by sha256

/**
 * @template T
 * @param {Map<string, Promise<T>>} cache @param {string} key @param {() => Promise<T>} load
 * @returns {Promise<T>}
 */
function once(cache, key, load) {
  if (!cache.has(key)) cache.set(key, load().catch((error) => { cache.delete(key); throw error; }));
  return /** @type {Promise<T>} */ (cache.get(key));
}

// The data of game `id`: {game, sha256: {name: digest}, files: {name: JSON}, about: {name: description}}.
// `events` may hold the feed's tail already fetched: its GameCreated spares a request.
// `as` is the token the feed is read with (null: as a spectator).
/**
 * @param {string} game @param {string} id
 * @param {{ events?: FeedEvent[], as?: string | null }} [reading]
 * @returns {Promise<GameData>}
 */
export async function gameData(game, id, { events = [], as } = {}) {
  let created = events.find((event) => event.type === "GameCreated");
  if (!created) {
    const feed = await get(`/games/${encodeURIComponent(id)}/events?after=0&limit=1`, { as });
    created = feed.events.find((event) => event.type === "GameCreated");
  }
  // The GameCreated's data: the event found is of that type; its data_files map names to sha256s.
  const digests = /** @type {Record<string, string>} */ ((created && created.data && /** @type {Schemas["GameCreated"]} */ (created.data).data_files) || {});
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
// Each game's branch reads that game's view: `game` names the game the view is of.
/** @param {string} game @param {Schemas["ViewResponse"] | null} envelope @param {GameData | null} data @returns {Card[]} */
export function handOf(game, envelope, data) {
  const view = envelope && envelope.view;
  const seat = envelope && envelope.seat;
  const files = (data && data.files) || {};
  if (!view || !seat) return [];
  /** @param {string} kind @param {unknown} id @param {Named | null | undefined} found @param {number} [count] @returns {Card} */
  const card = (kind, id, found, count = 1) => ({ kind, id, name: (found && found.name) || String(id), text: (found && found.text) || "", count });
  /** @template {Record<string, unknown>} T @param {T[] | undefined} list @param {string} [key] @returns {Map<unknown, T>} */
  const byId = (list, key = "id") => new Map((list || []).map((item) => [item[key], item]));
  if (game === "court-of-miracles") {
    const court = /** @type {Schemas["CourtOfMiraclesView"]} */ (view);
    const cards = /** @type {CourtCardsFile} */ (files["cards.json"] || {}), texts = /** @type {CourtCardsFile} */ (files["card_texts.json"] || {});
    const plots = byId(texts.plots || cards.plots, "card"), rogues = byId(texts.rogues || cards.rogues, "kind");
    const me = (court.players || []).find((p) => p.seat === seat) || /** @type {Partial<Schemas["CourtOfMiraclesPlayer"]>} */ ({});
    return [...(me.hand || []).map((id) => card("Plot card", id, plots.get(id))),
      ...counted(me.supply || []).map(([id, count]) => card("Rogue", id, rogues.get(id), count))];
  }
  if (game === "coronation") {
    const coronation = /** @type {Schemas["CoronationView"]} */ (view);
    const cards = /** @type {CoronationCardsFile} */ (files["cards.json"] || {});
    const traps = byId(cards.traps), instruments = byId(cards.instruments);
    /** @type {Record<string, Named>} */
    const named = { ticket: { name: "Ticket", text: "Pays for a cab ride." }, note: { name: "Note" }, "turn-skip": { name: "Turn skip" } };
    const lind = coronation.lind && coronation.lind.hand ? coronation.lind.hand.filter((c) => c.count > 0)
      .map((c) => card("Lind's card", c.card, traps.get(c.card) || instruments.get(c.card) || named[c.card], c.count)) : [];
    const mine = (coronation.detectives || []).filter((d) => d.seat === seat).flatMap((d) => counted(d.instruments || [])
      .map(([id, count]) => ({ ...card(`${d.name}'s instrument`, id, instruments.get(id), count) })));
    return [...lind, ...mine];
  }
  if (game === "the-coil") {
    const coil = /** @type {Schemas["TheCoilView"]} */ (view);
    const about = /** @type {TheCoilDataFile} */ (files["data.json"] || {});
    const tactics = byId(about.tactics), objectives = byId(about.objectives);
    const me = (coil.seats || []).find((x) => x.seat === seat) || /** @type {Partial<Schemas["TheCoilSeat"]>} */ ({});
    return [...(me.hand || []).map((c) => {
      const tactic = tactics.get(c.tactic) || /** @type {Named} */ ({});
      return card("Homeland card", c.id, { name: tactic.name || c.tactic.replace(/[_-]+/g, " "),
        text: `${tactic.text || c.tactic_text || ""} Slots ${c.slots}; ${(c.resources || []).map((r) => r.replace(/[_-]+/g, " ")).join(", ") || "no resources"}.` });
    }), ...(me.strategies || []).map((c) => card("Strategy card", c.id, { name: c.name, text: objectives.get(c.objective)?.text || c.objective_text }))];
  }
  if (game === "runebound") {
    const runebound = /** @type {Schemas["RuneboundView"]} */ (view);
    const about = /** @type {RuneboundDataFile} */ (files["data.json"] || {});
    const market = byId(about.market, "name");
    const hero = (runebound.heroes || []).find((x) => x.seat === seat);
    // Items are names; an ally is {name, wounds}: both are looked up by name in the market.
    const held = hero ? [...(hero.items || []).map((name) => ({ name, wounds: null })), ...(hero.allies || [])] : [];
    return held.map(({ name, wounds }) => {
      const item = market.get(name) || /** @type {{ type?: string, cost?: number }} */ ({});
      const cost = item.cost !== undefined ? `Costs ${item.cost}.` : "";
      return card(item.type || "Item", name, { name, text: wounds ? `${cost} ${wounds} wounds.`.trim() : cost });
    });
  }
  const cronberg = /** @type {Schemas["CronbergView"]} */ (view);
  if (game === "cronberg" && cronberg.drawn) {
    const tiles = byId(/** @type {CronbergTilesFile} */ (files["tiles.json"] || {}).tiles);
    const id = typeof cronberg.drawn === "object" ? cronberg.drawn.id : cronberg.drawn;
    const tile = tiles.get(id) || cronberg.drawn;
    return [{ ...card("Building", id, { name: `Building ${id}`, text: `Corners ${(tile.corners || []).join(", ")} (clockwise from an acute corner).` }), colour: "#9c7b52", corners: tile.corners || [] }];
  }
  return [];
}

// The cards of a hand the catalogue declares (`hand: {field, names}`, the
// kit's Hand): the values at `field` in the view ("players.{seat}.hand", a
// list of seats' entries matched by their `seat`), each named from the data
// file `names.data`'s list `names.list`, whose entry's `names.key` equals it.
// Null when the view holds no hand there (the caller then falls back).
/**
 * @param {import("./compose.js").HandJson} hand @param {Schemas["ViewResponse"] | null} envelope @param {GameData | null} data
 * @returns {Card[] | null}
 */
export function declaredHand(hand, envelope, data) {
  const seat = envelope && envelope.seat;
  /** @type {unknown} */
  let found = envelope && envelope.view;
  if (!found || !seat) return null;
  for (const raw of hand.field.split(".")) {
    const part = raw === "{seat}" ? seat : raw;
    if (Array.isArray(found)) found = found.find((item) => item && typeof item === "object" && /** @type {Record<string, unknown>} */ (item).seat === part);
    else if (found && typeof found === "object") found = /** @type {Record<string, unknown>} */ (found)[part];
    else return null;
  }
  if (!Array.isArray(found)) return null;
  return counted(found).map(([value, count]) => {
    const entry = entryOf(hand.names, value, data);
    const key = typeof value === "object" && value ? /** @type {Record<string, unknown>} */ (value)[hand.names.key || "id"] : value;
    const text = entry && (entry.text || entry.effect || entry.description);
    const kind = typeof entry?.kind === "string" ? entry.kind.replace(/[_-]+/g, " ") : hand.names.what;
    const colour = entry && (entry.colour || entry.color);
    const worth = entry && [entry.value, entry.cost, entry.amount, entry.slots].find((v) => typeof v === "number");
    return { kind, id: key, name: String((entry && entry[hand.names.label || "name"]) || key), text: typeof text === "string" ? text : "", count,
      colour: typeof colour === "string" ? colour : kindColour(kind), value: worth };
  });
}

// The data file's entry a value names (Names: data, list, key), or null.
/**
 * @param {import("./compose.js").NamesJson} names @param {unknown} value @param {GameData | null} data
 * @returns {Record<string, unknown> | null}
 */
export function entryOf(names, value, data) {
  if (!names.data || !names.list || !data) return null;
  const file = /** @type {Record<string, unknown> | undefined} */ (data.files[names.data]);
  let list = file && names.list.split(".").reduce((/** @type {unknown} */ at, part) => (at && typeof at === "object" ? /** @type {Record<string, unknown>} */ (at)[part] : undefined), /** @type {unknown} */ (file));
  if (list && !Array.isArray(list) && typeof list === "object") list = Object.entries(list).map(([id, entry]) => ({ [names.key || "id"]: id, ...(/** @type {object} */ (entry)) }));
  if (!Array.isArray(list)) return null;
  const key = typeof value === "object" && value ? /** @type {Record<string, unknown>} */ (value)[names.key || "id"] : value;
  return list.find((entry) => entry && String(entry[names.key || "id"]) === String(key)) || null;
}

// A card's colour when its data gives none: one per kind of card, the same on every page.
const KIND_COLOURS = ["#2e86ab", "#d1495b", "#3c9d5d", "#8e5ea2", "#e0a100", "#6c757d"];
/** @param {string} kind */
const kindColour = (kind) => KIND_COLOURS[[...kind].reduce((sum, c) => sum + c.charCodeAt(0), 0) % KIND_COLOURS.length];

/** @template T @param {T[]} ids @returns {[T, number][]} */
function counted(ids) {
  /** @type {Map<T, number>} */
  const counts = new Map();
  for (const id of ids) counts.set(id, (counts.get(id) || 0) + 1);
  return [...counts];
}
