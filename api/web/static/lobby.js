// @ts-check
// The lobby: register or sign in, your games (those waiting on you first),
// create a game, join one, public games to watch.
import { api, change, get, me, Problem } from "./api.js";
import { h, notice, when, words } from "./dom.js";
import { showWho, signedOut } from "./app.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["Rules"]} Rules */
/** @typedef {Schemas["Option"]} Option */

/** @param {HTMLElement} main @returns {Promise<void>} */

export async function lobby(main) {
  /** @type {HTMLElement[]} */
  const parts = [h("h1", {}, "Lobby")];
  if (!me.token) parts.push(signIn(main));
  else {
    try {
      const player = await get("/players/me");
      me.keep(me.token, player.name);
      showWho();
      parts.push(await yourGames(), await creating(), joining());
    } catch (error) {
      if (error instanceof Problem && error.status === 401) { signedOut(); return lobby(main); }
      throw error;
    }
  }
  parts.push(await watching());
  main.replaceChildren(...parts);
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

async function yourGames() {
  const inbox = await get("/players/me/inbox");
  const rows = inbox.games.map((game) => h("tr", { class: game.your_turn ? "turn" : null },
    h("td", {}, h("a", { href: `#/games/${game.id}` }, `${game.game} ${game.id.slice(0, 8)}`)),
    h("td", {}, game.status, game.your_turn ? [" ", h("span", { class: "badge" }, "your turn")] : ""),
    h("td", {}, game.seat),
    h("td", {}, game.deadline ? when(game.deadline) : "—"),
    h("td", {}, game.outcome || "")));
  return h("section", { "aria-labelledby": "your-games-title" },
    h("h2", { id: "your-games-title" }, `Your games (${inbox.waiting} waiting on you)`),
    rows.length ? h("table", { id: "inbox" }, h("thead", {}, h("tr", {}, ["game", "status", "seat", "deadline", "outcome"].map((x) => h("th", { scope: "col" }, x)))), h("tbody", {}, rows))
      : h("p", { class: "muted" }, "You sit in no game yet."));
}

// The options the form asks for itself; every other option of the game (its
// own, and the engine's deadlines) is drawn from the catalogue.
const ASKED = new Set(["players", "visibility", "time_bank_seconds", "detective_seats"]);

/** @param {Option} option */
function optionInput(option) {
  const id = `option-${option.name}`;
  const label = `${words(option.name)}: ${option.description}`;
  if (option.kind === "bool") return h("label", {}, h("input", { type: "checkbox", id, "data-option": option.name, checked: !!option.default }), " ", label);
  if (option.kind === "choice") { // which has its choices
    return h("label", { for: id }, label, h("br"), h("select", { id, "data-option": option.name },
      /** @type {string[]} */ (option.choices).map((choice) => h("option", { value: choice, selected: choice === option.default }, words(choice)))));
  }
  return h("label", { for: id }, label, h("br"), h("input", {
    type: "number", id, "data-option": option.name, min: option.minimum, max: option.maximum,
    value: option.default ?? "", placeholder: option.default === null ? "off" : null,
  }));
}

// Only the options changed from their defaults are sent.
/** @param {HTMLFieldSetElement} fieldset @param {Rules} rules @returns {Record<string, unknown>} */
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

async function creating() {
  const { games } = await get("/rules");
  const choice = h("select", { id: "create-game", name: "game" }, games.map((g) => h("option", { value: g.name }, words(g.name))));
  const players = h("input", { type: "number", id: "create-players", min: 2, max: 6, value: 2 });
  const bots = h("input", { type: "checkbox", id: "create-bots", checked: true });
  const kind = h("select", { id: "create-bot-kind" }, h("option", { value: "random" }, "random"), h("option", { value: "heuristic" }, "heuristic"));
  const hidden = h("input", { type: "checkbox", id: "create-private" });
  const bank = h("input", { type: "number", id: "create-bank", min: 60, placeholder: "off" });
  const more = h("fieldset", { id: "create-options" });
  const error = h("p", { class: "error", role: "alert" });
  // The select offers the catalogue's games alone.
  const rulesOf = () => /** @type {Rules} */ (games.find((g) => g.name === choice.value));
  const drawOptions = () => {
    const rules = rulesOf();
    players.min = String(rules.min_seats);
    players.max = String(rules.max_seats);
    players.value = String(Math.max(rules.min_seats, Math.min(rules.max_seats, Number(players.value) || 2)));
    more.replaceChildren(h("legend", {}, `More options of ${words(rules.name)}`),
      ...rules.options.filter((o) => !ASKED.has(o.name) && !o.deprecated).map(optionInput));
  };
  choice.addEventListener("change", drawOptions);
  drawOptions();
  const form = h("form", {
    id: "create", onsubmit: async (e) => {
      e.preventDefault();
      const rules = rulesOf();
      const count = Math.max(rules.min_seats, Math.min(rules.max_seats, Number(players.value) || 2));
      /** @type {Record<string, unknown>} */
      const options = { ...chosenOptions(more, rules), players: count };
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
  h("label", { for: "create-game" }, "Game"), choice,
  h("label", { for: "create-players" }, "Seats"), players,
  h("label", {}, bots, " Bots take every other seat, playing ", kind),
  h("label", {}, hidden, " Private (joined by invite code only)"),
  h("label", { for: "create-bank" }, "Time bank per seat, in seconds (empty: none)"), bank,
  more,
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
      const game = id.value.trim();
      try {
        if (code.value.trim()) await change(`/games/${encodeURIComponent(game)}/invites/redeem`, { code: code.value.trim() });
        else await change(`/games/${encodeURIComponent(game)}/join`, {});
        location.hash = `#/games/${game}`;
      } catch (problem) { error.textContent = /** @type {Error} */ (problem).message; }
    },
  }, h("label", { for: "join-id" }, "Game id"), id, h("label", { for: "join-code" }, "Invite code (for a private game)"), code,
  h("p", {}, h("button", { type: "submit" }, "Join")), error);
  return h("section", { "aria-labelledby": "join-title" }, h("h2", { id: "join-title" }, "Join a game"), form);
}

async function watching() {
  const { games } = await get("/games?status=active", { as: null });
  return h("section", { "aria-labelledby": "watch-title" }, h("h2", { id: "watch-title" }, "Games being played"),
    games.length ? h("ul", {}, games.slice(0, 20).map((g) => h("li", {},
      h("a", { href: `#/watch/${g.id}` }, `${words(g.game)} ${g.id.slice(0, 8)}`), ` · version ${g.version}`)))
      : h("p", { class: "muted" }, "None right now."));
}
