"""The shape of a Court of Miracles view, declared once: the API's schema is
derived from it and the conformance suite checks every view against it.

Coordinates are in pixels of the 1000 x 700 board (board.json, served at
/v1/rules/court-of-miracles/data), x to the right and y downwards from the
top left corner. A fact the viewer may not see is null: a face-down rogue's
kind, another player's hand and rogues out of play, the drawn rogue, the
Seine, another player's sealed answer on his Swordsmen."""

from __future__ import annotations

from ...kit.names import Board, Hand
from ...kit.shape import Bool, Int, List, Obj, Str, described, maybe, optional
from .data import NEIGHBOURHOOD_IDS, PLOT_KINDS, ROGUES
from .fields import HAND_CARD

SEAT = "a seat: p1, p2, ... in clockwise order"
PHASES = ("place", "act", "recruit", "wrath", "standoffs", "standoff", "over")
ROGUE_KINDS = tuple(ROGUES)


def _neighbourhood(description: str, nullable: bool = False) -> Str:
    return Str(description, enum=NEIGHBOURHOOD_IDS, nullable=nullable)


def _rogue(description: str, nullable: bool = False) -> Str:
    return Str(description, enum=ROGUE_KINDS, nullable=nullable)


POINT = Obj("Point", "where the controller's Renown token is drawn on a neighbourhood, in pixels from the "
                     "board's top left corner", {
    "x": Int("pixels to the right"),
    "y": Int("pixels downwards"),
})

PLAYER = Obj("Player", "one player's coins, cards, rogues and Renown tokens", {
    "seat": Str(SEAT),
    "coins": Int("coins in hand", minimum=0),
    "hand_size": Int("Plot cards in hand (at most 4)", minimum=0),
    "hand": List(Str(enum=PLOT_KINDS, description="a Plot card"),
                 "the Plot cards in hand; null unless the viewer is this player (or the referee)", nullable=True),
    "supply_size": Int("rogues out of play (the Right-Hand parked on the Renown Square not counted)", minimum=0),
    "supply": List(_rogue("a rogue's kind"),
                   "kinds of the rogues out of play, sorted; null unless the viewer is this player (or the referee)",
                   nullable=True),
    "right_hand_parked": Bool("the Right-Hand still stands on Renown Square line 3 (line 3 is open to this player)"),
    "lines": List(Int(minimum=1, description="a line number, 1-5"),
                  "Renown Square lines holding this player's Renown token, ascending"),
    "controls": List(_neighbourhood("a neighbourhood id"), "neighbourhoods this player controls, in board order"),
    "renown_placed": Int("Renown tokens placed, on neighbourhoods and lines; 6 wins", minimum=0),
    "renown_left": Int("Renown tokens still in hand", minimum=0),
})

SPOT = Obj("Spot", "one of the three spots of a neighbourhood, where a rogue lies face down", {
    "spot": Int("distance to the neighbourhood's symbol, 1-3; 1 is closest and wins ties", minimum=1),
    "effect": Str("what placing a rogue here gives", enum=("king", "coins", "plots")),
    "amount": Int("how much of it: King's path spaces, coins or Plot cards", minimum=0),
    "x": Int("pixels to the right"),
    "y": Int("pixels downwards"),
    "owner": Str(f"the seat of the rogue lying here, or null if the spot is free; {SEAT}", nullable=True),
    "rogue": _rogue("its kind: for its owner (and the referee) only, else null; null on a free spot", nullable=True),
})

NEIGHBOURHOOD = Obj("Neighbourhood", "one of the five neighbourhoods of the Court", {
    "id": _neighbourhood("its id, used in commands"),
    "name": Str("its printed name"),
    "action": Str("the action a rogue placed here gives",
                  enum=("recruit", "shift", "renown", "plot", "coins")),
    "x": Int("pixels to the right of its symbol"),
    "y": Int("pixels downwards of its symbol"),
    "renown": described(POINT, "where to draw the Renown token of the seat that controls it"),
    "controller": Str("the seat whose Renown token controls it, or null", nullable=True),
    "spots": List(SPOT, "its spots 1, 2, 3"),
})

LINE = Obj("Line", "a line of the Renown Square (Les Halles' action buys a place on it)", {
    "line": Int("its number, 1-5", minimum=1),
    "toll": Int("coins it costs", minimum=0),
    "bonus": Str("what it gives besides the Renown token", enum=("plots", "king", "right-hand")),
    "amount": Int("how much of the bonus: Plot cards or King's path spaces (1 for the Right-Hand)", minimum=0),
    "x": Int("pixels to the right"),
    "y": Int("pixels downwards"),
    "seats": List(Str(SEAT), "players with a Renown token on it, in seat order"),
})

PATH_SPACE = Obj("PathSpace", "a space of the Penniless King's path", {
    "space": Int("its number from Le Louvre (0) to the end of the path", minimum=0),
    "x": Int("pixels to the right"),
    "y": Int("pixels downwards"),
    "name": optional(Str("the printed name: Le Louvre (0) and the last space only")),
    "wrath": optional(_neighbourhood("a Wrath space only: the neighbourhood its hand points at")),
})

KING = Obj("King", "the Penniless King on his path; the game ends when he reaches its last space", {
    "space": Int("the space he stands on", minimum=0),
    "stopped": Bool("he stopped on a Wrath space this turn and moves no more until the next"),
    "path": List(PATH_SPACE, "every space of the path, from Le Louvre"),
})

