// @ts-check
// "Reminders before a deadline" on the settings page: for each channel, the
// moments before a turn's deadline (or an empty time bank) that the player is
// reminded at. GET and PATCH /v1/players/me/reminders. The choices are common
// moments; a moment set through the API that is not among them is shown too,
// so saving never drops it unseen.
import { api, get, Problem } from "./api.js";
import { h } from "./dom.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["ReminderSettings"]} ReminderSettings */
/** @typedef {"stream" | "mail" | "push" | "webhook"} Channel */

const HOUR = 3600;
const MOMENTS = [7 * 24 * HOUR, 3 * 24 * HOUR, 24 * HOUR, 12 * HOUR, 6 * HOUR, HOUR, 15 * 60];

/** @type {[Channel, string][]} */
const CHANNELS = [
  ["stream", "On my player stream (for an app that follows it)"],
  ["mail", "By mail (to your confirmed address)"],
  ["push", "As a notification on my devices (below)"],
  ["webhook", "To my webhooks"],
];

/** @param {number} seconds @returns {string} "12 hours", "1 day", "90 seconds" */
export function before(seconds) {
  /** @param {number} n @param {string} unit */
  const count = (n, unit) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (seconds % (7 * 24 * HOUR) === 0) return count(seconds / (7 * 24 * HOUR), "week");
  if (seconds % (24 * HOUR) === 0) return count(seconds / (24 * HOUR), "day");
  if (seconds % HOUR === 0) return count(seconds / HOUR, "hour");
  if (seconds % 60 === 0) return count(seconds / 60, "minute");
  return count(seconds, "second");
}

/**
 * @param {() => void} signedOut
 * @returns {Promise<HTMLElement>}
 */
export async function remindersSection(signedOut) {
  /** @type {ReminderSettings} */
  let chosen = await get("/players/me/reminders");
  const said = h("p", { id: "reminders-said", role: "status" });
  const error = h("p", { class: "error", role: "alert", id: "reminders-error" });

  /** @param {Channel} channel */
  function boxes(channel) {
    const moments = [...new Set([...MOMENTS, ...chosen[channel]])].sort((a, b) => b - a);
    return moments.map((seconds) => h("label", { class: "moment" },
      h("input", { type: "checkbox", name: `reminder-${channel}`, value: String(seconds), checked: chosen[channel].includes(seconds) }),
      " ", `${before(seconds)} before`));
  }

  const form = h("form", {
    id: "reminders", onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      said.textContent = "";
      error.textContent = "";
      /** @type {Record<string, number[]>} */
      const changes = {};
      for (const [channel] of CHANNELS) {
        const picked = [...form.querySelectorAll(`input[name=reminder-${channel}]:checked`)]
          .map((input) => Number(/** @type {HTMLInputElement} */ (input).value)).sort((a, b) => b - a);
        if (picked.join() !== [...chosen[channel]].sort((a, b) => b - a).join()) changes[channel] = picked;
      }
      if (!Object.keys(changes).length) { said.textContent = "Nothing changed."; return; }
      try {
        chosen = await api("PATCH", "/players/me/reminders", { body: changes });
        said.textContent = "Saved: your games' next reminders follow it.";
      } catch (problem) {
        if (problem instanceof Problem && problem.status === 401) { signedOut(); location.hash = "#/"; return; }
        error.textContent = /** @type {Error} */ (problem).message;
      }
    },
  },
  h("p", { class: "hint" }, "Before a turn's deadline, or before your time bank runs out: once per moment and turn, "
    + "never after you played, nor while a game is paused or you are away. Leave a channel empty for no reminders there."),
  ...CHANNELS.map(([channel, text]) => h("fieldset", { id: `reminders-${channel}`, class: "moments" },
    h("legend", {}, text), ...boxes(channel))),
  h("p", {}, h("button", { class: "primary", type: "submit" }, "Save the reminders")), said, error);
  return h("section", { "aria-labelledby": "reminders-title" }, h("h2", { id: "reminders-title" }, "Reminders before a deadline"), form);
}
