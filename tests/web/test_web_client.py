"""The web client at /, in a real browser: a person plays each game against
bots through the page alone, a spectator watches it live, the finished game
is replayed; what the page holds for a seat is what the API shows that seat."""

from __future__ import annotations

import json
import random
import time
import uuid

import pytest

from domain.games import REGISTRY
from tests.support.waiting import wait_until

from .composing import Measured, compose_to_confirm, step, unexplained_errors
from .conftest import api

PlaywrightError = pytest.importorskip("playwright.sync_api", reason="playwright is in the [test] extras").Error

GAMES = sorted(REGISTRY)  # every hosted game, played through the page
# Set in the form's "more options": Runebound's doom limit bounds its game
# (unbounded, random play runs past a thousand versions); Coronation ends
# after turn 8 rather than 21 (a whole game still, a third as long).
OPTIONS = {"runebound": {"doom_rounds": "3"}, "coronation": {"last_turn": "8"}}
GAME_SECONDS = 300  # a whole game takes 5-40 s here; a stuck page fails in minutes, not ten


def register(person, name: str):
    page = person.open("/")
    page.fill("#register-name", name)
    page.press("#register-name", "Enter")  # the keyboard alone
    page.wait_for_selector("#create")
    return page


def lobby_against_bots(page, game: str, options: dict | None = None) -> str:
    """A game made in the lobby with bots in the other seats, not started: its id."""
    page.select_option("#create-game", game)
    page.check("#create-bots")
    for name, value in (options or {}).items():
        page.fill(f"#option-{name}", value)
    page.click("#create button[type=submit]")
    page.wait_for_selector("#table")
    page.wait_for_selector("#start")
    return page.url.rsplit("/", 1)[-1]


def create_against_bots(page, game: str, options: dict | None = None) -> str:
    game_id = lobby_against_bots(page, game, options)
    page.click("#start")
    try:
        page.wait_for_selector('#table[data-status="active"]', timeout=10_000)
    except PlaywrightError:
        # A click can land as the lobby redraws under it (the bots' seats arriving by the stream), and a
        # person clicks again: once more, then it must start.
        if page.locator("#start").count():
            page.click("#start")
        try:
            page.wait_for_selector('#table[data-status="active"]')
        except PlaywrightError:
            raise AssertionError("the game did not start on the page: " + page.inner_text("#table")[:2000]) from None
    return game_id


def shown(page, selector: str = "#table") -> dict:
    return json.loads(page.get_attribute(selector, "data-view"))


def same_as_the_api(base_url, page, game_id: str, token: str | None) -> None:
    """The view the page holds is the API's view for the same caller, byte for byte as JSON."""
    status, view = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)
    assert status == 200
    assert shown(page) == view


def play_until_the_standings(base_url, page, game_id: str, token: str, rng: random.Random) -> int:
    """Compose a move by random choices whenever the page offers one, until the standings appear."""
    clicks = 0
    measured, pending = Measured(), {}
    deadline = time.monotonic() + GAME_SECONDS
    missed = 0
    while not page.locator("#standings").count():
        if time.monotonic() >= deadline:
            _, now = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)
            raise AssertionError(
                f"no standings after {GAME_SECONDS} s and {clicks} commands ({missed} clicks missed): the page is at "
                f"version {page.get_attribute('#table', 'data-version')} offering "
                f"{page.locator('#composer').count()} composers, the API at "
                f"{now['version']} with {now['to_act']} to act and seat {now['seat']}; the page says: "
                + page.inner_text("#table")[:1500])
        if not page.locator("#composer").count():
            page.wait_for_timeout(40)
            continue
        if clicks % 25 == 0:  # the game waits on this seat: a still moment to compare with the API
            status, now = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)
            # One reading of the page, compared when it holds the API's version: the last move (the page's own,
            # or a bot's in a simultaneous phase) may be on its way, and the page may redraw between two readings.
            held = shown(page)
            if status == 200 and held.get("version") == now["version"]:
                assert held == now
        try:
            if not step(page, rng, measured, pending):
                page.wait_for_timeout(40)
                continue
        except PlaywrightError:  # the step was redrawn under the pointer (a newer view came): look again
            missed += 1
            continue
        clicks += 1
    return clicks


def compose_a_move(page) -> None:
    """The first choice of each step, then Confirm."""
    compose_to_confirm(page)
    page.click("#compose-confirm")


