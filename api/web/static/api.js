// @ts-check
// The public REST API, as documented at /v1/openapi.json: nothing else is called.
// The types are those openapi-typescript generates from that document
// (./openapi.d.ts, written by tests/web/test_client_types.py beside copies of
// these modules): a call's path picks its operation, whose request body it
// must send and whose answer it returns, so a call the document does not
// describe does not compile. Only comments: the browser runs the file as it is.

/** @typedef {import("./openapi").paths} Paths */
/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["Problem"]} ProblemDocument */

/**
 * A documented path as a template: "/v1/games/{game_id}/view" → `/games/${string}/view`.
 * @template {string} P
 * @typedef {P extends `${infer Before}{${string}}${infer After}` ? `${Before}${string}${Holes<After>}` : P} Holes
 */
/** @typedef {{ [K in keyof Paths & string]: K extends `/v1${infer Local}` ? Holes<Local> : never }[keyof Paths & string]} Documented */
/** A path this module may be given: a documented one, with or without a query. @typedef {Documented | `${Documented}?${string}`} CallPath */

/**
 * @template {string} P
 * @typedef {P extends `${infer Path}?${string}` ? Path : P} WithoutQuery
 */
/**
 * @template {string} P
 * @typedef {P extends `${infer Head}/${infer Rest}` ? [Head, ...Segments<Rest>] : [P]} Segments
 */
/**
 * Segment by segment, as a template literal would not: `/games/${string}`
 * also matches "/games/x/view", which is another operation.
 * @template {string[]} Call
 * @template {string[]} Template
 * @typedef {Call extends [infer C, ...infer CallRest extends string[]]
 *   ? Template extends [infer T, ...infer TemplateRest extends string[]]
 *     ? (T extends `{${string}}` ? Fits<CallRest, TemplateRest> : [C] extends [T] ? Fits<CallRest, TemplateRest> : false)
 *     : false
 *   : Template extends [] ? true : false} Fits
 */
/**
 * The document's path (a key of Paths) that a call's path names.
 * @template {string} P
 * @typedef {P extends string ? { [K in keyof Paths & string]: K extends `/v1${infer Local}` ? (Fits<Segments<WithoutQuery<P>>, Segments<Local>> extends true ? K : never) : never }[keyof Paths & string] : never} PathOf
 */
/**
 * A path no documented path fits is refused, not answered with `never`
 * (`/games/${string}` also takes "/games/x/veiw"); each path of a union
 * (`/games/${string}/${"start" | "join"}`) must fit one.
 * @template {string} P
 * @typedef {P extends string ? ([PathOf<P>] extends [never] ? "a path the OpenAPI document describes" : P) : never} Described
 */
/**
 * @template {string} P
 * @template {string} M
 * @typedef {PathOf<P> extends infer K extends keyof Paths ? (Lowercase<M> extends keyof Paths[K] ? Paths[K][Lowercase<M>] : never) : never} OperationOf
 */
/**
 * An operation's answer: its 200, 201 or 202 JSON body; null for one answered 204 alone.
 * @template O
 * @typedef {O extends { responses: infer R }
 *   ? (R extends { 200: { content: { "application/json": infer A } } } ? A
 *     : R extends { 201: { content: { "application/json": infer A } } } ? A
 *     : R extends { 202: { content: { "application/json": infer A } } } ? A : null)
 *   : never} AnswerOf
 */
/**
 * The JSON body an operation takes (undefined for one that takes none).
 * @template O
 * @typedef {O extends { requestBody: { content: { "application/json": infer B } } } ? B
 *   : O extends { requestBody?: { content: { "application/json": infer B } } } ? B | undefined : undefined} BodyOf
 */
/**
 * `as`: the token to call with (null: as a spectator); `key`: an Idempotency-Key.
 * @typedef {{ as?: string | null, key?: string }} CallOptions
 */
/**
 * @template {CallPath} P
 * @template {string} M
 * @typedef {CallOptions & { body?: BodyOf<OperationOf<P, M>> }} ApiOptions
 */

const TOKEN = "boardlog.token";
const NAME = "boardlog.name";

export const me = {
  get token() { return localStorage.getItem(TOKEN); },
  get name() { return localStorage.getItem(NAME); },
  /** @param {string} token @param {string | null} [name] */
  keep(token, name) { localStorage.setItem(TOKEN, token); localStorage.setItem(NAME, name || ""); },
  forget() { localStorage.removeItem(TOKEN); localStorage.removeItem(NAME); },
};

// A refused call: the problem document the API answered (RFC 9457).
export class Problem extends Error {
  /** @param {number} status @param {ProblemDocument | null} body */
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `the server answered ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

// One call. `as: null` calls as a spectator even when a token is kept.
/**
 * @template {"GET" | "POST" | "PUT" | "PATCH" | "DELETE"} M
 * @template {CallPath} P
 * @param {M} method
 * @param {Described<P>} path
 * @param {ApiOptions<P, M>} [options]
 * @returns {Promise<AnswerOf<OperationOf<P, M>>>}
 */
export async function api(method, path, { body, as = me.token, key } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (as) headers.Authorization = `Bearer ${as}`;
  if (key) headers["Idempotency-Key"] = key;
  const response = await fetch(`/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = response.status === 204 ? "" : await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Problem(response.status, data);
  return data;
}

// A change sent with an Idempotency-Key, retried once with the same key when
// the network fails, so that a retry acts once.
/**
 * @template {CallPath} P
 * @param {Described<P>} path
 * @param {BodyOf<OperationOf<P, "POST">>} body
 * @param {CallOptions} [options]
 * @returns {Promise<AnswerOf<OperationOf<P, "POST">>>}
 */
export async function change(path, body, options = {}) {
  const key = crypto.randomUUID();
  try {
    return await api("POST", path, { ...options, body, key });
  } catch (error) {
    if (error instanceof Problem) throw error;
    return api("POST", path, { ...options, body, key });
  }
}

/**
 * @template {CallPath} P
 * @param {Described<P>} path
 * @param {CallOptions} [options]
 * @returns {Promise<AnswerOf<OperationOf<P, "GET">>>}
 */
export const get = (path, options) => api("GET", path, options);
