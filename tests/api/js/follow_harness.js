// Runs the EventSource recipe of docs/frontend-authors.md (its source file given as the first
// argument) against a fake fetch, EventSource and clock, in three stories,
// and prints what happened as JSON for tests/api/test_readme_recipes.py.
"use strict";
const recipe = require("fs").readFileSync(process.argv[2], "utf8");

let now = 0;
let timers = [];
let sources = [];
let answers = [];
let requests = [];
global.setTimeout = (fn, ms) => { timers.push({ at: now + ms, fn }); };
Math.random = () => 1; // the top of the jitter: each wait is the full delay

class FakeEventSource {
  constructor(url) { this.url = url; this.listeners = {}; this.closed = false; sources.push(this); }
  addEventListener(name, fn) { this.listeners[name] = fn; }
  close() { this.closed = true; }
  emit(name, id, data) {
    const event = { lastEventId: id, data: JSON.stringify(data) };
    if (name === "message") this.onmessage(event); else this.listeners[name](event);
  }
  fail() { this.onerror({}); }
}
global.EventSource = FakeEventSource;
global.fetch = async (url, init) => {
  requests.push({ url, method: init.method, authorization: init.headers.Authorization, at: now });
  const answer = answers.shift() || { status: 503 };
  if (answer === "network") throw new TypeError("network down");
  return {
    status: answer.status, ok: answer.status >= 200 && answer.status < 300,
    headers: { get: (name) => (name === "Retry-After" ? answer.retryAfter ?? null : null) },
    json: async () => ({ ticket: answer.ticket }),
  };
};
const follow = new Function(`${recipe}\nreturn follow;`)();

async function settle() { for (let i = 0; i < 50; i++) await Promise.resolve(); }
async function advance(ms) {
  const until = now + ms;
  for (;;) {
    timers.sort((a, b) => a.at - b.at);
    if (!timers.length || timers[0].at > until) break;
    const timer = timers.shift();
    now = timer.at;
    timer.fn();
    await settle();
  }
  now = until;
}
function reset(queue) { now = 0; timers = []; sources = []; requests = []; answers = queue; }

function start() {
  const seen = { events: [], views: [], stopped: [] };
  follow("https://api.test/v1", "tok", "g1", {
    onEvent: (data) => seen.events.push(data.version),
    onView: (data) => seen.views.push(data.version),
    onStop: (reason) => seen.stopped.push(reason),
  });
  return seen;
}

async function revoked() {
  reset([{ status: 401 }]);
  const seen = start();
  await settle();
  await advance(10 * 60 * 1000);
  return { ...seen, requests: requests.length, sources: sources.length };
}

async function failing() {
  reset(["network", { status: 503 }, { status: 429, retryAfter: "30" }, ...Array(12).fill({ status: 503 })]);
  const seen = start();
  await settle();
  await advance(10 * 60 * 1000);
  return { ...seen, at: requests.map((r) => r.at), sources: sources.length };
}

async function resumed() {
  reset([{ status: 201, ticket: "t1" }, { status: 503 }, { status: 201, ticket: "t2" }]);
  const seen = start();
  await settle();
  const first = sources[0];
  first.emit("message", "1", { version: 1 });
  first.emit("message", "2", { version: 2 });
  first.emit("view", "2", { version: 2 });
  first.fail();
  await advance(60 * 1000);
  const second = sources[1];
  second.emit("message", "3", { version: 3 });
  second.emit("view", "3", { version: 3 });
  second.emit("end", "", { version: 3, status: "finished" });
  second.fail(); // the server closes the stream after its end
  await advance(10 * 60 * 1000);
  return {
    ...seen, urls: sources.map((s) => s.url), closed: sources.map((s) => s.closed),
    at: requests.map((r) => r.at), methods: requests.map((r) => r.method),
    authorization: requests.map((r) => r.authorization),
  };
}

(async () => {
  console.log(JSON.stringify({ revoked: await revoked(), failing: await failing(), resumed: await resumed() }));
})();
