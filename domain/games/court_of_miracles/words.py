"""The Court of Miracles' events in words, for a game log: one sentence per
event type, made from the event as a viewer may see it (``visible``): a rogue
another player placed face down is "a rogue", a hand drawn by another player
is a number of cards."""

from __future__ import annotations

from ...words import count, listed
from .data import BOARD_JSON, CARDS_JSON, NAMES_JSON

NEIGHBOURHOODS = {n["id"]: n["name"] for n in BOARD_JSON["neighbourhoods"]}
ROGUES = {r["kind"]: r["name"] for r in CARDS_JSON["rogues"]}
PLOTS = {p["card"]: p["name"] for p in CARDS_JSON["plots"]}


def _at(neighbourhood, spot=None) -> str:
    name = NEIGHBOURHOODS.get(neighbourhood, str(neighbourhood))
    return f"spot {spot} of {name}" if spot is not None else name


def _rogue(kind) -> str:
    return f"a {ROGUES.get(kind, kind)}" if kind else "a rogue"


def _plots(e: dict) -> str:
    cards = e.get("cards")
    n = e["count"] if "count" in e else len(cards or ())
    if cards is None or any(card is None for card in cards):
        return f"{e['seat']} drew {count(n, 'Plot card')}"
    return f"{e['seat']} drew {count(n, 'Plot card')}: {listed((PLOTS.get(c, c) for c in cards), 'none')}"


def _setup(e: dict) -> str:
    pile = e["pile_size"] if e.get("pile") is None else len(e["pile"])
    bag = e["bag_size"] if e.get("bag") is None else len(e["bag"])
    return (f"The game was set up for {listed(e['seats'])}; {e['first']} goes first; {count(pile, 'Plot card')} in the "
            f"pile, {count(bag, 'rogue')} in the bag")


def _placed(e: dict) -> str:
    moved = (f" from {_at(e['from_neighbourhood'], e['from_spot'])}" if e.get("from_neighbourhood") else "")
    verb, onto = ("moved", "to") if moved else ("placed", "on")
    return f"{e['seat']} {verb} {_rogue(e.get('rogue'))}{moved} {onto} {_at(e['neighbourhood'], e['spot'])}"


def _king(e: dict) -> str:
    wrath = f"; his Wrath falls on {_at(e['wrath'])}" if e.get("wrath") else ""
    return f"The Penniless King moved from space {e['start']} to space {e['end']}{wrath}"


def _renown(verb: str):
    def sentence(e: dict) -> str:
        where = _at(e["neighbourhood"]) if e.get("neighbourhood") else f"Renown Square line {e.get('line')}"
        return f"{e['seat']} {verb} {where}"

    return sentence


def _turn_ended(e: dict) -> str:
    standoffs = e.get("standoffs") or ()
    return f"{e['seat']}'s turn ended" + (f"; Standoffs await in {listed(_at(n) for n in standoffs)}" if standoffs else "")


def _standoff_began(e: dict) -> str:
    shown = listed((f"{seat}'s {ROGUES.get(kind, kind)} on spot {spot}" for seat, spot, kind in e.get("rogues") or ()),
                   "no rogues")
    return ("The Chariot started a Standoff" if e.get("chariot") else "A Standoff began") + f" in {_at(e['neighbourhood'])}: {shown}"


def _standoff_won(e: dict) -> str:
    totals = ", ".join(f"{seat} {strength}" for seat, strength in e.get("totals") or ())
    who = f"{e['winner']} won" if e.get("winner") else "Nobody won"
    return f"{who} the Standoff in {_at(e['neighbourhood'])}" + (f" ({totals})" if totals else "")


def _swordsmen_chosen(e: dict) -> str:
    if e.get("count") is None:
        return f"{e['seat']} chose, in secret, whether to pay for Swordsmen"
    return f"{e['seat']} chose to pay for {count(e['count'], 'Swordsman', 'Swordsmen')}"


def _ended(e: dict) -> str:
    how = {"renown": "placed all their Renown tokens", "king": "led when the King reached the end of his path"}.get(
        e.get("reason"), str(e.get("reason")))
    return f"The game ended: {listed(e['winners'])} won ({how})"


