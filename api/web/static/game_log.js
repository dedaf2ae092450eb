// @ts-check
// A game's log in words: each event's own sentence, newest last, as the
// table and the replay show it.
import { h, words } from "./dom.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["FeedResponse"]["events"][number]} FeedEvent */

// The event's own sentence (the feed and the stream write one for each event,
// as the viewer may see it); a list of its fields only for a server that sends none.
/** @param {FeedEvent | Schemas["GameMessage"]} event @returns {string} */
export function eventWords(event) {
  if (event.text) return `v${event.version} · ${event.text}`;
  const details = Object.entries(event.data || {}).filter(([key, value]) => key !== "type" && (value === null || typeof value !== "object"))
    .map(([key, value]) => `${words(key)} ${value}`);
  return `v${event.version} · ${event.seat ? `${event.seat}: ` : ""}${words(event.type)}${details.length ? ` (${details.join(", ")})` : ""}`;
}

/**
 * The table's log: a list that keeps its last 200 events, each once (the
 * log's tail and the stream may both bring one), the newest marked.
 * @param {(event: FeedEvent | Schemas["GameMessage"]) => void} heard told of each new event
 */
export function gameLog(heard) {
  // Focusable: a log that scrolls is read by the keyboard too.
  const log = h("ul", { id: "log", class: "log", tabindex: 0, "aria-label": "What happened, newest last" });
  let logged = 0; // the log's newest version
  /** @param {FeedEvent | Schemas["GameMessage"]} event */
  const add = (event) => {
    if (event.version <= logged) return;
    logged = event.version;
    heard(event);
    for (const old of log.querySelectorAll("li.now")) old.classList.remove("now");
    log.append(h("li", { class: "now", "data-version": event.version }, eventWords(event)));
    while (log.children.length > 200) log.firstElementChild?.remove();
    log.scrollTop = log.scrollHeight;
  };
  return { log, add };
}
