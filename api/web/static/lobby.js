// @ts-check
// The lobby: register or sign in, your games (those waiting on you first),
// games waiting for players (joined with one click), create a game, join a
// private one with its invite code, public games to watch.
import { api, change, get, me, Problem } from "./api.js";
import { h, notice, when, words } from "./dom.js";
import { session, showWho, signedOut } from "./app.js";
import { ASKED, MORE, optionInput } from "./options.js";
import { gameIdOf, shareLink } from "./share.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["Rules"]} Rules */
/** @typedef {Schemas["Option"]} Option */
/** @typedef {Schemas["GameSummary"]} Summary */

/** @param {HTMLElement} main @returns {Promise<void>} */

export async function lobby(main) {
  /** @type {HTMLElement[]} */
  const parts = [h("h1", {}, "Lobby")];
  const { games: catalogue } = await get("/rules", { as: null });
  /** @param {string} game */
  const titleOf = (game) => catalogue.find((g) => g.name === game)?.title || words(game);
  if (!me.token) parts.push(...(session.lapsed ? [lapsed()] : []), signIn(main), await waiting(null, titleOf));
  else {
    try {
      const player = await get("/players/me");
      me.keep(me.token, player.name);
      session.lapsed = false;
      showWho();
      parts.push(await yourGames(titleOf), await waiting(player.id, titleOf), creating(catalogue), joining());
    } catch (error) {
      if (error instanceof Problem && error.status === 401) { signedOut(); return lobby(main); }
      throw error;
    }
  }
  parts.push(await watching(titleOf));
  main.replaceChildren(...parts);
}

// What a reader whose token stopped working can do about it.
function lapsed() {
  return h("section", { id: "lapsed", "aria-labelledby": "lapsed-title", role: "alert" },
    h("h2", { id: "lapsed-title" }, "You were signed out"),
    h("p", {}, "This browser's token no longer works: it was revoked (by you, from another device, or by an operator) or it expired. Your games and seats are kept."),
    h("ul", {},
      h("li", {}, "Open the link in your newest mail from boardlog: it signs this browser in."),
      h("li", {}, "Or paste a token you still hold in the form below."),
      h("li", {}, "Or register anew (a new player, with no seats yet).")));
}

/** @param {HTMLElement} main */
function signIn(main) {
  const name = h("input", { type: "text", id: "register-name", name: "name", required: true, maxlength: 64, autocomplete: "nickname" });
  const token = h("input", { type: "text", id: "token", name: "token", autocomplete: "off" });
  const error = h("p", { class: "error", role: "alert" });
  const register = h("form", {
    id: "register", onsubmit: async (e) => {
      e.preventDefault();
      try {
        const player = await api("POST", "/players", { body: { name: name.value.trim() }, as: null });
        me.keep(player.token, player.name);
        notice(`Welcome, ${player.name}. Your token is kept in this browser.`);
        await lobby(main);
      } catch (problem) { error.textContent = /** @type {Error} */ (problem).message; }
    },
  }, h("label", { for: "register-name" }, "Your name"), name, " ", h("button", { class: "primary", type: "submit" }, "Register"));
  const paste = h("form", {
    id: "sign-in", onsubmit: async (e) => {
      e.preventDefault();
      try {
        const player = await get("/players/me", { as: token.value.trim() });
        me.keep(token.value.trim(), player.name);
        await lobby(main);
      } catch (problem) { error.textContent = problem instanceof Problem && problem.status === 401 ? "That token is not valid." : /** @type {Error} */ (problem).message; }
    },
  }, h("label", { for: "token" }, "Or sign in with a token you hold"), token, " ", h("button", { type: "submit" }, "Sign in"));
  return h("section", { "aria-labelledby": "sign-in-title" }, h("h2", { id: "sign-in-title" }, "Sign in"), register, paste, error);
}

/** @param {(game: string) => string} titleOf */
async function yourGames(titleOf) {
  const inbox = await get("/players/me/inbox");
  const rows = inbox.games.map((game) => h("tr", { class: game.your_turn ? "turn" : null, "data-game": game.id },
    // Two games of one title are told apart by when each last moved.
    h("td", {}, h("a", { href: `#/games/${game.id}` }, titleOf(game.game)), h("span", { class: "hint" }, `last move ${when(game.updated_at)}`),
      // A game still taking seats is shared by its link: whoever opens it takes a seat there.
      game.status === "lobby" ? h("div", {}, shareLink(game.id)) : null),
    h("td", {}, STATUS[game.status] || game.status, game.your_turn ? [" ", h("span", { class: "badge" }, "your turn")] : ""),
    h("td", {}, game.seat),
    h("td", {}, game.deadline ? when(game.deadline) : "—"),
    h("td", {}, game.outcome || "")));
  return h("section", { "aria-labelledby": "your-games-title" },
    h("h2", { id: "your-games-title" }, `Your games (${inbox.waiting} waiting on you)`),
    rows.length ? h("table", { id: "inbox" }, h("thead", {}, h("tr", {}, ["game", "status", "seat", "deadline", "outcome"].map((x) => h("th", { scope: "col" }, x)))), h("tbody", {}, rows))
      : h("p", { class: "muted" }, "You sit in no game yet."));
}

