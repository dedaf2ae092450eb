// @ts-check
// A game's table: the view (GET /view) and its board, drawn with the game's
// data files (data.js), your hand with the cards' names and texts, whose turn
// and every deadline or bank, the legal commands as choices, the log in words
// (each event's `text`), the stream that keeps it all current; resign, and
// the lobby's and the end's actions (start, join, invite, rematch); ending
// by agreement (agreement.js) and giving time (time.js) beside them.
import { change, get, me, Problem } from "./api.js";
import { drawBoard, drawHand, drawLegend } from "./board.js";
import { captionPlaces, untangle } from "./board_labels.js";
import { Composer } from "./compose.js";
import { declaredHand, entryOf, gameData } from "./data.js";
import { capital, focusKey, h, notice, refocus, tree, words } from "./dom.js";
import { follow } from "./stream.js";
import { signedOut } from "./app.js";
import { shareLink } from "./share.js";
import { standingsSection } from "./standings.js";
import { agreement } from "./agreement.js";
import { clocksList, timeGifts } from "./time.js";
import { missing, privateGame } from "./game_pages.js";
import { gameLog } from "./game_log.js";
export { eventWords } from "./game_log.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["FeedResponse"]["events"][number]} FeedEvent */
/** @typedef {Schemas["Command"]} Command */
/** A seat's time bank and deadline. @typedef {Schemas["SeatClock"]} Clock */
/** The view's answer (GET /view, a stream's `view` message). @typedef {Schemas["ViewResponse"]} Envelope */
/** The table's actions on a game besides its commands (POST /v1/games/{id}/…). @typedef {"start" | "join" | "resign"} Action */

/** The catalogue's declarations the table composes from (GET /v1/rules/{game}). @typedef {import("./compose.js").Catalogue} Catalogue */
/** The envelope's players by name, seat → name (a server that sends none: the summary's seats). @typedef {{ names?: Record<string, string> }} Named */

const LOG_TAIL = 30; // the table reads only the log's tail, never the whole history

/**
 * @param {HTMLElement} main @param {string} id @param {{ spectator: boolean }} how
 * @returns {Promise<(() => void) | null>} what to do when leaving the table (closing its stream)
 */
