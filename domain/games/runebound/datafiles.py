"""What Runebound's data files hold, for people and frontends
(domain.kit.datafile): served beside the files at /v1/rules/runebound/data."""

from ...kit.datafile import Coordinates, Described, Extent, SCREEN

DATA_FILES = {
    "data.json": Described(
        "The map (30 places with name, kind, adventure counter colour and starburst; the roads between them "
        "as `edges`), the heroes with their statistics, the adventure decks (`decks`), Lord Margath, the market "
        "and the houses, and the numbers of the game (combat phases, movement die, experience, healing, duels).",
        Coordinates("map units on a 100 x 100 square (a 6 x 5 grid of places)", *SCREEN,
                    "top left of the map", Extent(0, 0, 100, 100), "places[].x/y"),
    ),
    "card_texts.json": Described(
        "What each card a hero holds is called and says, for people (the rules do not read this file): "
        "`cards`, every market card (item or ally, with a text made from its cost and bonuses) and every Vassal "
        "(with its rank, house and text), by name, as views and commands name them."),
}