/** @type {Record<string, string>} */
const STATUS = { lobby: "taking seats", active: "being played", scoring: "being scored", finished: "over", cancelled: "cancelled" };

// The games still taking seats that the reader does not sit in, each joined
// with one click (the server gives him the first free seat); a reader who is
// not signed in sees them too, and is asked to register first.
/** @param {string | null} myself @param {(game: string) => string} titleOf */
async function waiting(myself, titleOf) {
  const { games } = await get("/games?status=lobby&limit=50", { as: null });
  // A seat given to a bot is listed free until the game starts, but is not for people.
  const freeOf = (/** @type {Summary} */ g) => g.free_seats.filter((seat) => !(seat in (g.bots || {})));
  const open = games.filter((g) => freeOf(g).length && !g.seats.some((s) => s.player === myself));
  const error = h("p", { class: "error", role: "alert" });
  /** @param {Summary} game */
  const join = async (game) => {
    try {
      await change(`/games/${encodeURIComponent(game.id)}/join`, {});
      location.hash = `#/games/${game.id}`;
    } catch (problem) { error.textContent = /** @type {Error} */ (problem).message; }
  };
  /** @param {Summary} game */
  const row = (game) => {
    const host = game.seats.find((s) => s.player === game.host)?.name || "someone";
    const seats = game.seats.length + game.free_seats.length; // bots' seats included: they count as taken below
    const taken = seats - freeOf(game).length;
    return h("li", { "data-game": game.id },
      h("strong", {}, titleOf(game.game)), ` hosted by ${host} · ${taken} of ${seats} seats taken`,
      game.seats.length > 1 ? ` (${game.seats.map((s) => s.name).join(", ")})` : "", " ",
      myself ? h("button", { type: "button", class: "primary join-open", "aria-label": `Join ${host}'s game of ${titleOf(game.game)}`, onclick: () => join(game) }, "Join")
        : h("span", { class: "muted" }, "register above to join"));
  };
  return h("section", { "aria-labelledby": "waiting-title", id: "waiting" },
    h("h2", { id: "waiting-title" }, "Games waiting for players"),
    open.length ? h("ul", { class: "open-games" }, open.map(row)) : h("p", { class: "muted" }, "None right now: create one below, and share its link."),
    error);
}

// Only the options changed from their defaults are sent.
/** @param {HTMLElement} fieldset @param {Rules} rules @returns {Record<string, unknown>} */
function chosenOptions(fieldset, rules) {
  /** @type {Record<string, unknown>} */
  const options = {};
  // Each was drawn by optionInput from one of rules.options: an input, or a select for a choice.
  for (const input of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (fieldset.querySelectorAll("[data-option]"))) {
    const option = /** @type {Option} */ (rules.options.find((o) => o.name === input.dataset.option));
    let value;
    if (option.kind === "bool") value = /** @type {HTMLInputElement} */ (input).checked;
    else if (option.kind === "choice") value = input.value;
    else value = input.value === "" ? null : Number(input.value);
    if (value !== option.default) options[option.name] = value;
  }
  return options;
}

