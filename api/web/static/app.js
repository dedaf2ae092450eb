// @ts-check
// The router: #/ lobby, #/games/{id} a game's table (as your seat, or as a
// spectator without a token), #/watch/{id} as a spectator, #/replay/{id},
// #/settings a player's mail address and notification choices.
// A mail's link adds ?signin=CODE to a route: the code is spent first
// (signin.js), and taken out of the address bar.
import { me } from "./api.js";
import { answerTheWorker } from "./devices.js";
import { h, notice } from "./dom.js";
import { lobby } from "./lobby.js";
import { table } from "./table.js";
import { replay } from "./replay.js";
import { settings } from "./settings.js";
import { mailLink, signInFromMail } from "./signin.js";

/** @type {(() => void) | null} */
let leave = null; // the current page's clean-up (closing its stream)

// Whether a token this page held was refused (revoked, or expired): the
// lobby then says what happened and the ways back in, until one is taken.
export const session = { lapsed: false };

export function signedOut() {
  me.forget();
  session.lapsed = true;
  showWho();
  notice("Your token is no longer valid: sign in again (register, or paste a token in the lobby).");
}

export function showWho() {
  const who = /** @type {HTMLElement} */ (document.getElementById("who")); // index.html has it
  who.textContent = me.token ? `Signed in as ${me.name || "a player"}` : "Not signed in (you watch as a spectator)";
}

/** @type {HTMLElement | null} */
let shown = null; // the element the newest route draws into

async function route() {
  if (leave) leave();
  leave = null;
  notice("");
  showWho();
  const main = /** @type {HTMLElement} */ (document.getElementById("main")); // index.html has it
  // Each route draws into an element of its own: a route still loading when
  // the next one begins (a link followed before the lobby came) then draws
  // into an element no longer shown, instead of over the newer page, and
  // what it opened (a table's stream) is closed as soon as it is done.
  const here = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  main.replaceChildren(here);
  shown = here;
  /** @type {(() => void) | null} */
  let closing = null;
  const link = mailLink(location.hash);
  if (link) {
    const refused = await signInFromMail(link);
    if (shown !== here) return;
    showWho();
    if (refused) { here.replaceChildren(...refused); main.focus(); return; }
  }
  const [, page, id] = (location.hash || "#/").match(/^#\/([a-z]*)\/?([^/]*)/) || [];
  try {
    if (page === "games" && id) closing = await table(here, id, { spectator: false });
    else if (page === "watch" && id) closing = await table(here, id, { spectator: true });
    else if (page === "replay" && id) closing = await replay(here, id);
    else if (page === "settings") closing = await settings(here);
    else await lobby(here);
  } catch (error) {
    here.replaceChildren(h("h1", {}, "Something went wrong"), h("p", { class: "problem" }, /** @type {Error} */ (error).message));
  }
  if (shown !== here) { if (closing) closing(); return; }
  leave = closing;
  main.focus();
}

window.addEventListener("hashchange", route);
answerTheWorker();
route();
