"""What each field of The Court of Miracles' commands and events means, for
the API's document (``Game.field_descriptions``): "field" for that name in
every message, "Type.field" for one message's own (which wins)."""

from __future__ import annotations

from ...kit.names import Names

SEAT = "p1, p2, ... in clockwise order"
NEIGHBOURHOOD = ("a neighbourhood's id, as in the view's `neighbourhoods` and board.json: taverne, egyptienne, "
                 "halles, chatelet or grande-cour")
SPOT = "a spot's number in that neighbourhood, 1-3: its distance to the neighbourhood's symbol (1 is closest)"
LINE = "a Renown Square line, 1-5, as in the view's `renown_square` and board.json"
ROGUE = ("a rogue's kind, as in cards.json: right-hand, henchman, beggar, brute, pickpocket, priest, soothsayer, "
         "swordsman or courtesan")
PLOT = ("a Plot card, as in cards.json: fool, chariot, death, devil, empress, hanged-man, hermit, judgment, "
        "justice, magician, strength or wheel")
KING_SPACE = "a space of the Penniless King's path, 0 (Le Louvre) to 20 (the end), as in the view's `king.path`"

FIELD_DESCRIPTIONS = {
    # Who: seats.
    "GameSetUp.seats": f"every seat: {SEAT}",
    "GameSetUp.first": "the seat of the first player (the option first_player, or drawn at random)",
    "TurnBegan.seat": "the seat whose turn begins",
    "TurnEnded.seat": "the seat whose turn ended",
    "ActionTaken.seat": "the seat that took the action (the active player)",
    "PlotsDrawn.seat": "the seat whose hand the cards went to",
    "PlotPlayed.seat": "the seat that played the card",
    "PlotTaken.seat": "the seat that played Death and took the card into its hand",
    "RoguePlaced.seat": "the seat whose rogue it is",
    "RogueDrawn.seat": "the seat that drew it (by the Taverne's action or Strength)",
    "RogueDiscarded.seat": "the seat whose rogue it was",
    "CoinsTaken.seat": "the seat that took the coins",
    "CoinsPaid.seat": "the seat that paid (a Renown Square line's toll)",
    "CoinsGiven.giver": f"the seat that gave the coins; {SEAT}",
    "CoinsGiven.receiver": f"the seat that got them; {SEAT}",
    "RenownPlaced.seat": "the seat whose Renown token it is",
    "RenownReturned.seat": "the seat whose Renown token goes back to its hand",
    "RightHandTaken.seat": "the seat that took its Right-Hand back from Renown Square line 3 into its supply",
    "WrathChosen.seat": "the seat that chose (the active player)",
    "SwordsmenChosen.seat": "the seat that answered",
    "SwordsmenPaid.seat": "the seat that paid",
    "StandoffWon.winner": (f"the winning seat (highest strength; a tie goes to the tied rogue closest to the "
                           f"symbol); null when no rogue was there; {SEAT}"),
    "GameEnded.winners": "the winning seats; several share the victory (the King's ending: a tie on Renown placed "
                         "and neighbourhoods controlled)",
    "PlayPlot.player": f"the Wheel of Fortune only: the other seat that takes 1 coin; {SEAT}",

    # Where: neighbourhoods, spots, lines.
    "neighbourhood": NEIGHBOURHOOD,
    "spot": SPOT,
    "to_neighbourhood": f"where the rogue goes: {NEIGHBOURHOOD}",
    "to_spot": f"the free spot it goes to: {SPOT}",
    "line": LINE,
    "PlaceRogue.neighbourhood": f"where the rogue goes: {NEIGHBOURHOOD}",
    "PlaceRogue.spot": f"the free spot it goes to: {SPOT}",
    "MoveRogue.neighbourhood": f"where your rogue lies now: {NEIGHBOURHOOD}",
    "MoveRogue.spot": f"the spot it lies on: {SPOT}",
    "ShiftRogue.neighbourhood": f"where the rogue to move lies (another than the one just placed): {NEIGHBOURHOOD}",
    "ShiftRogue.spot": f"the spot it lies on: {SPOT}",
    "BuyRenown.line": f"the line whose toll you pay and where your Renown token goes: {LINE}; 3 only while your "
                      "Right-Hand is parked there",
    "PlayPlot.neighbourhood": ("the Chariot, the Hermit, Justice: the neighbourhood it acts on; the Empress: the "
                               "neighbourhood whose Renown token of yours moves (or give line); the Hanged Man: "
                               f"where the opponent's rogue lies; else leave it out; {NEIGHBOURHOOD}"),
    "PlayPlot.spot": f"the Hanged Man only: the spot of the opponent's rogue; {SPOT}",
    "PlayPlot.to_neighbourhood": ("the Empress: the uncontrolled neighbourhood your Renown token moves to; the "
                                  f"Hanged Man: where the rogue goes; else leave it out; {NEIGHBOURHOOD}"),
    "PlayPlot.to_spot": f"the Hanged Man only: the free spot the rogue goes to; {SPOT}",
    "PlayPlot.line": f"the Empress only, instead of neighbourhood: the line whose Renown token of yours moves; {LINE}",
    "ChooseWrath.neighbourhood": f"where the second Standoff of the Wrath of the King takes place: {NEIGHBOURHOOD}",
    "SettleStandoff.neighbourhood": (f"the waiting Standoff to settle next (one of the view's `standoffs`): "
                                     f"{NEIGHBOURHOOD}"),
    "PlaceCourtesanRenown.neighbourhood": (f"where the winner's Renown token goes (any, the Standoff's own "
                                           f"included): {NEIGHBOURHOOD}"),
    "RoguePlaced.neighbourhood": f"where the rogue now lies: {NEIGHBOURHOOD}",
    "RoguePlaced.spot": f"the spot it now lies on: {SPOT}",
    "RoguePlaced.from_neighbourhood": (f"where it was moved from (all the seat's rogues were in play), or null "
                                       f"when it came from the supply; {NEIGHBOURHOOD}"),
    "RoguePlaced.from_spot": f"the spot it was moved from, or null when it came from the supply; {SPOT}",
    "RogueShifted.neighbourhood": f"where the rogue lay: {NEIGHBOURHOOD}",
    "RogueShifted.spot": f"the spot it lay on: {SPOT}",
    "ActionTaken.neighbourhood": (f"the neighbourhood whose action it was (with The Magician, another one than "
                                  f"the placed rogue's); {NEIGHBOURHOOD}"),
    "RenownPlaced.neighbourhood": (f"the neighbourhood the token now controls, or null when it went on a line; "
                                   f"{NEIGHBOURHOOD}"),
    "RenownPlaced.line": f"the Renown Square line it went on, or null when it went on a neighbourhood; {LINE}",
    "RenownReturned.neighbourhood": (f"the neighbourhood it leaves (control lost), or null when it leaves a line; "
                                     f"{NEIGHBOURHOOD}"),
    "RenownReturned.line": f"the line it leaves (the Empress), or null when it leaves a neighbourhood; {LINE}",
    "TurnEnded.standoffs": ("neighbourhoods where a Standoff waits, in board order: the full ones and the one a Wrath "
                            "space pointed at this turn"),
    "WrathChosen.neighbourhood": f"where the second Standoff takes place: {NEIGHBOURHOOD}",
    "StandoffBegan.neighbourhood": f"where the Standoff takes place: {NEIGHBOURHOOD}",
    "StandoffWon.neighbourhood": f"where the Standoff took place: {NEIGHBOURHOOD}",
    "RoguesReturned.neighbourhood": f"the neighbourhood emptied (after its Standoff, or by Justice): {NEIGHBOURHOOD}",
    "StandoffEnded.neighbourhood": f"where the Standoff took place: {NEIGHBOURHOOD}",

    # What: rogues and cards.
    "rogue": ROGUE,
    "PlaceRogue.rogue": f"the kind of the rogue of your supply to place: {ROGUE}",
    "DiscardRogue.rogue": f"the kind of the rogue out of play to send to the Seine (the drawn one included): {ROGUE}",
    "RoguePlaced.rogue": f"its kind: {ROGUE}; seen by its owner (and a referee) only.",
    "RogueDrawn.rogue": f"its kind: {ROGUE}; seen by the drawer (and a referee) only.",
    "RogueDiscarded.rogue": f"its kind: {ROGUE}; seen by its owner (and a referee) only.",
    "StandoffBegan.rogues": ("every rogue there, revealed, by spot: [owner seat, spot 1-3, kind] for each (as the "
                             "view's `standoff.rogues`)"),
    "StandoffBegan.chariot": "true when The Chariot started it during the turn (the turn goes on afterwards)",
    "card": PLOT,
    "PlayPlot.card": f"the Plot card of your hand to play: {PLOT}",
    "PlayPlot.take": f"Death only: the card of the discard pile to take into your hand; {PLOT}",
    "PlotTaken.card": f"the card taken from the discard pile: {PLOT}",
    "cards": f"the Plot cards drawn, from the top of the pile: each {PLOT}; seen by the drawer (and a referee) only.",
    "GameSetUp.pile": (f"the shuffled Plot pile, top first: each {PLOT}; seen by no player, only by a referee "
                       "(pile_size counts it)."),
    "PlotPileReshuffled.pile": (f"the new pile, top first, made of the shuffled discards: each {PLOT}; seen by no "
                                "player, only by a referee (pile_size counts it)."),
    "GameSetUp.bag": (f"the shuffled bag of rogues, the next drawn first: each {ROGUE}; seen by no player, only by a "
                      "referee (bag_size counts it)."),

    # How much: coins, Swordsmen, the King.
    "CoinsTaken.amount": "coins taken from the reserve (never more than it holds)",
    "CoinsPaid.amount": "coins paid to the reserve",
    "CoinsGiven.amount": "coins passed from the giver to the receiver (never more than the giver has)",
    "PaySwordsmen.count": "how many of your Swordsmen in this Standoff you pay for, 2 coins each (3 strength each "
                          "paid); 0 for none",
    "SwordsmenChosen.count": ("how many of its Swordsmen there the seat pays for, 2 coins each; seen by that seat "
                              "(and a referee) only."),
    "SwordsmenPaid.count": "Swordsmen paid for, 2 coins each, to the reserve",
    "StandoffWon.totals": ("each player's strength there, paid Swordsmen counted: [seat, strength] for each player "
                           "with a rogue there, in seat order; empty when none was"),
    "KingMoved.start": f"where the King stood: {KING_SPACE}",
    "KingMoved.end": f"where he stands now: {KING_SPACE}",
    "KingMoved.wrath": (f"when he stopped on a Wrath space, the neighbourhood it points at (a Standoff waits there "
                        f"at the turn's end), else null; {NEIGHBOURHOOD}"),
    "GameEnded.reason": ("renown: a player placed all 6 Renown tokens; king: the King reached the end of his path "
                         "(most Renown placed wins, then most neighbourhoods controlled)"),
}

# What the commands' fields name (domain.kit.names), for a client composing a
# command: a neighbourhood or a Renown Square line is clicked on the board, a
# Plot card or a rogue picked from the hand (names.json lists both, by the ids
# of views and commands). A spot (1-3) is plain data: it is one of the three of
# the neighbourhood chosen first, not a place of its own.
NEIGHBOURHOOD_NAMES = Names("place", "neighbourhood", "board.json", "neighbourhoods")
HAND_CARD = Names("card", "card", "names.json", "cards")
FIELD_NAMES: dict[str, Names] = {
    "neighbourhood": NEIGHBOURHOOD_NAMES,
    "to_neighbourhood": NEIGHBOURHOOD_NAMES,
    "line": Names("place", "Renown Square line", "names.json", "renown_lines", key="line"),
    "rogue": HAND_CARD,
    "card": HAND_CARD,
    "take": HAND_CARD,
    "player": Names("seat", "player"),
}
