// The players of bench/versus_boardgameio.py: one process, many matches at
// once, each player moving as soon as it may. Both servers are played the
// same way: the two seats of a match move in seat order within each round
// (the server's version check, If-Match or boardgame.io's stateID, would
// refuse one of two moves sent at once), highest card first; matches are
// played --concurrent at a time until the list is done.
//
//   node driver.js create-bgio URL COUNT OUT.json       matches made through the lobby API, 2 seats joined
//   node driver.js bgio URL MATCHES.json CONCURRENT [SPECTATORS]   play them over socket.io
//   node driver.js boardlog-hands URL GAMES.json CONCURRENT  each seat's hand read into the file
//   node driver.js boardlog-post URL GAMES.json CONCURRENT   POSTs alone (see below)
//   node driver.js boardlog-move URL GAMES.json CONCURRENT [SPECTATORS]   GET view + POST per move
//
// SPECTATORS a match (0 by default) watch it from before its first move to
// its end, joining one after the other: on boardgame.io sockets (one per
// spectator slot, kept from match to match) that `sync` with no playerID
// and get the server's pushes; on boardlog SSE streams of the game without
// a token (GET /v1/games/ID/stream: a `view` after each move, an `end` once
// the game is over and scored). A match is done once each of its spectators
// has seen its end.
//
// boardgame.io: the raw socket.io messages its client sends (no Client, whose
// reducer would run the game again here): each seat's socket on the game's
// namespace sends `sync` once per match, then `update` with a MAKE_MOVE
// action and the stateID it last received; the server answers every seat of
// the match with its filtered `update`. A move is done when both seats have
// the new state.
//
// boardlog: `boardlog-move` is the whole move as a client makes it: the seat
// reads its view (If-None-Match its last ETag; the other seat moved since,
// so 200) for its hand and version, then POSTs ChooseCard with If-Match that
// ETag and an Idempotency-Key of its own. `boardlog-post` sends the POSTs
// alone: each seat's hand is read beforehand (boardlog-hands, outside the
// round) and the version is carried from the last POST's answer, out of band.
//
// Prints one JSON line: moves, seconds, delivered (the moves spectators were
// sent: boardgame.io's pushes, boardlog's `view` messages), failures by cause. Any failure (an
// answer not 200, a socket error, a move not answered within 10 s, a game
// not over after its six moves) is counted; the bench fails on any.
"use strict";
const fs = require("fs");
const http = require("http");
const crypto = require("crypto");
const { io } = require("socket.io-client");

const ROUNDS = 3;
const TIMEOUT_MS = 10000;
const failures = {};
const fail = (cause) => { failures[cause] = (failures[cause] || 0) + 1; };

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function request(base, method, path, headers, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(base + path, { method, agent, timeout: TIMEOUT_MS,
      headers: { ...headers, ...(data ? { "Content-Type": "application/json", "Content-Length": data.length } : {}) } },
    (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : null });
      });
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    if (data) req.write(data);
    req.end();
  });
}

async function pool(items, concurrent, play) {
  let next = 0;
  const slot = async (n) => {
    while (next < items.length) {
      const item = items[next++];
      try { await play(item, n); } catch (error) { fail(`error: ${error.message}`); }
    }
  };
  await Promise.all(Array.from({ length: concurrent }, (_, n) => slot(n)));
}

const highest = (hand) => Math.max(...hand);

// --- boardgame.io

async function createBgio(base, count, out) {
  const matches = [];
  await pool(Array.from({ length: count }, (_, n) => n), 8, async () => {
    const made = await request(base, "POST", "/games/example/create", {}, { numPlayers: 2 });
    if (made.status !== 200) throw new Error(`create answered ${made.status}`);
    const { matchID } = made.json;
    const seats = [];
    for (const playerID of ["0", "1"]) {
      const joined = await request(base, "POST", `/games/example/${matchID}/join`, {}, { playerID, playerName: `p${playerID}` });
      if (joined.status !== 200) throw new Error(`join answered ${joined.status}`);
      seats.push({ playerID, credentials: joined.json.playerCredentials });
    }
    matches.push({ matchID, seats });
  });
  fs.writeFileSync(out, JSON.stringify(matches));
}

