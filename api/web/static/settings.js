// @ts-check
// A player's settings: the mail address boardlog writes to (used once he
// opened the confirmation link mailed to it) and when it writes: a mail when
// a game waits on him (always, only when he is not at the table, or never),
// or one a day listing them. GET and PATCH /v1/players/me/notifications.
// Below, reminders before a deadline (reminders.js) and notifications on this
// device (Web Push: devices.js).
import { api, get, me, Problem } from "./api.js";
import { devicesSection } from "./devices.js";
import { remindersSection } from "./reminders.js";
import { h, notice } from "./dom.js";
import { signedOut } from "./app.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["Preferences"]} Preferences */

/** @type {[string, string][]} */
const TURNS = [
  ["idle", "When a game waits on me and I have not played in it for a few minutes (I am not at the table)"],
  ["always", "Each time a game waits on me"],
  ["off", "Never"],
];

/** @param {Preferences} prefs @returns {string} */
function where(prefs) {
  if (!prefs.email) return "You gave no address: boardlog mails you nothing.";
  if (!prefs.email_confirmed) return `Waiting for you to open the link mailed to ${prefs.email}: until then nothing is sent there.`;
  return `boardlog mails ${prefs.email} (confirmed).`;
}

/** @param {HTMLElement} main @returns {Promise<null>} (nothing to clean up when leaving) */
export async function settings(main) {
  if (!me.token) {
    main.replaceChildren(h("h1", {}, "Settings"),
      h("p", {}, "Sign in first: ", h("a", { href: "#/" }, "register or paste your token in the lobby"), ", or open the link of a boardlog mail."));
    return null;
  }
  /** @type {Preferences} */
  let prefs;
  try {
    prefs = await get("/players/me/notifications");
  } catch (error) {
    if (error instanceof Problem && error.status === 401) { signedOut(); location.hash = "#/"; return null; }
    throw error;
  }
  const email = h("input", { type: "email", id: "settings-email", name: "email", autocomplete: "email", maxlength: 254, value: prefs.email || "", "aria-describedby": "settings-email-state" });
  const state = h("p", { id: "settings-email-state", role: "status" }, where(prefs));
  const said = h("p", { id: "settings-said", role: "status" });
  const error = h("p", { class: "error", role: "alert", id: "settings-error" });
  const turns = TURNS.map(([value, text]) => h("label", {}, h("input", { type: "radio", name: "email_turns", value, checked: prefs.email_turns === value }), " ", text));
  const digest = h("input", { type: "checkbox", id: "settings-digest", checked: prefs.digest });

  /** @param {Record<string, unknown>} changes @param {string} done */
  async function save(changes, done) {
    error.textContent = "";
    said.textContent = "";
    try {
      prefs = await api("PATCH", "/players/me/notifications", { body: changes });
      state.textContent = where(prefs);
      email.value = prefs.email || "";
      said.textContent = done;
      resend.hidden = !prefs.email || prefs.email_confirmed;
    } catch (problem) {
      if (problem instanceof Problem && problem.status === 401) { signedOut(); location.hash = "#/"; return; }
      error.textContent = /** @type {Error} */ (problem).message;
    }
  }
  const resend = h("button", { type: "button", id: "settings-resend", hidden: !prefs.email || prefs.email_confirmed,
    onclick: () => save({ email: prefs.email }, `A new link was mailed to ${prefs.email}.`) }, "Mail the link again");
  const form = h("form", {
    id: "settings", onsubmit: (e) => {
      e.preventDefault();
      /** @type {Record<string, unknown>} */
      const changes = {};
      const address = email.value.trim() || null;
      if (address !== prefs.email) changes.email = address;
      const chosen = /** @type {HTMLInputElement | undefined} */ (turns.map((label) => label.querySelector("input")).find((input) => input && input.checked));
      if (chosen && chosen.value !== prefs.email_turns) changes.email_turns = chosen.value;
      if (digest.checked !== prefs.digest) changes.digest = digest.checked;
      if (!Object.keys(changes).length) { said.textContent = "Nothing changed."; return; }
      const done = address && "email" in changes
        ? `Saved. A confirmation link was mailed to ${address}: open it, and mail starts going there.`
        : "Saved.";
      save(changes, done);
    },
  },
  h("section", { "aria-labelledby": "settings-mail-title" }, h("h2", { id: "settings-mail-title" }, "Your mail address"),
    h("label", { for: "settings-email" }, "Address (leave empty to receive no mail)"), email, state, resend),
  h("fieldset", {}, h("legend", {}, "Mail me when it is my turn"), ...turns),
  h("div", { class: "option" }, h("label", { for: "settings-digest" }, digest, " One mail a day instead"),
    h("span", { class: "hint" }, "A daily summary of the games waiting on you and the messages you have not read, in place of a mail per turn.")),
  h("p", {}, h("button", { class: "primary", type: "submit" }, "Save")), said, error);
  const reminders = await remindersSection(signedOut);
  const devices = await devicesSection(signedOut);
  main.replaceChildren(h("h1", {}, "Settings"), h("p", { class: "muted" }, `Signed in as ${me.name || "a player"}.`), form,
    reminders, devices);
  notice("");
  return null;
}
