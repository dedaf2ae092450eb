// @ts-check
// A game's data files (boards, cards, tiles), exactly those it was played
// with: its GameCreated event (the feed's first) records each file's sha256
// in `data_files`, and GET /v1/rules/{game}/data/{sha256} serves those bytes,
// cacheable for ever. Each file is fetched once per page (and the browser
// keeps it after), whatever the number of games or tables that use it.
// GET /v1/rules/{game}/data says how to read each file's coordinates (units,
// axes, extent): it is fetched once per game.
import { get } from "./api.js";
import { capital } from "./dom.js";

/** @typedef {import("./openapi").paths} Paths */
/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["FeedResponse"]["events"][number]} FeedEvent */
/** A data file's JSON, as GET /v1/rules/{game}/data/{sha256} answers it. @typedef {Paths["/v1/rules/{game}/data/{sha256}"]["get"]["responses"][200]["content"]["application/json"]} DataJson */
/**
 * A game's data: each file's sha256, JSON and description, by the file's name.
 * @typedef {{ game: string, sha256: Record<string, string>, files: Record<string, DataJson>, about: Record<string, Schemas["DataFile"] | null> }} GameData
 */
/**
 * A card in a hand, with its name, text, colour and value from the data; an
 * entry that lists `corners` (numbers) is drawn as a tile with them at its corners.
 * @typedef {{ kind: string, id: unknown, name: string, text: string, count: number, colour?: string, value?: unknown, corners?: number[] }} Card
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

// The cards of a hand the catalogue declares (`hand: {field, names}`, the
// kit's Hand): the values at `field` in the view ("players.{seat}.hand", a
// list of seats' entries matched by their `seat`), each named from the data
// file `names.data`'s list `names.list`, whose entry's `names.key` equals it.
// Null when the view holds no hand there.
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
  const keyName = hand.names.key || "id", labelName = hand.names.label || "name";
  return counted(found).map(([value, count]) => {
    const entry = entryOf(hand.names, value, data);
    const key = typeof value === "object" && value ? /** @type {Record<string, unknown>} */ (value)[keyName] : value;
    const written = entry && (entry.text || entry.effect || entry.description);
    const kind = typeof entry?.kind === "string" ? entry.kind.replace(/[_-]+/g, " ") : hand.names.what;
    const colour = declaredColour(hand.names, value, entry, data) ?? (entry && (entry.colour || entry.color));
    const worth = entry && [entry.value, entry.cost, entry.amount, entry.slots].find((v) => typeof v === "number");
    // A thing known by its number (its label is its key, as a building's) is called by its kind and number.
    const label = entry && entry[labelName];
    const name = labelName === keyName ? `${capital(hand.names.what)} ${key}` : String(label ?? key);
    const corners = entry && Array.isArray(entry.corners) && entry.corners.every((n) => typeof n === "number") ? /** @type {number[]} */ (entry.corners) : undefined;
    const text = typeof written === "string" ? written : numbersOf(entry);
    return { kind, id: key, name, text, count, colour: typeof colour === "string" ? colour : kindColour(kind), value: worth, corners };
  });
}

// What an entry without a text says in its lists of numbers ("Corners 4, 2, -7, 2."), else "".
/** @param {Record<string, unknown> | null} entry @returns {string} */
function numbersOf(entry) {
  return Object.entries(entry || {}).filter(([, v]) => Array.isArray(v) && v.length && v.every((n) => typeof n === "number"))
    .map(([field, v]) => `${capital(field.replace(/[_-]+/g, " "))} ${/** @type {number[]} */ (v).join(", ")}.`).join(" ");
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

// The colour the data gives the thing a value names, where its Names declare
// one (`colour`: {field, table?, data?, list?}, the kit's Colour): `field` of
// its entry (or of its entry of the same key in `data`'s `list`) is a colour,
// or, with `table`, the id of the table's entry whose `colour` it is. Else null.
/**
 * @param {import("./compose.js").NamesJson} names @param {unknown} value
 * @param {Record<string, unknown> | null} entry the thing's entry in its Names' own list
 * @param {GameData | null} data
 * @returns {string | null}
 */
export function declaredColour(names, value, entry, data) {
  const declared = names.colour;
  if (!declared) return null;
  const holder = declared.data && declared.list ? entryOf({ ...names, data: declared.data, list: declared.list }, value, data) : entry;
  const found = holder && holder[declared.field];
  if (!declared.table) return typeof found === "string" ? found : null;
  const row = entryOf({ kind: "card", what: "colour", data: declared.data || names.data, list: declared.table, key: "id" }, found, data);
  const colour = row && (row.colour || row.color);
  return typeof colour === "string" ? colour : null;
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
