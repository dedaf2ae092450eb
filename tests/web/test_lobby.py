"""The lobby and the end of a game in a real browser: games waiting for
players listed and joined with one click, a share link, options a player
understands, standings whose ties are said with the rule that broke them."""

from __future__ import annotations


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