def first_drawing(page) -> dict:
    """Time to the table's first drawn board, and bytes transferred until then (performance timing)."""
    return page.evaluate("""() => {
        const drawn = performance.getEntriesByName("board-drawn")[0].startTime;
        const loaded = performance.getEntriesByType("resource").filter((r) => r.responseEnd <= drawn);
        const page = performance.getEntriesByType("navigation")[0];
        return {board_drawn_ms: Math.round(drawn), requests: loaded.length + 1,
                bytes: loaded.reduce((sum, r) => sum + r.transferSize, page.transferSize)};
    }""")


def resting_versions(base_url, game_id: str) -> list[int]:
    """The versions GET /view?at= shows: the last, and each on which the next event was decided."""
    status, audit = api(base_url, "GET", f"/v1/games/{game_id}/audit")
    assert status == 200
    decided = {entry["version"]: entry["metadata"].get("decided_at", entry["version"] - 1) for entry in audit["log"]}
    last = audit["version"]
    return [v for v in range(1, last + 1) if v == last or decided[v + 1] == v]


@pytest.mark.timeout(GAME_SECONDS + 300)
@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_a_whole_game_against_bots_through_the_page_while_a_spectator_watches(
        game, person, base_url, artifacts):
    player, spectator = person(), person()
    page = register(player, f"web-{game}")
    game_id = create_against_bots(page, game, OPTIONS.get(game))
    token = player.token()
    watching = spectator.open(f"/#/watch/{game_id}")
    watching.wait_for_selector("#table[data-loaded]")
    # The version the page first drew (data-version may already be later: the stream is quick).
    first_seen = int(watching.get_attribute("#table", "data-loaded"))
    watched_from = time.monotonic()
    (artifacts / f"timing-{game}.json").write_text(json.dumps(first_drawing(watching), indent=2))

    clicks = play_until_the_standings(base_url, page, game_id, token, random.Random(game))
    assert clicks > 0
    page.screenshot(path=str(artifacts / f"table-{game}.png"), full_page=True)
    final = shown(page)
    assert final["status"] == "finished" and final["standings"]
    same_as_the_api(base_url, page, game_id, token)

    watching.wait_for_selector("#standings")
    watching.wait_for_selector(f'#table[data-version="{final["version"]}"]')
    same_as_the_api(base_url, watching, game_id, None)
    streamed = [int(v) for v in watching.get_attribute("#table", "data-streamed").split(",") if v]
    expected = list(range(first_seen + 1, final["version"] + 1))
    assert streamed == expected, ("the spectator received every version once, in order: missing "
                                  f"{sorted(set(expected) - set(streamed))}, first seen {first_seen}, got {streamed[:5]}...{streamed[-5:]}")
    if time.monotonic() - watched_from > 8:  # streams end every 4 s here (conftest): a longer game spans several
        assert int(watching.get_attribute("#table", "data-connections")) >= 2, "the stream was followed across reconnections"
    watching.screenshot(path=str(artifacts / f"spectator-{game}.png"), full_page=True)

    replay = player.open(f"/#/replay/{game_id}")
    replay.wait_for_selector(f'#replay[data-at="{final["version"]}"]')
    assert replay.get_attribute("#audit", "data-ok") == "true", replay.inner_text("#audit")
    steps = resting_versions(base_url, game_id)
    assert replay.get_attribute("#replay", "data-steps") == ",".join(map(str, steps))
    replay.click("#replay-first")
    replay.wait_for_selector(f'#replay[data-at="{steps[0]}"]')
    for n, version in enumerate(steps[1:]):
        replay.keyboard.press("ArrowRight") if n % 2 else replay.click("#replay-forward")
        replay.wait_for_selector(f'#replay[data-at="{version}"]')
    _, at_end = api(base_url, "GET", f"/v1/games/{game_id}/view?at={final['version']}", token=token)
    assert shown(replay, "#replay") == at_end
    replay.screenshot(path=str(artifacts / f"replay-{game}.png"), full_page=True)

    if game == "cronberg":  # the end's one action: a rematch, in its lobby, with the same bots
        table = player.open(f"/#/games/{game_id}")
        table.click("#rematch")
        table.wait_for_selector("#start")
        assert game_id not in table.url

    # The bots act in The Coil's simultaneous phases as the person confirms: only his page may meet a refusal.
    assert unexplained_errors(player, game) == [] and spectator.console_errors == []
    for watched in (player, spectator):
        assert watched.foreign_requests == []


