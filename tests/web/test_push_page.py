"""Notifications on this device, in Chromium against ``boardlog serve`` whose
notifier pushes to a push service of the test's own (tests/notify/pushservice.py).

What is real here: the click that asks permission, the service worker the
page registers at /sw.js (scope /), the subscription the page POSTs and
lists and removes, the push the server encrypts and signs for it, the
worker's ``push`` handler showing it (not while the tab shows that table),
its ``notificationclick`` handler bringing the tab to the table, and its
``pushsubscriptionchange`` handler moving the device with the renewal key
the page gave it.

What is not: headless Chromium cannot subscribe (its PushManager needs
Google's push service; here ``subscribe`` fails with "AbortError:
Registration failed - permission denied" even with the permission granted),
so ``PushManager.subscribe`` is a stand-in
in the page that answers a subscription whose endpoint is the test's push
service and whose keys the test made (and it checks that the page passed
the server's VAPID key). The push reaches the worker through DevTools
(ServiceWorker.deliverPushMessage) with the payload the test's push service
decrypted; the click is a NotificationEvent dispatched inside the
worker on the notification it showed, as no headless notification can be
clicked; and the browser's replacing of a subscription is a
``pushsubscriptionchange`` event dispatched inside the worker, carrying the
new subscription (Chromium never fires it itself; Firefox does)."""

from __future__ import annotations

import json
import os

import pytest

from tests.notify.pushservice import Browser, PushService
from tests.support.waiting import wait_until

from .conftest import _served, api

STAND_IN = """
(() => {
  const given = %s;
  let held = null;
  const subscription = {
    endpoint: given.endpoint, expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: null },
    toJSON() { return { endpoint: given.endpoint, expirationTime: null, keys: given.keys }; },
    async unsubscribe() { held = null; return true; },
  };
  PushManager.prototype.subscribe = async function (options) {
    window.__subscribedWith = options.applicationServerKey;
    held = subscription;
    return subscription;
  };
  PushManager.prototype.getSubscription = async function () { return held; };
})();
"""


@pytest.fixture(scope="module")
def push_service():
    service = PushService()
    yield service
    service.close()


@pytest.fixture(scope="module")
def base_url(database_url, redis_url, tmp_path_factory):
    """``boardlog serve`` (its worker runs the notifier) allowed to push to loopback."""
    from eventstore.servers import temporary_database

    saved = {name: os.environ.get(name) for name in ("BOARDLOG_WEBHOOK_ALLOW_PRIVATE", "BOARDLOG_NOTIFY_BACKOFF")}
    os.environ.update({"BOARDLOG_WEBHOOK_ALLOW_PRIVATE": "1", "BOARDLOG_NOTIFY_BACKOFF": "0.2,0.5,1"})
    try:
        with temporary_database(database_url, prefix="boardlog_web") as own_database:
            yield from _served(own_database, redis_url, tmp_path_factory)
    finally:
        for name, value in saved.items():
            os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)


def started_against_a_bot(base_url: str, token: str) -> str:
    status, made = api(base_url, "POST", "/v1/games", {"game": "cronberg", "options": {"bots": {"p2": "random"}}},
                       token=token)
    assert status == 201, made
    assert api(base_url, "POST", f"/v1/games/{made['id']}/start", {}, token=token)[0] == 200
    return made["id"]


