// @ts-check
// Following a game's stream: a new single-use ticket on every (re)connection,
// resuming with ?after= the version of the last *view* received (EventSource
// cannot send Last-Event-ID across a new URL). Not the last event's: a stream
// may end between a move's events and its view, and resuming after those
// events would never bring that view; so events may come again after a
// reconnection, and the caller skips the versions it has already had; backing off, and stopping for good when
// the token is refused (401) or the game has ended (the `end` message).
import { api, Problem } from "./api.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/**
 * What a stream's messages bring (each message's data is a GameMessage): an
 * event as the feed shows it; a `view` message's data is the view as GET
 * /view answers it; `end` brings the game's last status and version.
 * @typedef {{
 *   token?: string | null,
 *   after?: number | null,
 *   onEvent: (event: Schemas["GameMessage"]) => unknown,
 *   onView: (view: Schemas["ViewResponse"]) => unknown,
 *   onEnd: (end: Schemas["GameMessage"]) => unknown,
 *   onSignedOut: () => unknown,
 *   onState: (state: "live" | "reconnecting" | "closed") => unknown,
 * }} Following
 */

/**
 * @param {string} gameId
 * @param {Following} following
 * @returns {{ stop: () => void, readonly last: number | null }}
 */
export function follow(gameId, { token, after = null, onEvent, onView, onEnd, onSignedOut, onState }) {
  let last = after;
  /** @type {EventSource | null} */
  let source = null;
  let stopped = false;
  let delay = 1000;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  /** @param {MessageEvent} message */
  const seen = (message) => {
    const id = Number(message.lastEventId);
    if (Number.isInteger(id) && id > 0) last = id;
  };

  async function open() {
    if (stopped) return;
    const query = new URLSearchParams();
    if (last !== null) query.set("after", String(last));
    if (token) {
      try {
        const { ticket } = await api("POST", "/stream-tickets", { as: token });
        query.set("ticket", ticket);
      } catch (error) {
        if (error instanceof Problem && error.status === 401) { stop(); onSignedOut(); return; }
        retry();
        return;
      }
    }
    if (stopped) return;
    source = new EventSource(`/v1/games/${encodeURIComponent(gameId)}/stream?${query}`);
    source.onopen = () => { delay = 1000; onState("live"); };
    source.onmessage = (message) => onEvent(JSON.parse(message.data));
    // Marked as it comes, for the benchmark of the time to the redrawn table (bench/table.py).
    source.addEventListener("view", (message) => { seen(message); performance.mark("view-received", { detail: last }); onView(JSON.parse(message.data)); });
    source.addEventListener("end", (message) => { stop(); onEnd(JSON.parse(message.data)); });
    // The handlers run while `source` is this one (a new one opens only after retry's wait).
    source.addEventListener("shutdown", () => { /** @type {EventSource} */ (source).close(); retry(); });
    source.onerror = () => {
      /** @type {EventSource} */ (source).close();
      if (!stopped) retry();
    };
  }

  function retry() {
    if (stopped) return;
    onState("reconnecting");
    timer = setTimeout(open, delay + Math.random() * 250);
    delay = Math.min(delay * 2, 30000);
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    if (source) source.close();
    onState("closed");
  }

  open();
  return { stop, get last() { return last; } };
}