def test_a_view_that_answers_after_the_streams_newer_one_does_not_take_the_table_back(person, base_url):
    """The start button's own GET /view is answered late, with an older
    version than the stream has meanwhile brought (Coronation's bot equips
    and places its detectives at once): the table stays at the newer version.
    It once went back and waited forever on a turn that had passed."""
    player = person()
    page = register(player, "late-view")
    game_id = lobby_against_bots(page, "coronation")
    token = player.token()
    lobby = api(base_url, "GET", f"/v1/games/{game_id}", token=token)[1]["version"]
    held = []

    def late_and_old(route):
        wait_until(lambda: api(base_url, "GET", f"/v1/games/{game_id}", token=token)[1]["version"] > lobby + 2,
                   20, "the bot to move after the start")
        time.sleep(1.5)  # the stream's newer view reaches the page first
        # The first version after the lobby that GET /view?at= shows (one at rest: the next event was decided on it).
        status, old = next((status, old) for status, old in (
            api(base_url, "GET", f"/v1/games/{game_id}/view?at={at}", token=token) for at in range(lobby + 1, lobby + 20))
            if status == 200)
        held.append(old["version"])
        route.fulfill(status=status, content_type="application/json", body=json.dumps(old))

    page.route(f"**/v1/games/{game_id}/view", late_and_old)
    page.click("#start")
    deadline = time.monotonic() + 30
    while not held:  # Playwright calls route handlers only while it is called
        assert time.monotonic() < deadline, "the start's view was never asked for"
        page.wait_for_timeout(100)
    page.unroute(f"**/v1/games/{game_id}/view")
    _, now = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)
    assert now["version"] > held[0]
    page.wait_for_selector(f'#table[data-version="{now["version"]}"]', timeout=15000)
    assert player.console_errors == []


def test_the_resign_question_stays_asked_when_the_table_redraws_before_it_is_answered(person):
    """The legal commands answer after the player clicked Resign, and the
    table redraws with them: the question "Really resign?" is still there to
    be answered (it once vanished under the pointer, in CI)."""
    player = person()
    first = register(player, "asked-once")
    create_against_bots(first, "cronberg")
    # The table again in a tab of its own, whose requests alone are held: a
    # reload of the first tab let that tab's last request for the commands be
    # held, and the reloaded table's wait for ever (as in CI).
    page = player.context.new_page()
    page.on("pageerror", lambda error: player.console_errors.append(str(error)))
    page.on("console", lambda message: player.console_errors.append(message.text) if message.type == "error" else None)
    held = []
    page.route("**/legal-commands", lambda route: held.append(route))
    page.goto(first.url)
    page.wait_for_selector("#resign")
    deadline = time.monotonic() + 30
    while not held:  # Playwright calls route handlers only while it is called
        assert time.monotonic() < deadline, "the table never asked for its legal commands"
        page.wait_for_timeout(100)
    page.click("#resign")
    assert page.is_visible("#resign-yes")
    held[0].continue_()
    page.wait_for_selector("#composer")  # the table redrew with the commands
    assert page.is_visible("#resign-yes"), "the redrawing took the question away"
    assert "you are asked-once · " in page.inner_text("#status"), "a numbered seat is not shown to a person"
    page.click("#resign-yes")
    page.wait_for_selector('#table[data-status="finished"]')
    assert shown(page)["resigned"] == ["p1"]
    assert "you resigned" in page.inner_text("#status") and "spectator" not in page.inner_text("#status")
    assert player.console_errors == []