SENTENCES = {
    "GameSetUp": _setup,
    "TurnBegan": lambda e: f"{e['seat']}'s turn began",
    "PlotsDrawn": _plots,
    "PlotPileReshuffled": lambda e: "The Plot pile was made again from the discards: "
                                    + count(e["pile_size"] if e.get("pile") is None else len(e["pile"]), "card"),
    "PlotPlayed": lambda e: f"{e['seat']} played {PLOTS.get(e['card'], e['card'])}",
    "PlotTaken": lambda e: f"{e['seat']} took {PLOTS.get(e['card'], e['card'])} from the discard pile",
    "RoguePlaced": _placed,
    "RogueShifted": lambda e: f"The rogue on {_at(e['neighbourhood'], e['spot'])} was moved to "
                              f"{_at(e['to_neighbourhood'], e['to_spot'])}",
    "KingMoved": _king,
    "CoinsTaken": lambda e: f"{e['seat']} took {count(e['amount'], 'coin')} from the reserve",
    "CoinsPaid": lambda e: f"{e['seat']} paid {count(e['amount'], 'coin')} to the reserve",
    "CoinsGiven": lambda e: f"{e['giver']} gave {count(e['amount'], 'coin')} to {e['receiver']}",
    "ActionTaken": lambda e: f"{e['seat']} took the action of {_at(e['neighbourhood'])}",
    "RogueDrawn": lambda e: f"{e['seat']} drew {_rogue(e.get('rogue'))} from the bag",
    "RogueDiscarded": lambda e: f"{e['seat']} sent {_rogue(e.get('rogue'))} to the Seine",
    "RenownPlaced": _renown("placed a Renown token on"),
    "RenownReturned": _renown("took back a Renown token from"),
    "RightHandTaken": lambda e: f"{e['seat']} took back the Right-Hand",
    "TurnEnded": _turn_ended,
    "WrathChosen": lambda e: f"{e['seat']} chose {_at(e['neighbourhood'])} for a Standoff of the King's Wrath",
    "StandoffBegan": _standoff_began,
    "SwordsmenChosen": _swordsmen_chosen,
    "SwordsmenPaid": lambda e: f"{e['seat']} paid {count(2 * e['count'], 'coin')} for "
                               f"{count(e['count'], 'Swordsman', 'Swordsmen')}",
    "StandoffWon": _standoff_won,
    "RoguesReturned": lambda e: f"The rogues in {_at(e['neighbourhood'])} went back to their owners",
    "StandoffEnded": lambda e: f"The Standoff in {_at(e['neighbourhood'])} is over",
    "GameEnded": _ended,
}


# Legal commands in words, for the player choosing one ----------------------

LINE_TEXTS = {line["line"]: line["text"] for line in NAMES_JSON["renown_lines"]}
ACTIONS = {n["id"]: n["name"] for n in BOARD_JSON["neighbourhoods"]}


def _line(line) -> str:
    text = LINE_TEXTS.get(line)
    return f"Renown Square line {line}" + (f" ({text[0].lower()}{text[1:].rstrip('.')})" if text else "")


def _moving(c: dict) -> str:
    return f"the rogue on {_at(c['neighbourhood'], c['spot'])} to {_at(c['to_neighbourhood'], c['to_spot'])}"


def _play_plot(c: dict) -> str:
    card = PLOTS.get(c["card"], c["card"])
    if c.get("take"):
        return f"Play {card}, taking {PLOTS.get(c['take'], c['take'])} from the discard pile"
    if c.get("player"):
        return f"Play {card} on {c['player']}"
    if c.get("to_spot") is not None:
        return f"Play {card}, moving {_moving(c)}"
    if c.get("to_neighbourhood"):
        source = _at(c["neighbourhood"]) if c.get("neighbourhood") else f"Renown Square line {c.get('line')}"
        return f"Play {card}, moving your Renown token from {source} to {_at(c['to_neighbourhood'])}"
    if c.get("neighbourhood"):
        return f"Play {card} on {_at(c['neighbourhood'])}"
    return f"Play {card}"


def _pay(c: dict) -> str:
    n = c["count"]
    return f"Pay {count(2 * n, 'coin')} for {count(n, 'Swordsman', 'Swordsmen')}" if n else "Pay for no Swordsman"


COMMAND_SENTENCES = {
    "PlaceRogue": lambda c: f"Place your {ROGUES.get(c['rogue'], c['rogue'])} face down on "
                            f"{_at(c['neighbourhood'], c['spot'])}",
    "MoveRogue": lambda c: f"Move your rogue from {_at(c['neighbourhood'], c['spot'])} to "
                           f"{_at(c['to_neighbourhood'], c['to_spot'])}",
    "Recruit": lambda c: f"Recruit a rogue from the bag ({ACTIONS['taverne']})",
    "ShiftRogue": lambda c: f"Shift {_moving(c)} ({ACTIONS['egyptienne']})",
    "BuyRenown": lambda c: f"Place Renown on {_line(c['line'])}",
    "DrawPlot": lambda c: f"Draw a Plot card ({ACTIONS['chatelet']})",
    "TakeCoins": lambda c: f"Take 2 coins ({ACTIONS['grande-cour']})",
    "EndTurn": lambda c: "End your turn",
    "DiscardRogue": lambda c: f"Send your {ROGUES.get(c['rogue'], c['rogue'])} to the Seine",
    "PlayPlot": _play_plot,
    "ChooseWrath": lambda c: f"Start the King's Wrath Standoff in {_at(c['neighbourhood'])}",
    "SettleStandoff": lambda c: f"Settle the Standoff in {_at(c['neighbourhood'])} next",
    "PaySwordsmen": _pay,
    "PlaceCourtesanRenown": lambda c: f"Place your Renown token on {_at(c['neighbourhood'])}",
}