def test_the_settings_page_turns_notifications_on_and_a_push_opens_the_table(person, base_url, push_service):
    # Given a player signed in on the page
    token = api(base_url, "POST", "/v1/players", {"name": "pushed"})[1]["token"]
    device = Browser(push_service.endpoint("pushed"))
    watched = person(permissions=["notifications"])
    watched.context.add_init_script(STAND_IN % json.dumps(device.subscription()))
    page = watched.open("/")
    page.evaluate("([token]) => localStorage.setItem('boardlog.token', token)", [token])
    # When he opens his settings
    page.goto(f"{base_url}/#/settings")
    page.wait_for_selector("#push-devices")
    # Then nothing was asked of the browser yet, and no device is listed
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then((r) => r.length)") == 0
    assert "No device receives notifications" in page.inner_text("#push-devices")

    # When he names the device and clicks the button
    page.fill("#push-label", "my laptop")
    page.click("#push-on")
    page.wait_for_selector("#push-said:has-text('Notifications are on for this device')")
    # Then the service worker covers the whole client, subscribed with the server's key, and the device is listed
    assert page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.scope)") == f"{base_url}/"
    server_key = api(base_url, "GET", "/v1/push/application-server-key")[1]["public_key"]
    assert page.evaluate("window.__subscribedWith") == server_key
    stored = api(base_url, "GET", "/v1/players/me/push-subscriptions", token=token)[1]
    assert [(s["label"], s["endpoint"]) for s in stored["subscriptions"]] == [("my laptop", device.endpoint)]
    assert "my laptop (this device)" in page.inner_text("#push-devices")

    # When he starts a game against a bot, and it waits on him (at once, or after the bot's move)
    game_id = started_against_a_bot(base_url, token)
    # Then the server pushes it, for this device
    push = wait_until(lambda: push_service.pushes("/push/pushed"), 60, "the turn's push")[0]
    shown = json.loads(device.decrypt(push["body"]))
    assert shown["url"] == f"/#/games/{game_id}" and shown["title"] == "Your turn in Cronberg"
    # And it reaches the service worker
    cdp = watched.context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")

    def registered():
        page.wait_for_timeout(50)  # DevTools' events arrive while Playwright runs
        return [r for r in registrations if r["scopeURL"] == f"{base_url}/" and not r["isDeleted"]]

    registration = wait_until(registered, 10, "the worker's registration in DevTools")[0]
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": base_url, "registrationId": registration["registrationId"],
                                                  "data": json.dumps(shown)})
    worker = wait_until(lambda: watched.context.service_workers, 10, "the service worker")[0]
    # Then it shows the notification with the pushed sentence and the table's link
    notes = wait_until(lambda: worker.evaluate(
        "self.registration.getNotifications().then((n) => n.map((x) => [x.title, x.body, x.data.url]))"),
        10, "the notification")
    assert notes == [[shown["title"], shown["body"], f"{base_url}/#/games/{game_id}"]]

    # When a push for the same table comes while he is looking at it
    page.goto(f"{base_url}/#/games/{game_id}")
    page.wait_for_selector("#board")
    worker.evaluate("self.registration.getNotifications().then((n) => n.forEach((x) => x.close()))")
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": base_url, "registrationId": registration["registrationId"],
                                                  "data": json.dumps({**shown, "tag": "again"})})
    page.wait_for_timeout(1000)
    # Then nothing is shown: the table says it already
    assert worker.evaluate("self.registration.getNotifications().then((n) => n.length)") == 0
    # And a push for that table while he looks at his settings is shown again
    page.goto(f"{base_url}/#/settings")
    page.wait_for_selector("#push-devices")
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": base_url, "registrationId": registration["registrationId"],
                                                  "data": json.dumps(shown)})
    wait_until(lambda: worker.evaluate("self.registration.getNotifications().then((n) => n.length)"), 10,
               "the notification shown again")

    # When the notification is clicked
    worker.evaluate("""self.registration.getNotifications().then(([note]) => {
        try { self.dispatchEvent(new NotificationEvent("notificationclick", { notification: note })); }
        catch (error) { /* waitUntil refuses an event not made by the browser; the handler ran */ } })""")
    # Then his tab shows the table
    page.wait_for_url(f"{base_url}/#/games/{game_id}", timeout=15000)
    page.wait_for_selector("#board")

    # When the browser replaces the subscription on its own, with no page or token at hand
    added_key = wait_until(lambda: worker.evaluate("kept('readonly', (store) => store.get(KEPT.renewal))"), 10,
                           "the renewal key kept by the service worker")
    replaced = Browser(push_service.endpoint("pushed-replaced"))
    worker.evaluate("""(given) => {
        const event = new ExtendableEvent("pushsubscriptionchange");
        Object.defineProperty(event, "newSubscription", { value: { toJSON: () => given } });
        try { self.dispatchEvent(event); } catch (error) { /* waitUntil refuses an event not made by the browser */ }
    }""", replaced.subscription())
    # Then the worker moves the device there with its renewal key, and the server pushes there from now on
    wait_until(lambda: [s["endpoint"] for s in api(base_url, "GET", "/v1/players/me/push-subscriptions",
                                                    token=token)[1]["subscriptions"]] == [replaced.endpoint],
               15, "the device moved to the browser's new subscription")
    assert isinstance(added_key, str) and added_key

    # When he removes the device on the settings page
    page.goto(f"{base_url}/#/settings")
    page.wait_for_selector("#push-devices li button")
    page.click("#push-devices li button:has-text('Remove')")
    page.wait_for_selector("#push-said:has-text('my laptop receives no more notifications')")
    # Then the server holds no subscription for him
    assert api(base_url, "GET", "/v1/players/me/push-subscriptions", token=token)[1]["subscriptions"] == []
    assert watched.foreign_requests == [] and watched.console_errors == []