def test_a_moves_answer_that_comes_after_the_next_turns_commands_does_not_take_them_away(person, base_url):
    """The stream brings the move's view, and the table the next turn's legal
    commands, before the move's own answer: when that answer comes the
    commands stay (it once cleared them, and the table offered nothing on a
    turn that waited on the player for ever)."""
    player = person()
    page = register(player, "late-answer")
    create_against_bots(page, "the-coil")
    page.wait_for_selector("#composer")
    moved_from = int(page.get_attribute("#table", "data-version"))
    held = []
    page.route("**/commands", lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    compose_a_move(page)
    deadline = time.monotonic() + 30
    while not held:  # Playwright calls route handlers only while it is called
        assert time.monotonic() < deadline, "the move was never sent"
        page.wait_for_timeout(100)
    answer = held[0].fetch()  # the server takes the move; the page does not hear of it yet
    assert answer.status == 200, answer.text()
    game_id, token = page.url.rsplit("/", 1)[-1], player.token()

    def the_page_offers_the_turn_that_waits_on_the_player():
        _, now = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)
        return (now["version"] > moved_from and now["to_act"] == ["p1"]
                and page.get_attribute("#table", "data-version") == str(now["version"])
                and page.locator("#composer").count() > 0)

    wait_until(the_page_offers_the_turn_that_waits_on_the_player, 30, "the next turn's commands on the page")
    held[0].fulfill(response=answer)
    page.wait_for_selector("#composer:not(:has(#compose-confirm[disabled]))", timeout=10000)
    assert player.console_errors == []


def test_a_game_that_does_not_exist_gets_a_page_that_says_so(person):
    page = person().open(f"/#/games/{uuid.uuid4()}")
    page.wait_for_selector("#missing")
    assert "no game with this id" in page.inner_text("#missing")
    page.goto(page.url.replace("/#/games/", "/#/replay/"))
    page.wait_for_selector("#missing")


def test_a_private_game_is_to_anyone_outside_it_the_page_an_unknown_game_is(person, base_url):
    """The API answers a stranger's request for a private game exactly as for
    a game that does not exist (a 404), so the page cannot and does not tell
    them apart: it names both."""
    _, host = api(base_url, "POST", "/v1/players", {"name": "private-host"})
    status, made = api(base_url, "POST", "/v1/games", {"game": "cronberg", "options": {"visibility": "private"}},
                       token=host["token"])
    assert status == 201
    outsider = person()
    register(outsider, "outsider")
    page = outsider.open(f"/#/games/{made['id']}")
    page.wait_for_selector("#missing")
    assert "or it is private and you do not sit in it" in page.inner_text("#missing")


def test_a_token_revoked_while_the_table_is_open_asks_to_sign_in_again_and_stops_reconnecting(person, base_url):
    player = person()
    page = register(player, "revoked")
    game_id = create_against_bots(page, "cronberg")
    page.wait_for_selector("#composer")
    token = player.token()
    status, _ = api(base_url, "POST", "/v1/players/me/tokens/revoke-all", {}, token=token)
    assert status in (200, 201)
    # Nothing clicked: the stream ends (after a few seconds here), and its new ticket is refused.
    page.wait_for_selector("#signed-out", timeout=20000)
    assert "sign in again" in page.inner_text("#signed-out")
    assert player.token() is None
    asked = len(player.requests)
    page.wait_for_timeout(3000)
    later = [url for url in player.requests[asked:] if "/stream" in url]
    assert later == [], f"the page went on reconnecting: {later}"
    assert game_id


def test_the_page_is_served_under_a_strict_content_security_policy_with_no_inline_script(base_url):
    import urllib.request

    with urllib.request.urlopen(base_url + "/", timeout=10) as response:
        policy = response.headers["Content-Security-Policy"]
        html = response.read().decode()
    assert "default-src 'self'" in policy and "script-src 'self'" in policy and "unsafe" not in policy
    assert "<script" in html and all('src="/web/' in tag for tag in html.split("<script")[1:])
    assert api(base_url, "GET", "/web/nothing.js")[0] == 404
    assert api(base_url, "GET", "/web/..%2Fresources%2Fweb.py")[0] == 404
    assert api(base_url, "GET", "/web/__init__.py")[0] == 404


