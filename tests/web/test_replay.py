"""The replay in a real browser: a running game steps, like a finished one,
only to versions where the game rested, so no button ever leads to an error."""

from __future__ import annotations

from tests.support.waiting import wait_until

from .accessibility import serious_violations
from .conftest import api
from .test_boards import a_game_against_bots


def resting_versions_of_the_feed(base_url: str, game_id: str, token: str) -> list[int]:
    _, feed = api(base_url, "GET", f"/v1/games/{game_id}/events?after=0&limit=1000", token=token)
    decided = {event["version"]: event["decided_at"] for event in feed["events"]}
    last = feed["version"]
    return [v for v in range(1, last + 1) if v == last or decided[v + 1] == v]


def test_first_in_the_replay_of_a_running_game_steps_to_its_first_whole_version_not_to_an_error(person, base_url):
    # Given a running game (its host, who does not move, against a bot)
    game_id, token = a_game_against_bots(base_url, "cronberg", "replay-running")
    wait_until(lambda: (game := api(base_url, "GET", f"/v1/games/{game_id}", token=token)[1])["status"] == "active"
               and set(game["to_act"]) - set(game["bots"]), 30, "the game to wait on its host")
    page = person().open(f"/#/replay/{game_id}")
    page.wait_for_selector("#replay[data-at]")
    steps = resting_versions_of_the_feed(base_url, game_id, token)
    assert steps[0] > 1, "the game's first version is in the middle of a move (created, and its host seated)"
    # When the reader goes to the first version, then one forward, then asks for version 1 itself
    page.click("#replay-first")
    page.wait_for_selector(f'#replay[data-at="{steps[0]}"]')
    assert "cannot be shown" not in page.inner_text("#replay-state")
    if len(steps) > 1:
        page.click("#replay-forward")
        page.wait_for_selector(f'#replay[data-at="{steps[1]}"]')
    page.fill("#replay-at", "1")
    page.click("#replay-jump")
    # Then each step is a version the API shows, and the page says which, never an error
    page.wait_for_selector(f'#replay[data-at="{steps[0]}"]')
    assert page.inner_text("#replay-state").startswith(f"Version {steps[0]} of ")
    assert page.get_attribute("#replay", "data-steps") == ",".join(map(str, steps))


def test_axe_finds_nothing_serious_on_the_replay_of_a_whole_game_whose_log_scrolls(person, base_url):
    # Given a whole game of bots (its host, of three, resigned at once, and a bot played his seat to the end)
    _, host = api(base_url, "POST", "/v1/players", {"name": "replay-axe"})
    token = host["token"]
    _, made = api(base_url, "POST", "/v1/games", {"game": "cronberg", "options": {
        "players": 3, "bots": {"p2": "random", "p3": "random"}}}, token=token)
    game_id = made["id"]
    assert api(base_url, "POST", f"/v1/games/{game_id}/start", {}, token=token)[0] == 200
    assert api(base_url, "POST", f"/v1/games/{game_id}/resign", {}, token=token)[0] == 200
    wait_until(lambda: api(base_url, "GET", f"/v1/games/{game_id}")[1]["status"] == "finished", 120, "the bots to finish")
    page = person(bypass_csp=True).open(f"/#/replay/{game_id}")
    page.wait_for_selector("#replay[data-at]")
    assert page.eval_on_selector("#replay-log", "(log) => log.scrollHeight > log.clientHeight"), "the log scrolls"
    # Then axe finds nothing serious, and the scrolling log is reached by the keyboard
    assert serious_violations(page) == []
    page.focus("#replay-log")
    assert page.evaluate("document.activeElement.id") == "replay-log"
