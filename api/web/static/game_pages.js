// @ts-check
// The pages shown instead of a game's table: no such game (or one that cannot
// be shown), and a private game the reader does not sit in, with the one way
// in (an invite code from its host).
import { change, me } from "./api.js";
import { h, words } from "./dom.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {import("./api.js").Problem} Problem */

/** @param {HTMLElement} main @param {Problem | null | undefined} problem */
export function missing(main, problem) {
  main.replaceChildren(h("h1", {}, "No such game"), h("p", { id: "missing", role: "alert" },
    problem && problem.status === 404
      ? "There is no game with this id, or it is private and you do not sit in it."
      : `This game cannot be shown: ${problem ? problem.message : "unknown"}.`),
  h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
}

// A private game you do not sit in: what it is, and the one way in (an invite code from its host).
/** @param {HTMLElement} main @param {string} id @param {Schemas["GameSummary"]} summary */
export function privateGame(main, id, summary) {
  const code = h("input", { type: "text", id: "invite-redeem-code", autocomplete: "off", required: true });
  const error = h("p", { class: "error", role: "alert" });
  main.replaceChildren(h("h1", {}, `A private game of ${words(summary.game)}`),
    h("p", { id: "private", role: "alert" }, "This game is private: only its players take part, and a seat is taken with an invite code from its host."),
    me.token ? h("form", {
      onsubmit: async (e) => {
        e.preventDefault();
        try {
          await change(`/games/${encodeURIComponent(id)}/invites/redeem`, { code: code.value.trim() });
          location.reload();
        } catch (problem) { error.textContent = /** @type {Error} */ (problem).message; }
      },
    }, h("label", { for: "invite-redeem-code" }, "Invite code"), code, " ", h("button", { type: "submit" }, "Take the seat"), error)
      : h("p", {}, h("a", { href: "#/" }, "Sign in"), " first to use an invite code."),
    h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
}