def test_the_lobby_is_readable_at_phone_width(person, artifacts):
    phone = person(viewport={"width": 375, "height": 740})
    page = register(phone, "phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=str(artifacts / "lobby-phone.png"), full_page=True)


def keyboard_to(page, selector: str) -> str:
    """Focus the first element `selector` names and press Enter: what it chose (its data-value or data-place)."""
    element = page.locator(selector).first
    element.wait_for()
    chosen = element.get_attribute("data-value") or element.get_attribute("data-place") or ""
    element.focus()
    page.keyboard.press("Enter")
    return chosen


def test_a_move_is_composed_on_the_board_with_the_keyboard_alone(person, base_url):
    """Cronberg's "place a member": the kind of action by a button, the
    crossing on the board (highlighted, Tab-reachable), Confirm: Enter each time."""
    player = person()
    page = register(player, "keys")
    game_id = create_against_bots(page, "cronberg")
    page.wait_for_selector("#composer")  # p1's turn (the bot may have begun the round)
    before = int(page.get_attribute("#table", "data-version"))
    keyboard_to(page, '#choices button[data-value="PlaceMember"]')
    crossing = keyboard_to(page, "#board .candidate[data-place^='crossing:']").split(":", 1)[1]
    keyboard_to(page, "#compose-confirm")
    # (Polled from here: the page's CSP rightly refuses the eval that wait_for_function's polling needs.)
    wait_until(lambda: int(page.get_attribute("#table", "data-version")) > before, 30, "the move to be made")
    _, feed = api(base_url, "GET", f"/v1/games/{game_id}/events?after={before}", token=player.token())
    placed = feed["events"][0]
    assert placed["seat"] == "p1" and placed["data"]["crossing"] == crossing, placed


def test_a_slow_answer_about_the_game_starting_does_not_take_the_move_being_composed(person):
    """The stream's view of the start asks for the game's summary (its seats
    changed); the start's own answer draws the table meanwhile, and the
    player begins his move. That summary coming late once reset the
    composer: the crossings vanished under his keyboard (CI met it)."""
    player = person()
    page = register(player, "slow-summary")
    game_id = lobby_against_bots(page, "cronberg")
    starts, summaries = [], []
    page.route(f"**/v1/games/{game_id}/start", lambda route: starts.append(route))
    page.route(f"**/v1/games/{game_id}", lambda route: summaries.append(route))
    page.click("#start")
    wait_until(lambda: page.wait_for_timeout(50) or starts, 15, "the start to be asked")
    started = starts[0].fetch()  # the game starts; the page has not heard the answer
    wait_until(lambda: page.wait_for_timeout(50) or summaries, 15, "the stream's view of the start to ask for the summary")
    late = summaries.pop(0)
    page.unroute(f"**/v1/games/{game_id}")
    for route in summaries:
        route.continue_()
    starts[0].fulfill(response=started)
    page.wait_for_selector("#composer")
    page.click('#choices button[data-value="PlaceMember"]')
    page.wait_for_selector("#board .candidate")
    late.continue_()
    page.wait_for_timeout(1000)  # its answer, and any redrawing it brings
    assert page.get_attribute("#composer", "data-where") == "board", page.inner_text("#commands-area")
    assert page.locator("#board .candidate[data-place^='crossing:']").count()
    assert player.console_errors == []


def test_a_place_that_leads_to_no_legal_move_says_why_and_changes_nothing(person):
    player = person()
    page = register(player, "misclick")
    create_against_bots(page, "cronberg")
    page.click('#choices button[data-value="PlaceMember"]')
    page.wait_for_selector("#board .candidate")
    before = page.get_attribute("#table", "data-version")
    # A crossing no move can take, or else (on an empty board every crossing is open) a triangle.
    elsewhere = page.locator("#board [data-place^='crossing:']:not(.candidate)")
    if not elsewhere.count():
        elsewhere = page.locator("#board [data-place^='triangle:']:not(.candidate)")
    elsewhere.first.dispatch_event("click")
    why = page.inner_text("#compose-why")
    assert "cannot be chosen now" in why and "crossing" in why
    assert page.get_attribute("#composer", "data-where") == "board" and page.locator("#board .candidate").count()
    assert page.get_attribute("#table", "data-version") == before


@pytest.mark.parametrize("focused, named_by", [
    ("#board .candidate", "data-place"),  # a choice on the board
    ("#choices button", "data-value"),  # a choice among the step's buttons
    ("#resign", "id"),
])
def test_the_element_the_keyboard_is_on_keeps_its_focus_when_the_table_redraws(person, base_url, focused, named_by):
    """The stream's view of the version the table holds, and the legal
    commands asked for after it, each redraw the table while the player's
    keyboard is on a board choice, a step's button or the resign button: the
    focus stays there, the move composed so far too, and Enter does what it
    says. The redrawings once dropped the focus (and the view cleared the
    choices until its commands came), so an Enter pressed between them did
    nothing (CI met it: the keyboard's move never came)."""
    player = person()
    page = register(player, "keys-kept")
    game_id = create_against_bots(page, "cronberg")
    page.locator("#composer").wait_for()
    held = []
    page.route("**/stream?*", lambda route: held.append(route))
    page.reload()
    page.locator("#composer").wait_for()
    if named_by == "data-place":
        page.click('#choices button[data-value="PlaceMember"]')
    element = page.locator(focused).first
    element.wait_for()
    deadline = time.monotonic() + 30
    while not held:  # Playwright calls route handlers only while it is called
        assert time.monotonic() < deadline, "the table never opened its stream"
        page.wait_for_timeout(100)
    name = element.get_attribute(named_by)
    before = int(page.get_attribute("#table", "data-version"))
    element.focus()
    _, view = api(base_url, "GET", f"/v1/games/{game_id}/view", token=player.token())
    assert view["version"] == before
    asked = sum("/legal-commands" in url for url in player.requests)
    held[0].fulfill(status=200, content_type="text/event-stream",
                    body=f"event: view\nid: {before}\ndata: {json.dumps(view)}\n\n")
    page.unroute("**/stream?*")  # the page's reconnection goes to the server
    # (Requests are noted while Playwright is called: the predicate calls it.)
    wait_until(lambda: page.wait_for_timeout(50) or sum("/legal-commands" in url for url in player.requests) > asked,
               15, "the view's legal commands")
    page.wait_for_timeout(300)  # their answer redraws the table once more
    assert page.locator(":focus").get_attribute(named_by, timeout=5000) == name, "a redrawing took the focus away"
    page.keyboard.press("Enter")
    if named_by == "id":
        page.wait_for_selector("#resign-yes", state="visible", timeout=5000)
    elif named_by == "data-value":
        page.wait_for_selector('#composer:not([data-step="type"])', timeout=5000)  # the step was taken
    else:
        keyboard_to(page, "#compose-confirm")
        wait_until(lambda: int(page.get_attribute("#table", "data-version")) > before, 30, "the move to be made")
        _, feed = api(base_url, "GET", f"/v1/games/{game_id}/events?after={before}", token=player.token())
        assert feed["events"][0]["seat"] == "p1"
        assert feed["events"][0]["data"]["crossing"] == name.split(":", 1)[1]
    assert player.console_errors == []


def test_a_private_game_is_joined_through_the_lobby_with_the_hosts_invite_code(person):
    host, guest = person(), person()
    page = register(host, "inviting")
    page.select_option("#create-game", "cronberg")
    page.uncheck("#create-bots")
    page.check("#create-private")
    page.click("#create button[type=submit]")
    page.click("#invite")
    code = page.inner_text("#invite-code").split("Invite code: ")[1].split(" ")[0]
    game_id = page.url.rsplit("/", 1)[-1]

    joining = register(guest, "invited")
    joining.fill("#join-id", game_id)
    joining.fill("#join-code", code)
    joining.click("#join button[type=submit]")
    joining.wait_for_selector("#table[data-status=lobby]")
    assert "invited" in joining.inner_text("#actions")
    page.reload()
    page.click("#start")
    page.wait_for_selector('#table[data-status="active"]')
    for watched in (host, guest):
        assert watched.console_errors == []


def test_a_game_with_a_time_bank_is_first_in_the_inbox_shows_its_banks_and_ends_when_its_player_resigns(person):
    player = person()
    page = register(player, "banked")
    page.click("#more-options summary")  # the clocks are among the engine's options, closed at first
    page.fill("#create-bank", "3600")
    game_id = create_against_bots(page, "cronberg")
    try:
        page.wait_for_selector("#composer", timeout=10000)
    except PlaywrightError:
        raise AssertionError(page.inner_text("#status") + page.inner_text("#stream-state") + page.inner_text("#notice")
                             + str(player.console_errors) + str([u for u in player.requests if "/v1/" in u])) from None
    assert "bank 1 h" in page.inner_text("#clocks")

    page.click("a[href='#/']")
    page.wait_for_selector("#inbox")
    first = page.locator("#inbox tbody tr").first
    assert first.get_attribute("data-game") == game_id and "your turn" in first.inner_text()

    first.locator("a").click()
    page.wait_for_selector("#resign")
    page.click("#resign")
    page.click("#resign-yes")
    page.wait_for_selector("#standings")
    view = shown(page)
    assert view["resigned"] == ["p1"] and view["status"] == "finished"
    assert player.console_errors == []
