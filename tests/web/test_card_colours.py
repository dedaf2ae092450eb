"""A card in a hand is drawn in the colour its data gives it, where the
game's Names declare where that colour is (domain.kit.names.Colour): The
Coil's cards in their nation's colour, found through data.json. The colours
expected are read from the data files through the catalogue's declaration,
as any frontend would."""

from __future__ import annotations

from tests.support.waiting import wait_until

from .conftest import api
from .test_boards import a_game_against_bots, data_files_of, open_table

# The stripe down a card's left side, in its colour (board.js's cardPicture).
STRIPES = """(cards) => Object.fromEntries(cards.map((card) =>
    [card.dataset.card, card.querySelector("svg.card rect:nth-of-type(2)").getAttribute("fill")]))"""


def declared_colour(names: dict, value, files: dict[str, dict]) -> str | None:
    """The colour the data gives the thing ``value`` names, read as the catalogue's Names declare it."""
    colour, key = names["colour"], names.get("key", "id")
    holders = files[colour.get("data", names["data"])][colour.get("list", names["list"])]
    found = next(entry for entry in holders if entry[key] == value)[colour["field"]]
    if "table" not in colour:
        return found
    row = next(row for row in files[colour.get("data", names["data"])][colour["table"]] if row["id"] == found)
    return row.get("colour", row.get("color"))


def a_dealt_hand(base_url: str, game_id: str, token: str) -> list:
    """The host's hand once he holds cards, his opening choices made through the API (the first legal one)."""
    def dealt():
        _, now = api(base_url, "GET", f"/v1/games/{game_id}/view", token=token)
        if now["view"].get("hand"):
            return now["view"]["hand"]
        if now["seat"] in now["to_act"]:
            _, legal = api(base_url, "GET", f"/v1/games/{game_id}/legal-commands", token=token)
            if legal["commands"]:
                api(base_url, "POST", f"/v1/games/{game_id}/commands", legal["commands"][0], token=token)
        return None

    return wait_until(dealt, 60, "a hand dealt to the host", every=0.3)


def test_a_coil_card_is_drawn_in_its_nations_colour(person, base_url):
    game_id, token = a_game_against_bots(base_url, "the-coil", "coil-colours")
    hand = a_dealt_hand(base_url, game_id, token)
    _, rules = api(base_url, "GET", "/v1/rules/the-coil")
    files = {name: parsed for name, (_, parsed) in data_files_of(base_url, "the-coil", game_id).items()}
    expected = {card: declared_colour(rules["hand"]["names"], card, files) for card in hand}
    assert all(expected.values()) and rules["hand"]["names"]["colour"]["table"] == "nations", expected

    watched, page = open_table(person, base_url, game_id, token)
    page.wait_for_selector("#hand [data-card]")
    assert page.eval_on_selector_all("#hand [data-card]", STRIPES) == expected
    assert watched.console_errors == []


def test_a_card_whose_declared_field_holds_its_colour_itself_is_drawn_in_it_and_one_without_in_its_kinds(person):
    page = person().open("/")
    page.wait_for_selector("#main h1")
    stripes = page.evaluate("""async () => {
        const { declaredHand } = await import("/web/data.js");
        const { drawHand } = await import("/web/board.js");
        const cards = { cards: [{ id: "ace", name: "Ace", ink: "#c0392b" }, { id: "two", name: "Two" }] };
        const data = { game: "cards", sha256: {}, about: {}, files: { "cards.json": cards } };
        const names = { kind: "card", what: "card", data: "cards.json", list: "cards", colour: { field: "ink" } };
        const view = { seat: "p1", view: { hand: ["ace", "two"] } };
        const drawn = drawHand(declaredHand({ field: "hand", names }, view, data));
        return [...drawn.querySelectorAll("[data-card] svg.card rect:nth-of-type(2)")].map((stripe) => stripe.getAttribute("fill"));
    }""")
    assert stripes[0] == "#c0392b"
    assert stripes[1].startswith("#") and stripes[1] != "#c0392b"  # no colour in its data: its kind's