export async function table(main, id, { spectator }) {
  const token = spectator ? null : me.token;
  const as = { as: token };
  /** @type {Schemas["GameSummary"]} */
  let summary;
  /** @type {Envelope} */
  let envelope;
  /** @type {Schemas["Me"] | null} */
  let player = null;
  try {
    summary = await get(`/games/${encodeURIComponent(id)}`, as);
    envelope = /** @type {Envelope} */ (await get(`/games/${encodeURIComponent(id)}/view`, as));
    if (token) player = await get("/players/me", as);
  } catch (problem) {
    if (problem instanceof Problem && problem.status === 401) { signedOut(); return table(main, id, { spectator: true }); }
    if (problem instanceof Problem && problem.status < 500) { missing(main, problem); return null; }
    throw problem;
  }
  if (summary.visibility === "private" && !(player && summary.seats.some((seat) => seat.player === player.id))) {
    privateGame(main, id, summary);
    return null;
  }
  const root = h("div", { id: "table" });
  /** @type {number[]} */
  const streamed = [];
  /** @type {Command[]} */
  let commands = [];
  /** @type {Composer | null} the decision being composed, of `commands` */
  let composer = null;
  /** @type {string[]} the commands' sentences, parallel to them */
  let texts = [];
  /** @type {string} the server's refusal of the last command sent, shown until the next decision */
  let refusal = "";
  /** @type {Catalogue} */
  let catalogue = {};
  let sending = false, ended = false, askingResign = false;
  /** @type {ReturnType<typeof follow> | null} */
  let stream = null;
  /** @type {import("./data.js").GameData | null} */
  let data = null;

  const ui = {
    status: h("p", { id: "status", "aria-live": "polite" }),
    clocks: h("div", { id: "clocks" }),
    board: h("div", { class: "board", id: "board" }),
    legend: h("div", { id: "legend-area" }),
    caption: h("p", { id: "board-caption", class: "muted" }, "Point at a place, or Tab to it, to read its name."),
    zoom: h("button", { type: "button", id: "board-zoom", class: "phone-only", "aria-pressed": "false", "aria-controls": "board" }, "Enlarge the board"),
    hand: h("div", { id: "hand-area" }),
    handSection: h("section", { "aria-labelledby": "hand-title", id: "hand-section" }),
    treeTitle: h("summary", { id: "tree-title" }),
    commands: h("div", { id: "commands-area", "aria-live": "polite" }),
    actions: h("div", { id: "actions", class: "controls" }),
    standings: h("div", { id: "standings-area" }),
    tree: h("div", { class: "tree", id: "view-tree" }),
    link: h("p", { id: "stream-state", class: "muted" }),
  };
  const agreed = agreement(id, as, (seat) => seatName(seat), (problem) => failed(problem)); // ending by agreement
  const { log, add: addLog } = gameLog((event) => agreed.heard(event));
  const gifts = timeGifts(id, as, (seat) => seatName(seat), (problem) => failed(problem)); // giving time
  ui.handSection.append(h("h2", { id: "hand-title" }, "Your hand"), ui.hand);
  const heading = h("h1", {}, capital(words(summary.game)));  // the game's own title once the catalogue is in
  root.append(
    heading,
    ui.status, ui.clocks, ui.link,
    h("div", { class: "layout" },
      h("div", {},
        h("section", { "aria-labelledby": "board-title", id: "board-section" }, h("h2", { id: "board-title" }, "Board"), ui.board, ui.caption, ui.zoom, ui.legend),
        ui.handSection),
      h("div", {},
        h("section", { "aria-labelledby": "commands-title", id: "move-section" }, h("h2", { id: "commands-title" }, "Your move"), ui.commands),
        h("section", { "aria-label": "Actions" }, ui.actions), agreed.section, gifts.section,
        ui.standings,
        h("section", { "aria-labelledby": "log-title" }, h("h2", { id: "log-title" }, "Log"), log))),
    h("details", { id: "view-details" }, ui.treeTitle, ui.tree),
    h("p", {}, h("a", { href: `#/replay/${id}` }, "Replay this game"), " · ", h("a", { href: `#/watch/${id}` }, "Watch as a spectator")));
  main.replaceChildren(root);
  captionPlaces(ui.board, ui.caption);
  // On a phone the whole board fits the width and its numbers are tiny: enlarged, it pans in its frame,
  // which the keyboard reaches too. The board's redrawings keep it so (they replace what is inside).
  ui.zoom.addEventListener("click", () => {
    const zoomed = ui.board.classList.toggle("zoomed");
    ui.zoom.setAttribute("aria-pressed", String(zoomed));
    ui.zoom.textContent = zoomed ? "Fit the board to the screen" : "Enlarge the board";
    if (zoomed) ui.board.setAttribute("tabindex", "0"); else ui.board.removeAttribute("tabindex");
  });

  /** @param {unknown} problem */
  const failed = (problem) => {
    if (problem instanceof Problem && problem.status === 401) { lostToken(); return; }
    notice(/** @type {Error} */ (problem).message);
  };

  function lostToken() {
    if (stream) stream.stop();
    signedOut();
    root.prepend(h("p", { id: "signed-out", class: "problem", role: "alert" }, "Your token was revoked or has expired: sign in again."));
    commands = [];
    render();
  }

  // A seat's player by name: the envelope's `names`, else the summary's seats, else a bot.
  /** @param {string} seat @returns {string | undefined} */
  const seatName = (seat) => /** @type {Named} */ (envelope).names?.[seat] || summary.seats.find((s) => s.seat === seat)?.name
    || (envelope.bots && envelope.bots[seat] ? "Bot" : undefined);
  /** @param {string} seat @returns {string} a name, the seat after it */
  // A seat that is a role says it ("Ada (detective 1)"); a numbered seat ("p1") says nothing a person needs.
  const who = (seat) => (seatName(seat) ? `${seatName(seat)}${/^p\d+$/.test(seat) ? "" : ` (${words(seat)})`}` : words(seat));
  // How the composer names a value: a seat by its player, a thing by its data file's label, a place by the board's name.
  /** @param {import("./compose.js").NamesJson | null} names @param {import("./compose.js").Scalar} value @returns {string | null} */
  const label = (names, value) => {
    if (!names) return null;
    if (names.kind === "seat") return seatName(String(value)) || null;
    const entry = entryOf(names, value, data);
    const named = entry && entry[names.label || "name"];
    // A numbered place keeps its number beside its name (the board shows the number); an id ("taverne") is never shown.
    if (named !== undefined && named !== null && typeof named !== "object") return typeof value === "number" && names.kind === "place" ? `${value}, ${named}` : String(named);
    const drawn = ui.board.querySelector(`[data-place="${CSS.escape(`${names.what}:${value}`)}"]`);
    const name = drawn && drawn.getAttribute("data-name");
    return name && name !== String(value) ? `${value}, ${name}` : null;
  };
  // The board and its legend call a seat by its player's name alone (its colour tells the seats apart).
  /** @param {unknown} seat */
  const onBoard = (seat) => seatName(String(seat)) || words(String(seat));
  const mine = () => !!token && !!envelope.seat && envelope.status === "active" && envelope.to_act.includes(envelope.seat);

  function render() {
    const focused = focusKey(root);
    root.dataset.view = JSON.stringify(envelope);
    root.dataset.version = String(envelope.version);
    root.dataset.status = envelope.status;
    root.dataset.streamed = streamed.join(",");
    const turn = envelope.to_act.length ? envelope.to_act.map(who).join(", ") : "nobody";
    // A player who resigned or was abandoned sees as a spectator does, but is not one.
    const left = !envelope.seat && player ? summary.seats.find((s) => s.player === player.id) : null;
    ui.status.replaceChildren(`${capital(words(envelope.status))} · version ${envelope.version} · `,
      envelope.seat ? `you are ${who(envelope.seat)} · ` : !left ? "you watch as a spectator · "
        : envelope.resigned.includes(left.seat) ? "you resigned · " : "a bot plays your seat · ",
      mine() ? h("span", { class: "badge" }, "your turn") : `to act: ${turn}`,
      envelope.outcome ? ` · ${envelope.outcome}` : "");
    renderClocks();
    const board = drawBoard(catalogue.board, envelope, data, catalogue.title || words(summary.game), onBoard);
    ui.board.replaceChildren(board);
    untangle(board);
    ui.legend.replaceChildren(drawLegend(catalogue.board, envelope, data, onBoard));
    // The layout follows the seat: a player who takes one sees his hand from that view on.
    const seated = !spectator && !!envelope.seat;
    const cards = seated && catalogue.hand ? declaredHand(catalogue.hand, envelope, data) || [] : [];
    // A game that declares no hand shows none.
    ui.handSection.hidden = !seated || !catalogue.hand;
    if (seated) ui.hand.replaceChildren(drawHand(cards));
    ui.treeTitle.textContent = seated ? "Everything you see, as data (your private information and what is public)" : "Everything public, as data";
    renderCommands();
    renderActions();
    renderStandings();
    agreed.draw(envelope);
    gifts.draw(envelope);
    ui.tree.replaceChildren(envelope.view ? tree(envelope.view) : h("p", { class: "muted" }, "The game has not started."));
    refocus(root, focused);
  }

  const renderClocks = () => ui.clocks.replaceChildren(clocksList(summary.deadline, envelope, who));

  function renderCommands() {
    const refused = refusal ? h("p", { id: "refusal", class: "problem", role: "alert" }, refusal) : "";
    if (!mine() || !composer) {
      const waiting = mine() ? "Your turn: the moves are on their way…" : envelope.status === "active" ? "Not your turn." : "No move to make.";
      ui.commands.replaceChildren(refused, h("p", { class: "muted" }, waiting));
      if (composer) composer.refusing = null;
      return;
    }
    const area = h("div", { id: "commands" });
    ui.commands.replaceChildren(refused, area);
    composer.render(area, { texts, catalogue, label, board: ui.board, hand: ui.hand, send, busy: sending });
  }

  function renderActions() {
    /** @type {HTMLElement[]} */
    const buttons = [];
    const seated = player && summary.seats.some((s) => s.player === player.id);
    if (envelope.status === "lobby" || summary.status === "lobby") {
      const bots = summary.bots || {};
      const free = summary.free_seats.filter((seat) => !(seat in bots)); // a bot's seat is listed free but is taken
      ui.actions.replaceChildren(h("p", {}, `Seats: ${[...summary.seats.map((s) => `${s.name} (${s.seat})`), ...Object.entries(bots).map(([seat, kind]) => `a ${kind} bot (${seat})`)].join(", ")}`,
        free.length ? `; free: ${free.join(", ")}` : ""));
      if (player && summary.host === player.id && !free.length) buttons.push(h("button", { class: "primary", id: "start", type: "button", onclick: () => act("start") }, "Start the game"));
      if (player && !seated && free.length) buttons.push(h("button", { class: "primary", id: "join", type: "button", onclick: () => act("join", {}) }, "Take a seat"));
      if (player && summary.host === player.id) buttons.push(h("button", { id: "invite", type: "button", onclick: invite }, "Make an invite code"));
      if (!player && free.length) buttons.push(h("p", {}, h("a", { href: "#/" }, "Register in the lobby"), " to take a seat: the game waits there among those looking for players."));
      ui.actions.append(...buttons);
      if (free.length) ui.actions.append(h("p", { id: "share" }, "Invite players with the game's link: ", shareLink(id)));
      return;
    }
    ui.actions.replaceChildren();
    if (envelope.seat && envelope.status === "active") {
      // The question stays asked across redrawings: a move or a view from the
      // stream redraws the actions, and must not take the answer from under the player's pointer.
      const confirm = h("span", { hidden: !askingResign }, "Really resign? ",
        h("button", { class: "danger", id: "resign-yes", type: "button", onclick: () => { askingResign = false; act("resign"); } }, "Yes, resign"), " ",
        h("button", { type: "button", onclick: () => { askingResign = false; confirm.hidden = true; } }, "No"));
      ui.actions.append(h("button", { class: "danger", id: "resign", type: "button", onclick: () => { askingResign = true; confirm.hidden = false; } }, "Resign"), confirm);
    }
    if (seated && (envelope.status === "finished") && !envelope.rematch) ui.actions.append(h("button", { id: "rematch", type: "button", onclick: rematch }, "Rematch"));
    if (envelope.rematch) ui.actions.append(h("a", { href: `#/games/${envelope.rematch}` }, "The rematch"));
  }

  function renderStandings() {
    if (!envelope.standings) { ui.standings.replaceChildren(); return; }
    ui.standings.replaceChildren(standingsSection(envelope.game, envelope.standings,
      (seat) => seatName(seat) || (envelope.bots[seat] ? `a ${envelope.bots[seat]} bot` : seat)));
  }

  // A click on a place of the board that the step does not offer: a sentence, and nothing changes.
  ui.board.addEventListener("click", (event) => {
    const place = event.target instanceof Element ? event.target.closest("[data-place]") : null;
    if (!place || place.classList.contains("candidate")) return;
    if (composer && composer.refuse(/** @type {string} */ (place.getAttribute("data-place")))) return;
    if (mine()) return;
    notice(envelope.status === "active" ? "It is not your turn: the board takes your moves when it is." : "There is no move to make.");
  });

  async function refreshCommands() {
    const version = envelope.version;
    if (!mine()) { commands = []; return; }
    try {
      const legal = await get(`/games/${encodeURIComponent(id)}/legal-commands`, as);
      if (legal.version !== envelope.version || version !== envelope.version) return; // a newer view came meanwhile
      // The same commands again (a view of the version the table holds): the move being composed stays as far as it went.
      const same = composer && JSON.stringify(legal.commands) === JSON.stringify(commands);
      commands = legal.commands;
      texts = /** @type {{ texts?: string[] }} */ (legal).texts || [];
      if (!same) composer = new Composer(commands);
      render();
      performance.mark("choices-offered", { detail: version }); // the move to make drawn (bench/table.py)
    } catch (problem) { failed(problem); }
  }

  /** @param {Command} command */
  async function send(command) {
    if (sending) return;
    sending = true;
    render();
    const before = envelope.version;
    refusal = "";
    try {
      await change(`/games/${encodeURIComponent(id)}/commands`, command, as);
      // The stream may have brought the move's view, and the table the next
      // turn's commands, before this answer: those are current, and nothing
      // would ask for them again. Only the commands of the version moved from are stale.
      if (envelope.version === before) { commands = []; composer = null; }
    } catch (problem) {
      if (!(problem instanceof Problem) || problem.status === 401 || problem.status >= 500) failed(problem);
      else {
        // Refused (a stale version, a timeout that came first): the table as it is now, with the reason.
        refusal = `The move was refused: ${problem.message}`;
        sending = false;
        try { adopt(/** @type {Envelope} */ (await get(`/games/${encodeURIComponent(id)}/view`, as))); } catch (again) { failed(again); }
        commands = []; composer = null;
        render();
        refreshCommands();
        return;
      }
    }
    sending = false;
    render();
  }

  // A view fetched after an action may answer later than the stream's newer
  // one (bots move at once): the table never goes back to an older version.
  /** @param {Envelope} next */
  function adopt(next) {
    if (next.version >= envelope.version) envelope = next;
  }

  /** @param {Action} action @param {Schemas["Join"]} [body] */
  async function act(action, body) {
    try {
      await change(`/games/${encodeURIComponent(id)}/${action}`, body, as);
      summary = await get(`/games/${encodeURIComponent(id)}`, as);
      adopt(/** @type {Envelope} */ (await get(`/games/${encodeURIComponent(id)}/view`, as)));
      render();
      refreshCommands();
    } catch (problem) { failed(problem); }
  }

  async function invite() {
    try {
      const made = await change(`/games/${encodeURIComponent(id)}/invites`, {}, as);
      ui.actions.append(h("p", { id: "invite-code" }, `Invite code: ${made.code} (give it with this page's address)`));
    } catch (problem) { failed(problem); }
  }

  async function rematch() {
    try {
      const made = await change(`/games/${encodeURIComponent(id)}/rematch`, {}, as);
      location.hash = `#/games/${made.id}`;
    } catch (problem) { failed(problem); }
  }

  let summariesAsked = 0; // the stream's views that asked for the summary, to keep the latest answer

  // The log's tail and the game's data files at once: the tail holds the
  // GameCreated that names the files when the game is that young.
  const tail = get(`/games/${encodeURIComponent(id)}/events?after=${Math.max(0, envelope.version - LOG_TAIL)}&limit=${LOG_TAIL}`, as);
  const loading = (envelope.version > LOG_TAIL ? gameData(summary.game, id, as) : tail.then((feed) => gameData(summary.game, id, { ...as, events: feed.events })))
    .catch((problem) => { failed(problem); return null; }); // without data the board is drawn from the view alone
  // The catalogue says what each command field names and where a seat's hand is: the composer and the hand read it.
  const rules = get(`/rules/${encodeURIComponent(summary.game)}`, { as: null }).catch((problem) => { failed(problem); return {}; });
  try { (await tail).events.forEach(addLog); } catch (problem) { failed(problem); }
  data = await loading;
  catalogue = /** @type {Catalogue} */ (await rules);
  if (catalogue.title) heading.textContent = catalogue.title;
  root.dataset.loaded = String(envelope.version); // the version the table was first drawn at; the stream follows from it
  render();
  performance.mark("board-drawn"); // the table's first drawing, for the benchmark (Chromium's performance timing)
  refreshCommands();

  if (envelope.status !== "finished" && envelope.status !== "cancelled") {
    stream = follow(id, {
      token, after: envelope.version,
      onEvent: (event) => {
        if (event.version <= (streamed.length ? streamed[streamed.length - 1] : envelope.version)) return; // had it before a reconnection
        streamed.push(event.version);
        addLog(event);
        root.dataset.streamed = streamed.join(",");
      },
      onView: async (next) => {
        if (next.version < envelope.version) return;
        if (next.status !== envelope.status || envelope.status === "lobby") {
          // The seats changed: the summary names them. Only the latest asked is kept.
          const ask = ++summariesAsked;
          try {
            const fresh = await get(`/games/${encodeURIComponent(id)}`, as);
            if (ask === summariesAsked) summary = fresh;
          } catch (problem) { failed(problem); }
          // A newer view was drawn while this one waited (the start's answer, a bot's move), and
          // the player may be composing on it: this one is older, and must not reset his move.
          if (next.version < envelope.version) { render(); return; }
        }
        // Legal commands are those of a version: a view of the version the table
        // holds (a reconnected stream's first) leaves the board's choices where they are.
        const moved = next.version > envelope.version;
        envelope = /** @type {Envelope} */ (next); // the same envelope as GET /view's
        if (moved) { commands = []; composer = null; refusal = ""; }
        render();
        performance.mark("table-redrawn", { detail: next.version }); // from the stream's "view-received" (bench/table.py)
        refreshCommands();
      },
      onEnd: async () => {
        ended = true;
        try { summary = await get(`/games/${encodeURIComponent(id)}`, as); adopt(/** @type {Envelope} */ (await get(`/games/${encodeURIComponent(id)}/view`, as))); } catch (problem) { failed(problem); }
        render();
      },
      onSignedOut: lostToken,
      onState: (state) => {
        if (state === "live") root.dataset.connections = String(Number(root.dataset.connections || 0) + 1);
        ui.link.textContent = state === "live" ? "Live." : state === "reconnecting" ? "Reconnecting…" : ended ? "The game is over." : "";
      },
    });
  }
  return () => { if (stream) stream.stop(); };
}
