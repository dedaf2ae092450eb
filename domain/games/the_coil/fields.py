"""What each field of The Coil's commands and events means, for the API's
document (``Game.field_descriptions``): "field" for that name in every
message, "Type.field" for one message's own (which wins)."""

from __future__ import annotations

from ...kit.names import Colour, Names
from .data import NATION_IDS, STRATEGIES

SEAT = "p1, p2, ... in seat order (clockwise)"
NATION = f"a nation's id, as in data.json and the view's `seats[].nation`: {', '.join(NATION_IDS)}"
HOMELAND_CARD = "a homeland card's id, <nation>-<two digits> as in data.json, e.g. celestos-03"
REGION = f"{HOMELAND_CARD}, of a region in the Coil (the view's `coil[].card.id`)"
STRATEGY = f"a strategy card's id, as in data.json: {', '.join(STRATEGIES)}"
DIE = "a die's value, 1-6"

FIELD_DESCRIPTIONS = {
    # Who: seats and nations.
    "GameStarted.seats": f"every seat: {SEAT}",
    "GameStarted.nations": (f"the nations dealt at random (option nations=random), one per seat in seat order; "
                            f"empty when the seats choose them (ChooseNation). Each {NATION}"),
    "GameStarted.neutral": ("the neutral third nation: null here (with two players it is drawn once the nations "
                            "are known, NeutralNationDrawn)"),
    "ChooseNation.nation": (f"the nation card to take, one nobody has chosen (the view's "
                            f"`nation_choice.available`): {NATION}"),
    "NationChosen.seat": "the seat that chose",
    "NationChosen.nation": f"the nation it took: {NATION}",
    "NeutralNationDrawn.nation": f"the neutral third nation, seated after p2: {NATION}",
    "DeckShuffled.nation": f"whose homeland deck: {NATION}",
    "CardsDrawn.seat": "the seat whose hand the cards went to",
    "CardsDrawn.nation": f"the homeland deck they came from, the seat's own: {NATION}",
    "RegionFlipped.seat": f"the seat that expanded; null for the neutral nation's flip at the start of a round; {SEAT}",
    "RegionFlipped.nation": f"whose homeland deck the card came from: {NATION}",
    "Scout.nation": f"the homeland deck in play to scout (any nation's, the neutral one's included): {NATION}",
    "Scouted.seat": "the seat that scouted",
    "Scouted.nation": f"the homeland deck scouted: {NATION}",
    "RegionsLeftPlay.nation": f"the neutral nation: {NATION}",
    "DiceMustered.seat": "the seat that mustered",
    "Recruited.seat": "the seat that recruited",
    "Strategized.seat": "the seat that drew the strategy card",
    "StrategyDrawn.seat": "the seat dealt the strategy card",
    "StrategyChosen.seat": "the seat that chose",
    "EscalationTurnEnded.seat": "the seat whose Escalation turn ended",
    "ReservesRerolled.seat": "the seat whose reserves were rerolled (its first Battle turn of the round)",
    "DieDeployed.seat": "the seat whose die it is",
    "TacticPlayed.seat": "the seat that played it",
    "DieShifted.seat": "the seat that used Celestos' ability",
    "BattleTurnEnded.seat": "the seat whose Battle turn ended; the next in the turn order follows",
    "Stopped.seat": "the seat that said Stop",
    "RegionsClaimed.seat": "the seat that claimed the regions",

    # The rounds and phases.
    "RoundBegan.round": "the round's number, 1-4; the northern die shows it",
    "PhaseBegan.phase": ("nations (choosing nations), expansion, muster, escalation, battle, conquest, or choose (the "
                         "end of the game: choosing a strategy card to score)"),
    "PhaseBegan.seats": ("in expansion, muster, conquest and choose: the seats that must act, all at once; in "
                         "nations, escalation and battle: the turn order"),

    # Cards.
    "CardsDrawn.cards": (f"the starting tactics drawn, from the top of the deck: each {HOMELAND_CARD}; seen by that "
                         "seat (and a referee) only."),
    "DeckShuffled.cards": (f"the new deck, top first: the nation's cards at setup, else its discard area "
                           f"shuffled; each {HOMELAND_CARD}; seen by no player, only by a referee."),
    "RegionFlipped.card": f"the card flipped face up into the Coil as a new region: {HOMELAND_CARD}",
    "Scouted.card": (f"the top card, drawn into the seat's hand as a tactic: {HOMELAND_CARD}; seen by that seat (and "
                     "a referee) only."),
    "Scouted.flipped": (f"the next card, flipped into the Coil as a new region; null when the deck had no more: "
                        f"{HOMELAND_CARD}"),
    "RegionsLeftPlay.cards": ("the neutral nation's own regions with no die on them, which leave the Coil: each "
                              f"{HOMELAND_CARD}"),
    "PlaceRegions.regions": ("the claimed regions to place face down on your strategy card, ids in increasing order, "
                             "as many as each area has room for; the others go to your hand as tactics. Each "
                             f"{HOMELAND_CARD}"),
    "RegionsClaimed.regions": ("[card, area] for each region the seat claimed, in Coil order: area is west, home or "
                               "east (placed face down on the strategy card) or hand (taken as a tactic); for other "
                               f"seats the card is null and the area shown. Card: {HOMELAND_CARD}."),
    "PlayTactic.card": f"the tactic of your hand to play: {HOMELAND_CARD} (its tactic is in data.json)",
    "TacticPlayed.card": f"the tactic played, to its nation's discard area: {HOMELAND_CARD}",
    "StrategyDeckShuffled.cards": (f"the shuffled strategy deck, top first: each {STRATEGY}; seen by no player, only "
                                   "by a referee."),
    "StrategyDrawn.card": f"the strategy card dealt at setup: {STRATEGY}; seen by that seat (and a referee) only.",
    "Strategized.card": (f"the strategy card drawn onto the seat's old one: {STRATEGY}; seen by that seat (and a "
                         "referee) only."),
    "ChooseStrategy.card": f"the strategy card of yours to score with: {STRATEGY}",
    "StrategyChosen.card": (f"the strategy card it scores with: {STRATEGY}; seen by that seat (and a referee) "
                            "only; the view shows it to all once the game is over."),

    # Dice.
    "Muster.fixed": ("Ignixior only: the value 1-6 one mustered die takes instead of being rolled; leave it out to "
                     "roll them all"),
    "DiceMustered.values": "the dice added to the seat's reserves, each 1-6 (the first is the fixed one, if any)",
    "DiceMustered.fixed": "the value Ignixior set one die to, or null when every die was rolled",
    "Recruited.value": "the die rolled from the population into the reserves, 1-6",
    "ReservesRerolled.values": "the seat's reserves after the reroll, ascending, each 1-6 (at least one deployable)",
    "ReservesRerolled.attempts": "how many times the reserves were rolled until a die could be deployed, 1 or more",
    "Deploy.value": f"the die of your reserves to deploy, by its value: {DIE}; onto a region with dice it must show "
                    "one more than the top die (a 6 is followed by a 1), and not onto your own top die",
    "Deploy.region": f"where the die goes: {REGION}",
    "DieDeployed.value": f"the deployed die, now on top of the region: {DIE}",
    "DieDeployed.region": f"where it went: {REGION}",
    "PlayTactic.dice": ("the dice of your reserves the tactic acts on, by value (1-6), ascending except for "
                        "swap_pip (the raised die first): plus_one_two and swap_pip take 2, reroll 1 or more, the "
                        "others 1"),
    "PlayTactic.value": "set_value only: the value 1-6 the die is turned to (not its own); leave it out otherwise",
    "TacticPlayed.dice": "the dice it acted on, by value (1-6), as named in PlayTactic",
    "TacticPlayed.value": "the value chosen for set_value, else null",
    "TacticPlayed.reserves": "the seat's reserves afterwards, ascending, each 1-6",
    "ShiftDie.value": f"the die of your reserves to shift, by its value: {DIE}",
    "ShiftDie.up": "true raises it by 1, false lowers it by 1 (values wrap: 6 up is 1, 1 down is 6)",
    "DieShifted.value": f"the die's value before the shift: {DIE}",
    "DieShifted.up": "true: raised by 1; false: lowered by 1 (values wrap)",
    "DiceReturned.kept": (f"[seat, value] of each die that goes back to its seat's reserves instead of its "
                          f"population (Varg'ree's ability); empty when none. Seat: {SEAT}"),
}