TURN = Obj("Turn", "what happened so far in the active player's turn", {
    "placed_neighbourhood": _neighbourhood("where the rogue of this turn went, null before placing", nullable=True),
    "placed_spot": Int("its spot, null before placing (or once Justice returned it)", nullable=True),
    "plot_played": Bool("this turn's Plot card was played (one per turn)"),
    "devil": Bool("The Devil was played: the spot's bonus is doubled"),
    "magician": Bool("The Magician was played: the action of another neighbourhood is taken"),
    "action_done": Bool("the neighbourhood action was taken"),
    "king_stopped": Bool("the King stopped on a Wrath space this turn"),
    "wrath": _neighbourhood("the neighbourhood of this turn's Wrath of the King, or null", nullable=True),
})

REVEALED_ROGUE = Obj("RevealedRogue", "a rogue turned face up for the Standoff", {
    "owner": Str(SEAT),
    "spot": Int("its spot, 1-3", minimum=1),
    "rogue": _rogue("its kind"),
})

PAID = Obj("Paid", "a Swordsman payment made public", {
    "seat": Str(SEAT),
    "count": Int("Swordsmen paid for, 2 coins each", minimum=0),
})

ANSWER = Obj("Answer", "a sealed answer on Swordsmen", {
    "seat": Str(SEAT),
    "count": Int("Swordsmen this seat pays for; null unless the viewer is this seat (or the referee)",
                 minimum=0, nullable=True),
})

TOTAL = Obj("Total", "a player's strength in the Standoff", {
    "seat": Str(SEAT),
    "strength": Int("the sum of his rogues' strengths there, paid Swordsmen counted", minimum=0),
})

STANDOFF = Obj("Standoff", "the Standoff being settled", {
    "neighbourhood": _neighbourhood("where it takes place"),
    "rogues": List(REVEALED_ROGUE, "the rogues there, revealed, by spot"),
    "chariot": Bool("started by The Chariot during the turn (the turn goes on afterwards)"),
    "awaiting": List(Str(SEAT), "seats still to say how many of their Swordsmen they pay for"),
    "answered": List(ANSWER, "sealed answers on Swordsmen given so far, in the order given"),
    "paid": List(PAID, "Swordsman payments, public once every seat asked has answered"),
    "totals": List(TOTAL, "every player's strength, once the Standoff is won; empty before"),
    "won": Bool("the winner is known"),
    "winner": Str(f"the winning seat once won, null before (and when no rogue was there); {SEAT}", nullable=True),
})

VIEW = Obj("View", "a game of The Court of Miracles as one viewer sees it", {
    "to_act": List(Str(SEAT), "seats that may act now, sorted; several while Swordsmen are being answered"),
    "phase": Str("the step of the turn: place a rogue, act, discard a recruited rogue, choose the Wrath "
                 "neighbourhood, order the Standoffs, settle one, or the game is over", enum=PHASES),
    "active": Str(f"the seat whose turn it is; {SEAT}"),
    "seats": List(Str(SEAT), "every seat, clockwise"),
    "players": List(PLAYER, "every player, in seat order"),
    "hand": List(Str(enum=(*PLOT_KINDS, *ROGUES), description="a Plot card or a rogue's kind, an id of names.json's "
                                                             "cards"),
                 "what the viewer holds, as a client draws his hand: his Plot cards, then his rogues out of play, "
                 "then the rogue he drew and has yet to keep or discard; null for a viewer who holds no seat",
                 nullable=True),
    "reserve": Int("coins in the reserve", minimum=0),
    "neighbourhoods": List(NEIGHBOURHOOD, "the five neighbourhoods, in board order"),
    "renown_square": List(LINE, "the Renown Square's lines 1-5"),
    "king": described(KING, "the Penniless King: the space he stands on and his whole path"),
    "pile_size": Int("Plot cards left face down in the pile", minimum=0),
    "discards": List(Str(enum=PLOT_KINDS, description="a Plot card"), "the discard pile, face up, oldest first"),
    "bag_size": Int("rogues left in the bag", minimum=0),
    "seine_size": Int("rogues discarded face down to the Seine", minimum=0),
    "seine": List(_rogue("a rogue's kind"), "the Seine's rogues, oldest first: for the referee only, else null",
                  nullable=True),
    "drawn_rogue": _rogue("the rogue drawn from the bag, waiting to be kept or discarded: for the active player "
                          "(and the referee) only; null otherwise or when none waits", nullable=True),
    "turn": described(TURN, "what the active player has done so far this turn"),
    "standoffs": List(_neighbourhood("a neighbourhood id"), "Standoffs waiting at the end of this turn, in board order"),
    "standoff": described(maybe(STANDOFF), "the Standoff being settled; null when none is"),
    "winners": List(Str(SEAT), "the winners once the game is over (several share a victory), else empty"),
    "end_reason": Str("how the game ended: renown (a player placed all 6 Renown tokens) or king (the King reached "
                      "the end of his path); null while it runs", enum=("renown", "king"), nullable=True),
})

# A seat's hand: its Plot cards and the rogues it may place (a rogue is picked
# from the hand, then its spot chosen on the board).
HAND = Hand(field="hand", names=HAND_CARD)

# What score puts in a standing's detail (the score is the Renown tokens placed).
STANDING_DETAIL = Obj("StandingDetail", "how the seat ended: its neighbourhoods, coins and whether it won", {
    "neighbourhoods": Int("neighbourhoods the seat controls at the end", minimum=0),
    "coins": Int("coins in hand at the end", minimum=0),
    "winner": Bool("the seat is among the winners"),
})

# The board: neighbourhoods with their spots, Renown Square's lines and the King's
# path (board.json), rogues on spots.
BOARD_DRAWING = Board("neighbourhoods", "board.json")