/** @param {Rules[]} games the catalogue */
function creating(games) {
  const choice = h("select", { id: "create-game", name: "game" }, games.map((g) => h("option", { value: g.name }, g.title)));
  const players = h("input", { type: "number", id: "create-players", min: 2, max: 6, value: 2, "aria-describedby": "create-players-hint" });
  const bots = h("input", { type: "checkbox", id: "create-bots", checked: true });
  const kind = h("select", { id: "create-bot-kind", "aria-label": "How the bots play" },
    h("option", { value: "random" }, "at random"), h("option", { value: "heuristic" }, "with some sense"));
  const hidden = h("input", { type: "checkbox", id: "create-private", "aria-describedby": "create-private-hint" });
  const bank = h("input", { type: "number", id: "create-bank", min: 60, placeholder: "none", "aria-describedby": "create-bank-hint" });
  const own = h("fieldset", { id: "create-options" });
  const engine = h("div", { id: "create-more-options" });
  const ranking = h("p", { class: "hint", id: "create-ranking" });
  const error = h("p", { class: "error", role: "alert" });
  // The select offers the catalogue's games alone.
  const rulesOf = () => /** @type {Rules} */ (games.find((g) => g.name === choice.value));
  const drawOptions = () => {
    const rules = rulesOf();
    players.min = String(rules.min_seats);
    players.max = String(rules.max_seats);
    players.value = String(Math.max(rules.min_seats, Math.min(rules.max_seats, Number(players.value) || 2)));
    ranking.textContent = `${rules.min_seats} to ${rules.max_seats} players. ${rules.ranking}`;
    const shown = rules.options.filter((o) => !ASKED.has(o.name) && !o.deprecated && o.name !== "time_bank_seconds");
    const ownOptions = shown.filter((o) => !(o.name in MORE));
    own.hidden = !ownOptions.length;
    own.replaceChildren(h("legend", {}, `Options of ${rules.title}`), ...ownOptions.map(optionInput));
    engine.replaceChildren(...shown.filter((o) => o.name in MORE).map(optionInput));
  };
  choice.addEventListener("change", drawOptions);
  drawOptions();
  const more = h("details", { id: "more-options" }, h("summary", {}, "More options: clocks, missed turns, absences, takebacks"),
    h("p", { class: "hint" }, "Left as they are, turns have no time limit and nobody is hurried: right for friends playing at their own pace."),
    h("div", { class: "option" }, h("label", { for: "create-bank" }, "Time bank"), bank,
      h("span", { class: "hint", id: "create-bank-hint" }, MORE.time_bank_seconds)),
    engine);
  const form = h("form", {
    id: "create", onsubmit: async (e) => {
      e.preventDefault();
      const rules = rulesOf();
      const count = Math.max(rules.min_seats, Math.min(rules.max_seats, Number(players.value) || 2));
      /** @type {Record<string, unknown>} */
      const options = { ...chosenOptions(own, rules), ...chosenOptions(engine, rules), players: count };
      if (hidden.checked) options.visibility = "private";
      if (bank.value) options.time_bank_seconds = Number(bank.value);
      if (bots.checked) options.bots = Object.fromEntries(seatsFor(rules, count).slice(1).map((seat) => [seat, kind.value]));
      try {
        // The form is drawn from the catalogue at run time: which game, and so
        // which options, only the server checks (a 422 names a refused option).
        const made = await change("/games", /** @type {Schemas["CreateGame"]} */ ({ game: rules.name, options }));
        location.hash = `#/games/${made.id}`;
      } catch (problem) { error.textContent = /** @type {Error} */ (problem).message; }
    },
  },
  h("label", { for: "create-game" }, "Game"), choice, ranking,
  h("div", { class: "option" }, h("label", { for: "create-players" }, "Players"), players,
    h("span", { class: "hint", id: "create-players-hint" }, "How many seats the game has, yours included.")),
  h("div", { class: "option" }, h("label", {}, bots, " Bots take every other seat, playing ", kind),
    h("span", { class: "hint" }, "Untick to wait for people instead: share the game's link once it is made.")),
  h("div", { class: "option" }, h("label", { for: "create-private" }, hidden, " Private"),
    h("span", { class: "hint", id: "create-private-hint" }, "Not listed in the lobby: people join with an invite code you make at the table.")),
  own, more,
  h("p", {}, h("button", { class: "primary", type: "submit" }, "Create the game")), error);
  return h("section", { "aria-labelledby": "create-title" }, h("h2", { id: "create-title" }, "Create a game"), form);
}

// The seats of a game of `count` seats: the catalogue names the default
// ones; the game's further seats number on from its last ("p2" → "p3",
// "detective-1" → "detective-2").
/** @param {Rules} rules @param {number} count @returns {string[]} */
export function seatsFor(rules, count) {
  const seats = rules.default_seats.slice(0, count);
  while (seats.length < count) {
    // A game of more seats than its defaults names them with a number at the end.
    const [, stem, number] = /** @type {RegExpMatchArray} */ (seats[seats.length - 1].match(/^(.*?)(\d+)$/));
    seats.push(`${stem}${Number(number) + 1}`);
  }
  return seats;
}

function joining() {
  const id = h("input", { type: "text", id: "join-id", required: true, autocomplete: "off" });
  const code = h("input", { type: "text", id: "join-code", autocomplete: "off" });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", {
    id: "join", onsubmit: async (e) => {
      e.preventDefault();
      const game = gameIdOf(id.value);
      try {
        if (code.value.trim()) await change(`/games/${encodeURIComponent(game)}/invites/redeem`, { code: code.value.trim() });
        else await change(`/games/${encodeURIComponent(game)}/join`, {});
        location.hash = `#/games/${game}`;
      } catch (problem) { error.textContent = /** @type {Error} */ (problem).message; }
    },
  }, h("label", { for: "join-id" }, "The game's link (or its id)"), id, h("label", { for: "join-code" }, "Invite code (for a private game)"), code,
  h("p", {}, h("button", { type: "submit" }, "Join")), error);
  return h("section", { "aria-labelledby": "join-title" }, h("h2", { id: "join-title" }, "Join a private game"), form);
}

/** @param {(game: string) => string} titleOf */
async function watching(titleOf) {
  const { games } = await get("/games?status=active", { as: null });
  return h("section", { "aria-labelledby": "watch-title" }, h("h2", { id: "watch-title" }, "Games being played"),
    games.length ? h("ul", {}, games.slice(0, 20).map((g) => h("li", {},
      h("a", { href: `#/watch/${g.id}` }, titleOf(g.game)), ` · ${g.seats.map((s) => s.name).join(", ")} · move ${g.version}`)))
      : h("p", { class: "muted" }, "None right now."));
}