function bgioSeat(base) {
  const socket = io(`${base}/example`, { transports: ["websocket"], reconnection: false });
  const seat = { socket, state: null, waiting: null };
  const got = (type) => (matchID, payload) => {
    if (type === "sync") payload = payload.state;
    if (matchID !== seat.matchID) return;
    seat.state = payload;
    if (seat.waiting && payload._stateID >= seat.waiting.stateID) {
      const { resolve } = seat.waiting;
      seat.waiting = null;
      resolve();
    }
  };
  socket.on("sync", got("sync"));
  socket.on("update", got("update"));
  socket.on("connect_error", (error) => fail(`socket error: ${error.message}`));
  socket.on("disconnect", (reason) => { if (!seat.closing) fail(`socket disconnected: ${reason}`); });
  return seat;
}

function stateAtLeast(seat, stateID, what) {
  if (seat.state && seat.state._stateID >= stateID) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { seat.waiting = null; reject(new Error(`no ${what} within 10 s`)); }, TIMEOUT_MS);
    seat.waiting = { stateID, resolve: () => { clearTimeout(timer); resolve(); } };
  });
}

let delivered = 0;

async function playBgio(base, matches, concurrent, spectators) {
  const slots = Array.from({ length: concurrent }, () => [bgioSeat(base), bgioSeat(base)]);
  const watchers = Array.from({ length: concurrent }, () => Array.from({ length: spectators }, () => bgioSeat(base)));
  watchers.flat().forEach((seat) => seat.socket.on("update", (matchID) => { if (matchID === seat.matchID) delivered += 1; }));
  const started = process.hrtime.bigint();
  let moves = 0;
  await pool(matches, concurrent, async (match, n) => {
    const seats = slots[n];
    seats.forEach((seat, i) => {
      seat.matchID = match.matchID;
      seat.state = null;
      seat.socket.emit("sync", match.matchID, match.seats[i].playerID, match.seats[i].credentials, 2);
    });
    await Promise.all(seats.map((seat) => stateAtLeast(seat, 0, "sync")));
    for (const seat of watchers[n]) { // one after the other, each in before the first move, as on boardlog
      seat.matchID = match.matchID;
      seat.state = null;
      seat.socket.emit("sync", match.matchID, null, undefined, 2);
      await stateAtLeast(seat, 0, "sync for a spectator");
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < seats.length; i++) {
        const { state } = seats[i];
        const { playerID, credentials } = match.seats[i];
        if (!state.ctx.activePlayers || !(playerID in state.ctx.activePlayers)) throw new Error("a seat named to act is not active");
        const action = { type: "MAKE_MOVE", payload: { type: "choose", args: [highest(state.G.hand)], playerID, credentials } };
        seats[i].socket.emit("update", action, state._stateID, match.matchID, playerID);
        await Promise.all(seats.map((seat) => stateAtLeast(seat, state._stateID + 1, "update (a refused move?)")));
        moves += 1;
      }
    }
    if (!seats[0].state.ctx.gameover) fail("a match not over after its six moves");
    const end = seats[0].state._stateID;
    await Promise.all(watchers[n].map((seat) => stateAtLeast(seat, end, "end for a spectator")));
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  [...slots.flat(), ...watchers.flat()].forEach((seat) => { seat.closing = true; seat.socket.close(); });
  return { moves, seconds, delivered };
}

// --- boardlog

const auth = (token) => ({ Authorization: `Bearer ${token}` });

async function post(base, game, token, card, etag) {
  const answer = await request(base, "POST", `/v1/games/${game}/commands`,
    { ...auth(token), "If-Match": etag, "Idempotency-Key": crypto.randomUUID() }, { type: "ChooseCard", card });
  if (answer.status !== 200) throw new Error(`a command answered ${answer.status} ${answer.json && answer.json.title}`);
  return answer.json;
}

// The hands and version of each game, written into its file: read by a run
// of their own, before the round's clock and CPU count start.
async function readHands(base, file, concurrent) {
  const games = JSON.parse(fs.readFileSync(file));
  await pool(games, concurrent, async (game) => {
    game.hands = {};
    for (const [seat, token] of Object.entries(game.seats)) {
      const view = await request(base, "GET", `/v1/games/${game.id}/view`, auth(token));
      if (view.status !== 200) throw new Error(`a view answered ${view.status}`);
      game.hands[seat] = view.json.view.hand;
      game.version = view.json.version;
    }
  });
  fs.writeFileSync(file, JSON.stringify(games));
}

// One spectator of a boardlog game: its SSE stream (no token), from its
// first `view` (ready) to its `end` (done); each later `view` is a move
// delivered. A new connection each: a stream holds its socket.
function watch(base, game) {
  let ready, done;
  const state = { ready: new Promise((resolve) => { ready = resolve; }),
                  done: new Promise((resolve, reject) => { done = { resolve, reject }; }) };
  let views = 0;
  let buffer = "";
  const req = http.get(`${base}/v1/games/${game}/stream`, { agent: false, headers: { Accept: "text/event-stream" } },
    (res) => {
      if (res.statusCode !== 200) {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => done.reject(new Error(`a spectator's stream answered ${res.statusCode} ${Buffer.concat(chunks)}`)));
        return;
      }
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        buffer += chunk;
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const message = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const kind = (message.match(/^event: (.*)$/m) || [])[1];
          if (kind === "view" && views++ === 0) ready();
          else if (kind === "view") delivered += 1;
          else if (kind === "end") { ready(); done.resolve(); req.destroy(); }
        }
      });
      res.on("end", () => done.reject(new Error("a spectator's stream ended before the game")));
    });
  req.on("error", (error) => done.reject(error)); // after the end: a settled promise, nothing
  state.done.catch(() => ready());
  return state;
}

