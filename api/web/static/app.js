// @ts-check
// The router: #/ lobby, #/games/{id} a game's table (as your seat, or as a
// spectator without a token), #/watch/{id} as a spectator, #/replay/{id}.
// A mail's link adds ?signin=CODE to a route: the code is spent first
// (signin.js), and taken out of the address bar.
import { me } from "./api.js";
import { h, notice } from "./dom.js";
import { lobby } from "./lobby.js";
import { table } from "./table.js";
import { replay } from "./replay.js";
import { mailLink, signInFromMail } from "./signin.js";

/** @type {(() => void) | null} */
let leave = null; // the current page's clean-up (closing its stream)

export function signedOut() {
  me.forget();
  showWho();
  notice("Your token is no longer valid: sign in again (register, or paste a token in the lobby).");
}

export function showWho() {
  const who = /** @type {HTMLElement} */ (document.getElementById("who")); // index.html has it
  who.textContent = me.token ? `Signed in as ${me.name || "a player"}` : "Not signed in (you watch as a spectator)";
}

async function route() {
  if (leave) leave();
  leave = null;
  notice("");
  showWho();
  const main = /** @type {HTMLElement} */ (document.getElementById("main")); // index.html has it
  main.replaceChildren(h("p", { class: "muted" }, "Loading…"));
  const link = mailLink(location.hash);
  if (link) {
    const refused = await signInFromMail(link);
    showWho();
    if (refused) { main.replaceChildren(...refused); main.focus(); return; }
  }
  const [, page, id] = (location.hash || "#/").match(/^#\/([a-z]*)\/?([^/]*)/) || [];
  try {
    if (page === "games" && id) leave = await table(main, id, { spectator: false });
    else if (page === "watch" && id) leave = await table(main, id, { spectator: true });
    else if (page === "replay" && id) leave = await replay(main, id);
    else await lobby(main);
  } catch (error) {
    main.replaceChildren(h("h1", {}, "Something went wrong"), h("p", { class: "problem" }, /** @type {Error} */ (error).message));
  }
  main.focus();
}

window.addEventListener("hashchange", route);
route();
