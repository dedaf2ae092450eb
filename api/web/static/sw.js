// @ts-check
// The web client's service worker, for Web Push only: it shows what the
// server pushed (a title, a sentence, the table's link: nothing of the game),
// unless a tab in sight shows that table already; on a click, it focuses the table if a tab shows it, or opens it. Served
// at /sw.js so that its scope is the whole client (api/http/resources/web.py).
// It caches nothing: the page always comes from the server.

/** @typedef {{ title: string, body: string, url: string, tag?: string }} Shown */

const worker = /** @type {any} */ (self);

/** @param {unknown} url @returns {string} the link, on this origin only */
function onThisOrigin(url) {
  const link = new URL(typeof url === "string" ? url : "/", worker.location.origin);
  return link.origin === worker.location.origin ? link.href : worker.location.origin + "/";
}

/** @param {any} data @returns {Shown} */
function shownOf(data) {
  try {
    const shown = data.json();
    if (shown && typeof shown.title === "string" && typeof shown.body === "string") return shown;
  } catch (error) { /* not the JSON boardlog pushes: said plainly below */ }
  return { title: "boardlog", body: "One of your games needs you.", url: "/" };
}

worker.addEventListener("activate", (/** @type {any} */ event) => {
  // The tab that turned notifications on is controlled at once, so a click can bring it to the table.
  event.waitUntil(worker.clients.claim());
});

/** @param {any} tab @param {string} url @returns {Promise<boolean>} whether the tab shows that page in sight */
function shows(tab, url) {
  // A tab's url here is the address it was opened at, without its #/route: the tab itself is asked
  // (devices.js answers), and a tab that does not answer in half a second counts as not showing it.
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(false), 500);
    channel.port1.onmessage = (event) => { clearTimeout(timer); resolve(event.data === true); };
    tab.postMessage({ ask: "showing", url }, [channel.port2]);
  });
}

/** @param {string} url @param {boolean} [hidden] @returns {Promise<any>} a tab that shows that page (in sight, unless hidden) */
async function showing(url, hidden = false) {
  const tabs = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
  const answers = await Promise.all(tabs.map((/** @type {any} */ tab) =>
    (hidden || tab.visibilityState === "visible") ? shows(tab, url) : Promise.resolve(false)));
  return tabs.find((/** @type {any} */ _tab, /** @type {number} */ i) => answers[i]) || null;
}

/** @param {Shown} shown @returns {Promise<unknown>} */
async function show(shown) {
  const url = onThisOrigin(shown.url);
  // A player looking at the table sees his turn there: a notification would only say it twice. (A browser
  // asks a worker to show something for each push only while no page of its origin is in sight.)
  if (await showing(url)) return undefined;
  return worker.registration.showNotification(shown.title, {
    body: shown.body, tag: shown.tag, icon: "/web/favicon.svg", data: { url },
  });
}

worker.addEventListener("push", (/** @type {any} */ event) => {
  event.waitUntil(show(shownOf(event.data)));
});

/** @param {string} url @returns {Promise<unknown>} */
async function openTable(url) {
  const there = await showing(url, true);
  if (there) return there.focus();
  const tabs = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
  const ours = tabs.find((/** @type {any} */ tab) => new URL(tab.url).origin === worker.location.origin && tab.navigate);
  if (ours) {
    const moved = await ours.navigate(url).catch(() => null);
    if (moved) return moved.focus();
  }
  return worker.clients.openWindow(url);
}

worker.addEventListener("notificationclick", (/** @type {any} */ event) => {
  event.notification.close();
  event.waitUntil(openTable(onThisOrigin(event.notification.data && event.notification.data.url)));
});

// The device's renewal key (given when the settings page added it), kept in IndexedDB: when the browser
// replaces the subscription on its own, no page and no token is at hand, and the key moves the device.
const KEPT = { database: "boardlog-push", store: "kept", renewal: "renewal-key" };

/** @param {"readonly" | "readwrite"} mode @param {(store: IDBObjectStore) => IDBRequest} use @returns {Promise<any>} */
function kept(mode, use) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(KEPT.database, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(KEPT.store);
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const done = opening.result.transaction(KEPT.store, mode);
      const asked = use(done.objectStore(KEPT.store));
      done.oncomplete = () => { opening.result.close(); resolve(asked.result); };
      done.onerror = () => reject(done.error);
    };
  });
}

worker.addEventListener("message", (/** @type {any} */ event) => {
  const said = event.data;
  if (said && said.keep === "renewal" && typeof said.key === "string") {
    event.waitUntil(kept("readwrite", (store) => store.put(said.key, KEPT.renewal)));
  }
});

/** @param {any} event @returns {Promise<unknown>} */
async function renew(event) {
  const key = await kept("readonly", (store) => store.get(KEPT.renewal));
  if (typeof key !== "string") return undefined; // added before renewal keys: the settings page adds it again
  let subscription = event.newSubscription;
  if (!subscription) {
    const answer = await fetch("/v1/push/application-server-key");
    const serverKey = (await answer.json()).public_key;
    subscription = await worker.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
  }
  const given = subscription.toJSON();
  return fetch("/v1/push/renewals", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ renewal_key: key, endpoint: given.endpoint, keys: given.keys }),
  });
}

worker.addEventListener("pushsubscriptionchange", (/** @type {any} */ event) => {
  event.waitUntil(renew(event));
});
