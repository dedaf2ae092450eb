// @ts-check
// Signing in from a mail: a "your turn" or digest mail links to
// #/games/{id}?signin=CODE. The code rides in the fragment, which the browser
// sends to no server (no request log, proxy or Referer sees it); the page
// takes it out of the address bar at once, exchanges it (POST /v1/sign-in,
// once, before it expires) for a token of this device's own, and keeps that
// token as the lobby keeps one.
import { api, me, Problem } from "./api.js";
import { h } from "./dom.js";

/** @typedef {{ code: string, hash: string }} MailLink */

/** @type {Record<string, string>} */
const REFUSALS = {
  "sign-in-code-used": "This sign-in link was used already: each link in a mail signs in once, on one device. A newer mail's link signs in again.",
  "sign-in-code-expired": "This sign-in link has expired: a mail's link signs in only for a few days. The next mail boardlog sends you carries a new one.",
  "sign-in-code-unknown": "This sign-in link is not one boardlog sent: it may have been cut short or mistyped.",
};

// The code a location's fragment carries, and the fragment without it; null when it carries none.
/** @param {string | null | undefined} hash @returns {MailLink | null} */
export function mailLink(hash) {
  const [route, query] = (hash || "").split("?", 2);
  const code = query ? new URLSearchParams(query).get("signin") : null;
  return code ? { code, hash: route } : null;
}

// Remove the code from the address bar (and so from history) and spend it.
// Null once signed in; else the page to show instead of the route.
/** @param {MailLink} link @returns {Promise<(string | Node)[] | null>} */
export async function signInFromMail(link) {
  history.replaceState(history.state, "", `${location.pathname}${location.search}${link.hash}`);
  try {
    const signedIn = await api("POST", "/sign-in", { body: { code: link.code }, as: null });
    me.keep(signedIn.token.token, signedIn.name);
    return null;
  } catch (error) {
    return refusal(error, link.hash);
  }
}

/** @param {unknown} error @param {string} hash @returns {(string | Node)[]} */
function refusal(error, hash) {
  // The last part of the problem's type (split gives at least one).
  const slug = error instanceof Problem && typeof error.body.type === "string" ? /** @type {string} */ (error.body.type.split("/").pop()) : "";
  const game = (hash.match(/^#\/games\/([^/?]+)/) || [])[1];
  /** @param {string} text */
  const gameLink = (text) => (game ? [" ", h("a", { href: `#/games/${game}` }, text), "."] : ".");
  const otherwise = me.token
    ? h("p", {}, "This browser is still signed in as before: ", h("a", { href: "#/" }, "go to the lobby"),
      game ? [" or", ...gameLink("open the game")] : ".")
    : h("p", {}, h("a", { href: "#/" }, "Sign in another way"), " in the lobby (register, or paste a token you hold)",
      game ? [", or", ...gameLink("watch the game")] : ".");
  return [
    h("h1", {}, "Signing in from a mail"),
    h("p", { id: "signin-refused", role: "alert" }, REFUSALS[slug] || `Signing in did not work: ${/** @type {Error} */ (error).message}.`),
    otherwise,
  ];
}
