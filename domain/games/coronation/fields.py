"""What each field of Coronation's commands and events means, for the API's
document (``Game.field_descriptions``): "field" for that name in every
message, "Type.field" for one message's (which wins). Locations are numbered
1-92 as in the view's board.locations and board.json; detectives, cards and
traps are named by the ids of cards.json (served at /v1/rules/coronation/data)."""

from ...kit.names import Names

FIELD_DESCRIPTIONS: dict[str, str] = {
    # The game's settings
    "GameStarted.seats": "the seats: lind, then detective-1 .. detective-N (option detective_seats, 1-5)",
    "GameStarted.last_turn": "Lind wins when this turn ends and he has not been caught (option last_turn)",
    "GameStarted.equipment": "how the detectives get their five cards (option equipment): recommended (2 cab "
                             "tickets and 3 random instruments), random (5 random cards) or choose (the detective "
                             "seats pick them, EquipDetective)",
    "GameStarted.shared_control": "any detective seat may direct any detective (option shared_control)",
    "GameStarted.control": "who directs whom, drawn by lot: [detective, seat] pairs, one per detective in the "
                           "rulebook's order (fandorin, masa, zyukin, endlung, karnovich)",
    "DetectivesHandedOver.seat": "the detective seat that resigned (detective-1 .. detective-5); it never acts again",
    "DetectivesHandedOver.control": "[detective, seat] pairs: each detective the resigned seat directed and the "
                                    "detective seat still playing that directs him now, dealt in seat order",
    # Detectives
    "detective": "a detective's id: fandorin, masa, zyukin, endlung or karnovich (as in the view's detectives)",
    "LindCaught.detective": "the detective who entered Lind's location; null when Lind had no legal action at the "
                            "start of his turn",
    "location": "a location's number, 1-92, as in the view's board.locations and board.json",
    "PlaceDetective.location": "the location he starts on, 1-92 (any; detectives may share one)",
    "DetectivePlaced.location": "the location he starts on, 1-92 (detectives may share one)",
    "DetectiveEquipped.cards": "the detective's five cards in deck order, one entry per card: ticket (a cab "
                               "ticket) entries first, then instrument ids in the order respirator, revolver, "
                               "money, lock-pick, first-aid-kit",
    "EquipDetective.cards": "the five cards he takes, all still in the deck (the view's detective_deck), in deck "
                            "order, one entry per card: ticket (a cab ticket) entries first, then instrument ids in "
                            "the order respirator, revolver, money, lock-pick, first-aid-kit, e.g. "
                            "[\"ticket\", \"ticket\", \"revolver\", \"money\", \"money\"]",
    "MoveDetective.to": "the location he moves to, 1-92: joined to his own by a line of the way he goes",
    "DetectiveMoved.to": "the location he moved to, 1-92",
    "MoveDetective.by": "foot (along a red line) or cab (along a green line, spending one of his cab tickets); "
                        "detectives never ride the underground",
    "DetectiveMoved.by": "foot (along a red line) or cab (along a green line; he spent a cab ticket)",
    "InformationGathered.instrument": "the instrument he discarded: the one his special location shows "
                                      "(respirator, revolver, money, lock-pick or first-aid-kit)",
    # Lind
    "AppearLind.location": "the location Lind appears on, 1-92: any with no detective on it",
    "LindAppeared.location": "the location Lind appeared on, 1-92: his first route card; only Lind's player and "
                             "the referee see it",
    "MoveLind.to": "the location Lind moves to, 1-92: reached the way he goes (a red or green line from his, or "
                   "underground entrance to underground entrance), its card not on the table (nor a decoy's "
                   "location, under rules version 2), no detective on it",
    "MoveLind.by": "foot (along a red line), cab (along a green line, leaving a ticket card) or underground "
                   "(between any two underground entrances, leaving his note)",
    "MoveLind.trap": "on foot only: the id of a trap card from his hand (as in the view's board.traps) to leave "
                     "on the route card he leaves; null to leave none",
    "HideLind.decoy": "the location of the decoy card, 1-92: any whose card is not on the table; Lind stays where "
                      "he is and the decoy becomes his last route card, under a turn-skip card",
    "MoveLindExtraordinarily.to": "the location he moves to along one foot (red) line, 1-92, under the same "
                                  "limits as a move; it replaces his last route card",
    "LindMoved.to": "the location he moved to, 1-92, or for a hide the decoy's location (Lind stays)",
    "LindMoved.by": "foot, cab, underground or hide",
    "LindMoved.card": "the card he left on the route card he was on: a trap id, ticket (cab), note (underground), "
                      "turn-skip (hide), or null when he left none",
    "LindMoved.stole": "he took the jewel of the location he left",
    "LindMovedExtraordinarily.to": "the location he moved to, 1-92; null when he declined and stayed",
    "LindMovedExtraordinarily.stole": "he took the jewel of the location he left",
    "LindCaught.location": "where Lind was caught, 1-92",
    "LindWon.reason": "jewels (he took every jewel) or time (the last turn ended and he was never caught)",
    # The route
    "index": "the route card's place on Lind's route, from 0 (where he appeared), as the view's route[].index; the "
             "game log counts from 1",
    "RouteCardRevealed.location": "the location the route card names, 1-92; null for a decoy",
    "RouteCardRevealed.hide": "the card is a decoy of a hide: Lind was never there, and it shows no location",
    "RouteCardRevealed.card_shown": "the card lying on it was shown too (a detective entered the location); false "
                                    "for information gathering, which shows only the location",
    "RouteCardRevealed.card": "when card_shown, the card lying on it: a trap id, ticket, note or turn-skip, or null "
                              "when none lies there; null when card_shown is false",
    # Traps
    "trap": "the trap's id, as in the view's board.traps",
    "TrapDefused.instrument": "the instrument the trap names, which he held and now discarded",
    "TrapSuffered.effect": "what it does to him: lose-next-action (he is skipped in the next turn) or "
                           "discard-ticket (he discards a cab ticket, if he has one)",
    "TrapSuffered.extraordinary": "Lind may now make an extraordinary movement on foot (he may decline)",
    # Turns
    "TurnEnded.turn": "the turn that ended, from 1; Lind moves next, in turn + 1",
}

# What the commands' fields name (domain.kit.names), for a client composing a
# command on the board: a location is clicked, a detective picked as a piece.
LOCATION = Names("place", "location", "board.json", "locations")
FIELD_NAMES: dict[str, Names] = {
    "detective": Names("piece", "detective", "cards.json", "detectives"),
    "location": LOCATION,
    "to": LOCATION,
    "decoy": LOCATION,
    "MoveLind.trap": Names("card", "trap", "card_faces.json", "cards"),
    "EquipDetective.cards": Names("card", "detective card", "card_faces.json", "cards"),
}
