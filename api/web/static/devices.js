// @ts-check
// "Notifications on this device" on the settings page: Web Push. The browser
// asks for permission only when the player clicks (never on load); the page
// then registers the service worker (/sw.js, which shows what is pushed),
// subscribes with the server's VAPID key and gives the subscription to the
// server. Each device that receives notifications is listed, with Remove.
// GET /v1/push/application-server-key, /v1/players/me/push-subscriptions.
import { api, get, Problem } from "./api.js";
import { h, when } from "./dom.js";

/** @typedef {import("./openapi").components["schemas"]} Schemas */
/** @typedef {Schemas["PushSubscription"]} Device */

/** @param {string} text @returns {Uint8Array} */
function fromBase64url(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

/** @param {ArrayBuffer | null | undefined} buffer @param {Uint8Array} bytes @returns {boolean} */
function same(buffer, bytes) {
  if (!buffer || buffer.byteLength !== bytes.length) return false;
  const mine = new Uint8Array(buffer);
  return mine.every((byte, i) => byte === bytes[i]);
}

/** @returns {boolean} */
function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** @returns {Promise<PushSubscription | null>} this browser's subscription, if it has one */
async function current() {
  if (!supported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

/** @param {string} key @returns {Promise<PushSubscription>} */
async function subscribed(key) {
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const wanted = fromBase64url(key);
  const held = await registration.pushManager.getSubscription();
  // One made under another server key cannot carry this server's pushes.
  if (held && same(held.options.applicationServerKey, wanted)) return held;
  if (held) await held.unsubscribe();
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

/** @param {() => void} signedOut @returns {Promise<HTMLElement>} the section */
export async function devicesSection(signedOut) {
  const said = h("p", { id: "push-said", role: "status" });
  const error = h("p", { class: "error", role: "alert", id: "push-error" });
  const list = h("ul", { id: "push-devices" });
  const label = h("input", { type: "text", id: "push-label", maxlength: 80, value: "this browser" });
  const messages = h("input", { type: "checkbox", id: "push-messages" });

  /** @param {unknown} problem */
  function failed(problem) {
    if (problem instanceof Problem && problem.status === 401) { signedOut(); location.hash = "#/"; return; }
    error.textContent = /** @type {Error} */ (problem).message;
  }

  async function refresh() {
    const devices = (await get("/players/me/push-subscriptions")).subscriptions;
    const here = await current().catch(() => null);
    list.replaceChildren(...devices.map((device) => row(device, !!here && here.endpoint === device.endpoint)));
    if (!devices.length) list.replaceChildren(h("li", { class: "muted" }, "No device receives notifications."));
  }

  /** @param {Device} device @param {boolean} here @returns {HTMLElement} */
  function row(device, here) {
    const remove = h("button", {
      type: "button", onclick: async () => {
        error.textContent = "";
        try {
          await api("DELETE", `/players/me/push-subscriptions/${encodeURIComponent(device.id)}`);
          if (here) await (await current())?.unsubscribe();
          await refresh();
          said.textContent = `${device.label} receives no more notifications.`;
        } catch (problem) { failed(problem); }
      },
    }, "Remove");
    const what = device.messages ? "your turn, reminders, game over and new messages" : "your turn, reminders and game over";
    return h("li", {}, h("b", {}, device.label), here ? " (this device)" : "", ` — ${what}, since ${when(device.created_at)} `, remove);
  }

  const turnOn = h("button", {
    type: "button", id: "push-on", onclick: async () => {
      error.textContent = "";
      said.textContent = "";
      if (!supported()) { error.textContent = "This browser cannot show notifications from a web page."; return; }
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        error.textContent = "Notifications are blocked for this site: allow them in the browser's site settings, then try again.";
        return;
      }
      try {
        const key = (await get("/push/application-server-key")).public_key;
        const subscription = await subscribed(key);
        const keys = subscription.toJSON().keys || {};
        const added = await api("POST", "/players/me/push-subscriptions", { body: {
          endpoint: subscription.endpoint, keys: { p256dh: keys.p256dh || "", auth: keys.auth || "" },
          label: label.value.trim() || "this browser", messages: messages.checked,
        } });
        // The service worker keeps it, to move this device if the browser replaces its subscription (sw.js).
        (await navigator.serviceWorker.ready).active?.postMessage({ keep: "renewal", key: added.renewal_key });
        await refresh();
        said.textContent = "Notifications are on for this device.";
      } catch (problem) { failed(problem); }
    },
  }, "Turn on notifications on this device");

  const section = h("section", { "aria-labelledby": "push-title", id: "push" },
    h("h2", { id: "push-title" }, "Notifications on this device"),
    h("p", { class: "hint" }, "Your turn, time running out and game over, shown by this browser even when boardlog is not open. The browser asks you first."),
    h("div", { class: "option" }, h("label", { for: "push-label" }, "Name of this device"), label),
    h("div", { class: "option" }, h("label", { for: "push-messages" }, messages, " Also new messages at my tables")),
    h("p", {}, turnOn), said, error,
    h("h3", {}, "Devices that receive notifications"), list);
  try { await refresh(); } catch (problem) { failed(problem); }
  return section;
}

/** The service worker asks a tab, before it shows a push, whether the tab shows that page in sight
 * (sw.js): a player looking at the table is not notified of what it shows him already. */
export function answerTheWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (event) => {
    const asked = event.data;
    if (!asked || asked.ask !== "showing" || !event.ports[0]) return;
    event.ports[0].postMessage(document.visibilityState === "visible" && location.href === asked.url);
  });
  navigator.serviceWorker.startMessages();
}
