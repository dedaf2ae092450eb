// The public REST API, as documented at /v1/openapi.json: nothing else is called.
const TOKEN = "boardlog.token";
const NAME = "boardlog.name";

export const me = {
  get token() { return localStorage.getItem(TOKEN); },
  get name() { return localStorage.getItem(NAME); },
  keep(token, name) { localStorage.setItem(TOKEN, token); localStorage.setItem(NAME, name || ""); },
  forget() { localStorage.removeItem(TOKEN); localStorage.removeItem(NAME); },
};

export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `the server answered ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

// One call. `as: null` calls as a spectator even when a token is kept.
export async function api(method, path, { body, as = me.token, key } = {}) {
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
export async function change(path, body, options = {}) {
  const key = crypto.randomUUID();
  try {
    return await api("POST", path, { ...options, body, key });
  } catch (error) {
    if (error instanceof Problem) throw error;
    return api("POST", path, { ...options, body, key });
  }
}

export const get = (path, options) => api("GET", path, options);
