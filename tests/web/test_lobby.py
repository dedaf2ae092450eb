"""The lobby and the end of a game in a real browser: games waiting for
players listed and joined with one click, a share link, options a player
understands, standings whose ties are said with the rule that broke them."""

from __future__ import annotations

from domain.games import REGISTRY

from .accessibility import serious_violations
from .conftest import api


def test_a_tie_is_said_with_the_rule_that_broke_it_and_a_shared_place_as_shared(person):
    # Given the standings of a game of The Coil where two nations scored alike and two share the last place
    page = person().open("/")
    page.wait_for_selector("#main h1")
    said = page.evaluate("""async () => {
        const { standingsSection } = await import("/web/standings.js");
        const names = { p1: "Ada", p2: "Bob", p3: "Cy", p4: "Dee" };
        const section = standingsSection("the-coil", [
            { seat: "p3", rank: 3, score: 4 }, { seat: "p2", rank: 1, score: 9 },
            { seat: "p1", rank: 2, score: 9 }, { seat: "p4", rank: 3, score: 4 }], (seat) => names[seat]);
        document.getElementById("main").replaceChildren(section);
        await new Promise((done) => setTimeout(done, 500));  // the ranking sentence comes from the catalogue
        return { rows: [...section.querySelectorAll("tbody tr")].map((row) => row.innerText.split("\\t")),
                 ties: section.querySelector("#standings-ties").innerText,
                 rule: section.querySelector("#standings-rule").innerText };
    }""")
    # Then they are listed in rank order, by name, and each tie is said
    assert [row[:2] for row in said["rows"]] == [["1st", "Bob"], ["2nd", "Ada"], ["3rd", "Cy"], ["3rd", "Dee"]]
    assert "Cy and Dee share the 3rd place." in said["ties"]
    assert "Bob (1st) and Ada (2nd) scored 9 alike: the tie was broken by the game's rule." in said["ties"]
    assert said["rule"].startswith("How this game ranks: ") and "initiative" in said["rule"]


def register(person, name: str, **options):
    watched = person(**options)
    page = watched.open("/")
    page.fill("#register-name", name)
    page.press("#register-name", "Enter")
    page.wait_for_selector("#create")
    return watched, page


def test_a_game_waiting_for_players_is_listed_in_the_lobby_and_a_second_person_joins_it_with_one_click(
        person, base_url):
    # Given Ada's new game of Cronberg, with no bots: it waits for a second player
    _, ada = register(person, "Ada")
    ada.select_option("#create-game", "cronberg")
    ada.uncheck("#create-bots")
    ada.click("#create button[type=submit]")
    ada.wait_for_selector("#table #share .share-link")
    game_id = ada.url.rsplit("/", 1)[-1]
    # Then her table shows the game's link, which names it, with a button that copies it
    link = ada.input_value("#share .share-link")
    assert link.endswith(f"#/games/{game_id}") and link.startswith(base_url)
    assert ada.locator("#share button.copy-link").is_visible()
    # When Bob opens the lobby
    watched, bob = register(person, "Bob")
    listed = bob.locator(f'#waiting li[data-game="{game_id}"]')
    # Then the game is listed by its title and its host's name, not by an id
    text = listed.inner_text()
    assert "Cronberg" in text and "hosted by Ada" in text and "1 of 2 seats taken" in text and game_id[:8] not in text
    # When he clicks Join, once
    listed.locator("button.join-open").click()
    # Then he sits at the table, and the game is full
    bob.wait_for_selector(f'#table[data-view*="{game_id}"]')
    assert bob.url.endswith(f"#/games/{game_id}")
    _, summary = api(base_url, "GET", f"/v1/games/{game_id}")
    assert sorted(s["name"] for s in summary["seats"]) == ["Ada", "Bob"] and summary["free_seats"] == []
    # And the game is no longer listed as waiting
    bob.goto(f"{base_url}/#/")
    bob.wait_for_selector("#waiting")
    assert not bob.locator(f'#waiting li[data-game="{game_id}"]').count()
    assert watched.console_errors == []


def test_each_option_is_explained_in_a_sentence_and_the_engines_wait_closed_under_more_options(person):
    _, page = register(person, "Chooser")
    for game in sorted(REGISTRY):
        page.select_option("#create-game", game)
        # Every option of the form comes with a sentence that ends as one
        for option in page.locator("#create .option").all():
            hint = option.locator(".hint").text_content()  # those closed under "More options" too
            assert hint[:1].isupper() and hint.rstrip().endswith((".", ")")), (game, hint)
            assert "null" not in hint, (game, hint)
        # The engine's options (clocks, missed turns...) are under "More options", closed, at their defaults
        more = page.locator("#more-options")
        assert more.get_attribute("open") is None
        engine = more.locator("[data-option]").evaluate_all("(inputs) => inputs.map((i) => i.dataset.option)")
        assert {"turn_seconds", "abandon_after", "takebacks", "absences"} <= set(engine), engine
        assert not page.locator("#more-options [data-option]").first.is_visible()
    # The game's own options stay in sight
    page.select_option("#create-game", "runebound")
    assert page.locator("#option-doom_rounds").is_visible()


def test_the_notice_never_covers_the_create_form_on_a_phone(person):
    # Given a person who just registered on a phone: the welcome notice is shown
    _, page = register(person, "Phone", viewport={"width": 390, "height": 844})
    assert page.inner_text("#notice").startswith("Welcome")
    # When the form's controls are brought into sight, one by one
    for control in page.locator("#create button[type=submit], #create select:visible, #create input:visible").all():
        control.scroll_into_view_if_needed()
        # Then the notice is not on top of any of them
        on_top = control.evaluate("""(element) => {
            const box = element.getBoundingClientRect();
            const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return found === element || element.contains(found) || (found && found.contains(element) && found.tagName === 'LABEL');
        }""")
        assert on_top, control.evaluate("(e) => e.outerHTML")


def test_axe_finds_nothing_serious_on_the_lobby_signed_out_or_in_on_a_phone_or_a_desktop(person, base_url):
    # Given a game waiting for players, so that the lobby lists one
    _, player = api(base_url, "POST", "/v1/players", {"name": "waiting-host"})
    api(base_url, "POST", "/v1/games", {"game": "the-coil", "options": {"players": 2}}, token=player["token"])
    for viewport in ({"width": 390, "height": 844}, {"width": 1280, "height": 900}):
        watched = person(viewport=viewport, bypass_csp=True)
        page = watched.open("/")
        page.wait_for_selector("#waiting li")
        assert serious_violations(page) == [], "signed out"
        page.fill("#register-name", f"axe-{viewport['width']}")
        page.press("#register-name", "Enter")
        page.wait_for_selector("#waiting button.join-open")
        page.click("#more-options summary")
        assert serious_violations(page) == [], "signed in, with more options open"
        page.click("a[href='#/settings']")
        page.wait_for_selector("#settings")
        assert serious_violations(page) == [], "the settings"