async function playBoardlog(base, games, concurrent, whole, spectators) {
  const hands = new Map();
  for (const game of games) {
    for (const [seat, hand] of Object.entries(game.hands || {})) hands.set(`${game.id} ${seat}`, [...hand]);
  }
  const started = process.hrtime.bigint();
  let moves = 0;
  await pool(games, concurrent, async (game) => {
    const watching = [];
    for (let n = 0; n < spectators; n++) { // one after the other, each in before the first move
      const spectator = watch(base, game.id);
      watching.push(spectator.done.catch((error) => fail(error.message)));
      await spectator.ready;
    }
    const etags = {};
    let answer = null;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [seat, token] of Object.entries(game.seats)) {
        let hand = hands.get(`${game.id} ${seat}`);
        let etag = `"${answer ? answer.version : game.version}"`;
        if (whole) {
          const view = await request(base, "GET", `/v1/games/${game.id}/view`,
            { ...auth(token), ...(etags[seat] ? { "If-None-Match": etags[seat] } : {}) });
          if (view.status !== 200) throw new Error(`a view answered ${view.status}`);
          if (!view.json.to_act.includes(seat)) throw new Error("a seat named to act is not in to_act");
          etag = etags[seat] = view.headers.etag;
          hand = view.json.view.hand;
        }
        const card = highest(hand);
        answer = await post(base, game.id, token, card, etag);
        if (!whole) hand.splice(hand.indexOf(card), 1);
        moves += 1;
      }
    }
    // Over: the worker scores it next (bench/versus_boardgameio.py waits for "finished").
    if (answer.status !== "scoring" && answer.status !== "finished") fail(`a game ${answer.status} after its six moves`);
    await Promise.all(watching);
  });
  return { moves, seconds: Number(process.hrtime.bigint() - started) / 1e9, delivered };
}

async function main() {
  const [mode, base, file, third, fourth] = process.argv.slice(2);
  let result = {};
  if (mode === "create-bgio") {
    await createBgio(base, Number(file), third);
  } else if (mode === "bgio") {
    result = await playBgio(base, JSON.parse(fs.readFileSync(file)), Number(third), Number(fourth || 0));
  } else if (mode === "boardlog-hands") {
    await readHands(base, file, Number(third));
  } else if (mode === "boardlog-post" || mode === "boardlog-move") {
    result = await playBoardlog(base, JSON.parse(fs.readFileSync(file)), Number(third), mode === "boardlog-move",
      Number(fourth || 0));
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  console.log(JSON.stringify({ ...result, failures }));
  agent.destroy();
  process.exit(0);
}

main().catch((error) => { console.log(JSON.stringify({ failures: { ...failures, [`error: ${error.message}`]: 1 } })); process.exit(1); });
