// @ts-check
// The web client's service worker, for Web Push only: it shows what the
// server pushed (a title, a sentence, the table's link: nothing of the game)
// and, on a click, focuses the table if a tab shows it, or opens it. Served
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

worker.addEventListener("push", (/** @type {any} */ event) => {
  const shown = shownOf(event.data);
  event.waitUntil(worker.registration.showNotification(shown.title, {
    body: shown.body, tag: shown.tag, icon: "/web/favicon.svg", data: { url: onThisOrigin(shown.url) },
  }));
});

/** @param {string} url @returns {Promise<unknown>} */
async function openTable(url) {
  const tabs = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
  const showing = tabs.find((/** @type {any} */ tab) => tab.url === url);
  if (showing) return showing.focus();
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