# What the commands' fields name (domain.kit.names), for a client composing a
# command: a region of the Coil or a nation's deck is clicked on the table, a
# tactic picked from the hand (card_names.json names every homeland card, the
# same card being a region in the Coil and a tactic in a hand). Dice are
# named by their values, plain data: two dice of one value are alike.
# A homeland card is in its nation's colour: card_names.json names it, but
# its nation is in data.json's homeland_cards, whose colour is in nations.
HOMELAND = "card_names.json"
NATIONS_COLOUR = Colour("color")
HOMELAND_COLOUR = Colour("nation", table="nations", data="data.json", list="homeland_cards")
FIELD_NAMES: dict[str, Names] = {
    "ChooseNation.nation": Names("card", "nation card", "data.json", "nations", colour=NATIONS_COLOUR),
    "Scout.nation": Names("place", "nation", "data.json", "nations", colour=NATIONS_COLOUR),
    "Deploy.region": Names("place", "region", HOMELAND, "cards", colour=HOMELAND_COLOUR),
    "PlayTactic.card": Names("card", "tactic", HOMELAND, "cards", colour=HOMELAND_COLOUR),
    "PlaceRegions.regions": Names("card", "claimed region", HOMELAND, "cards", colour=HOMELAND_COLOUR),
    "ChooseStrategy.card": Names("card", "strategy card", "data.json", "strategy_cards"),
}
