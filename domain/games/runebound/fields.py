"""What each field of Runebound's commands and events means, for the API's
document (``Game.field_descriptions``): "field" for that name in every message,
"Type.field" for one message's (which wins). Cards, heroes and places are named
by their printed names, as in data.json (served at /v1/rules/runebound/data)
and the view."""

from __future__ import annotations

from ...kit.names import Names

FIELD_DESCRIPTIONS: dict[str, str] = {
    # Who
    "seat": "the seat (p1, p2, ...) of the hero the event is about",
    "TurnBegan.seat": "the seat whose turn began",
    "GameStarted.seats": "every seat of the game in turn order: p1, p2, ...",
    "CombatBegan.seat": "the seat of the hero who attacks: the adventurer, or the challenger of the Elder King",
    "ActionDeclared.seat": "the challenger's seat, who declared first",
    "Struck.seat": "the seat of the hero who attacked",
    "Suffered.seat": "the seat of the hero who suffered",
    "ConfrontationBegan.seat": "the seat of the challenger who now confronts the Elder King",
    "VassalDefeated.seat": "the seat of the challenger who defeated the Vassal",
    "ElderKingCrowned.seat": "the new Elder King's seat",
    "VassalPlaced.seat": "the Elder King's seat",
    "VassalsPlaced.seat": "the Elder King's seat",
    "HeroEliminated.seat": "the seat of the hero eliminated from the game",
    "GameWon.seat": "the winner's seat: the last Elder King",
    "EndgameBegan.king": "the seat of the hero who claims the crown (the first Elder King)",
    "EndgameBegan.challengers": "the other heroes' seats still in play, in the order they will confront the Elder "
                                "King: highest level first, then most gold, then most unspent adventure counters",
    "EndgameBegan.levels": "each challenger's level, in the order of challengers",
    "EndgameBegan.random_tiebreak": "the challengers whose places among equals (same level, gold and counters) were "
                                    "decided at random; empty if none",
    "ActionDeclared.action": "attack or defend: the challenger's secret choice for this phase, shown to him (and "
                             "the referee) only.",
    "CombatBegan.opponent": "the Elder King's seat in a combat between heroes; null against a card",

    # Heroes and places
    "hero": "a hero card's name, as in the view's hero_cards (e.g. Warden Hale)",
    "ChooseHero.hero": "the hero card's name, as in the view's hero_cards (e.g. Warden Hale); one nobody has chosen",
    "GameStarted.heroes": "the hero cards dealt, in seat order; empty when the seats choose their heroes "
                          "(option choose_heroes), one HeroChosen each",
    "MoveTo.place": "the place to walk to, as in the view's board.places: at most `movement` roads away; the "
                    "hero's own place to stay",
    "Moved.place": "the place the hero now stands on, as in the view's board.places",
    "HeroKnockedOut.place": "the town the hero wakes in: the nearest to where he fell",
    "GameStarted.counters": "the wild places holding an adventure counter: at setup every wild place",
    "CountersReplenished.places": "the starburst wild places that got their adventure counter back; empty if none "
                                  "had lost it",
    "GameStarted.doom_rounds": "the stand-in doom limit in rounds (option doom_rounds); 0 for none",

    # Turns and rounds
    "round": "the game round, from 1: every hero's turn once",
    "TurnBegan.movement": "the movement die rolled for this turn (faces 1, 2, 2, 3, 3, 4): roads the hero may walk",
    "DoomFell.round": "the round of the turn that would have come next (for doom_rounds: one past the limit)",
    "DoomFell.reason": "why the game ended with no winner: doom_rounds (the doom limit passed) or "
                       "no_adventure_left (no adventure counter left that can be attempted)",

    # Decks and cards
    "deck": "a deck's name: green, yellow or red (Runebound), crown_green, crown_yellow or crown_blue (Crown of "
            "the Elder Kings)",
    "GameStarted.decks": "each deck by name (green, yellow, red, crown_green, crown_yellow, crown_blue): for the "
                         "referee its cards in draw order, top first, Lord Margath last in red; every other viewer "
                         "gets only how many cards it holds",
    "GameStarted.market": "the names of the items and allies for sale in the market, as in data.json's market",
    "CardDrawn.card": "the name of the card drawn from the top of the deck",
    "CardDiscarded.card": "the name of the Runebound green or yellow encounter or event discarded unresolved; a "
                          "Crown card is drawn in its place (or, the Crown deck empty, the Runebound deck's next)",
    "EncounterResolved.card": "the encounter card's name",
    "EventResolved.card": "the event card's name",
    "EnemyDefeated.card": "the challenge card defeated, now one of the hero's trophies",
    "CardReturned.card": "the undefeated challenge card's name",
    "CardReturned.deck": "the deck it goes back into: its own (green, yellow, red, crown_green, crown_yellow or "
                         "crown_blue)",
    "CardReturned.position": "where it goes in the deck, counted from the top (0): the bottom, or just above Lord "
                             "Margath in red",
    "ElderKingCrowned.discarded": "the Dragon Lords and Lord Margath discarded from the new Elder King's trophies",
    "Buy.card": "the name of an item or ally for sale in the view's market; it costs its `cost` in gold",
    "Bought.card": "the item or ally bought, as in data.json's market; it leaves the market",
    "UseItem.item": "the name of an item in the hero's items that heals (a `heal` above 0 in data.json's market) "
                    "and is not among his exhausted cards",
    "ItemUsed.item": "the healing item used, now exhausted until the hero's next refresh",
    "vassal": "a Vassal's card name, one of the blue Crown cards",
    "PlaceVassal.vassal": "one of your Vassals (a trophy in the view's heroes[].vassals), placed next in line",

    # Combat
    "CombatBegan.enemy": "the challenge card or Vassal fought; null in a combat between heroes",
    "RoundBegan.enemy": "the Vassal whose text took effect (exhaustion or wounds to the hero, or healing itself)",
    "CombatBegan.allies": "the attacking hero's ready allies, who fight in this combat",
    "CombatBegan.opponent_allies": "the Elder King's ready allies, who fight beside him; empty against a card",
    "phase": "a combat phase: ranged, melee or magic",
    "PhaseEnded.phase": "the phase fought next: ranged, melee or magic",
    "PhaseEnded.round": "the combat round of the phase fought next, from 1",
    "dice": "the two ten-sided dice rolled, each 1..10",
    "EncounterResolved.dice": "the two ten-sided dice rolled for the encounter's test (each 1..10); empty if it has "
                              "no test",
    "EncounterResolved.passed": "the test was passed (always true without a test): the hero wins the adventure "
                                "counter",
    "Struck.total": "the dice plus the hero's attack value in this phase",
    "Struck.needed": "what the total had to reach: the card's target in this phase, or between heroes 10 plus the "
                     "other hero's attack value",
    "Struck.hit": "the total reached what was needed",
    "Struck.damage": "wounds the hit deals; 0 on a miss, or when the other hero defended",
    "Suffered.wounds": "wounds the hero took (after an ally took its share)",
    "Suffered.exhaustion": "exhaustion the hero took (defending, or fatigue at the end of a round between "
                           "heroes); beyond his stamina it becomes wounds",
    "Suffered.ally": "the fighting ally who took the wounds first, or null",
    "Suffered.ally_wounds": "wounds the ally took; it is discarded when its wounds reach its life",
    "HeroKnockedOut.gold_lost": "gold the hero lost: half his gold, rounded down",

    # Gold, healing and experience
    "EnemyDefeated.gold": "gold won: the card's printed gold",
    "Healed.gold": "gold paid for the healing",
    "Bought.gold": "gold paid: the card's cost",
    "Healed.wounds": "wounds healed (one per Heal)",
    "ItemUsed.healed": "wounds healed: the item's heal, at most the hero's wounds",
    "kind": "an experience counter: mind, body, spirit or stamina (each +2) or life (+1)",
    "GainExperience.kind": "the experience counter to take: mind, body, spirit or stamina (each +2) or life (+1); "
                           "it costs adventure counters worth 4 experience",
    "ExperienceGained.spent": "the adventure counters spent, by colour (green 1, yellow 2, blue 3, red 4 experience), "
                              "worth at least 4",
}

# What the commands' fields name (domain.kit.names), for a client composing a
# command: a place is clicked on the map, a hero picked among the hero cards,
# a market card, an item or a Vassal (card_texts.json names and tells them
# all) picked from the market or the hero's hand. Everything is named by its
# printed name.
CARD = Names("card", "card", "card_texts.json", "cards", key="name")
FIELD_NAMES: dict[str, Names] = {
    "hero": Names("piece", "hero", "data.json", "heroes", key="name"),
    "place": Names("place", "place", "data.json", "places", key="name"),
    "card": CARD,
    "item": CARD,
    "vassal": CARD,
}
