"""Coronation's events in words, for a game log: one sentence per event type,
made from the event as a viewer may see it (``visible``): where the
detectives see only that Lind moved, the sentence says only that."""

from __future__ import annotations

from ...words import listed
from .data import BOARD


def _place(location) -> str:
    if location is None:
        return "somewhere unknown"
    found = BOARD.locations.get(location)
    return f"{found.name} ({location})" if found else str(location)


def _detective(detective) -> str:
    return BOARD.detective_names.get(detective, str(detective))


def _trap(trap) -> str:
    found = BOARD.traps.get(trap)
    return found.name if found else str(trap)


def _instrument(instrument) -> str:
    return BOARD.instrument_names.get(instrument, str(instrument))


def _card(card) -> str:
    if card in BOARD.traps:
        return f"the trap {_trap(card)}"
    return f"a {card} card" if card not in BOARD.instrument_names else f"a {_instrument(card)} card"


def _equipment(cards) -> str:
    counted = {card: list(cards).count(card) for card in dict.fromkeys(cards)}
    parts = [f"{n} cab ticket{'s' if n > 1 else ''}" if card == "ticket" else f"{n} {_instrument(card)}"
             for card, n in counted.items()]
    return listed(parts, "no cards")


def _game_started(e: dict) -> str:
    control = "; ".join(f"{seat} plays {_detective(d)}" for d, seat in e.get("control") or ())
    return (f"The game began with {listed(e['seats'])}, until turn {e['last_turn']} ({e['equipment']} equipment"
            + (", shared control" if e.get("shared_control") else "") + ")" + (f"; {control}" if control else ""))


def _lind_appeared(e: dict) -> str:
    return f"Lind appeared at {_place(e['location'])}" if "location" in e else "Lind appeared, unseen"


def _lind_moved(e: dict) -> str:
    stole = "; he stole a jewel" if e.get("stole", e.get("jewel_stolen")) else ""
    if "to" not in e:  # as the detectives see it
        left = "left a card on his route" if e.get("card_left") else "left no card"
        return f"Lind moved, unseen, and {left}{stole}"
    how = {"hide": "hid, his decoy at", "foot": "went on foot to", "cab": "took a cab to",
           "underground": "took the underground to"}.get(e["by"], f"moved by {e['by']} to")
    left = f", leaving {_card(e['card'])} behind" if e.get("card") else ""
    return f"Lind {how} {_place(e['to'])}{left}{stole}"


def _lind_moved_extraordinarily(e: dict) -> str:
    stole = "; he stole a jewel" if e.get("stole", e.get("jewel_stolen")) else ""
    if "to" not in e:
        return f"Lind answered the extraordinary trap, unseen{stole}"
    where = f"moved to {_place(e['to'])}" if e["to"] is not None else "stayed where he was"
    return f"Lind {where} after the extraordinary trap{stole}"


def _route_card(e: dict) -> str:
    where = "a hide card" if e.get("hide") else f"Lind's route card for {_place(e.get('location'))}"
    shown = f", with {_card(e['card'])} on it" if e.get("card_shown") and e.get("card") else ""
    return f"Route card {e['index'] + 1} was turned up: {where}{shown}"


def _trap_suffered(e: dict) -> str:
    effect = {"lose-next-action": "loses the next action", "discard-ticket": "discards a ticket"}.get(
        e["effect"], e["effect"])
    extra = "; Lind may move extraordinarily" if e.get("extraordinary") else ""
    return f"{_detective(e['detective'])} fell into {_trap(e['trap'])} on route card {e['index'] + 1} and {effect}{extra}"


def _handed_over(e: dict) -> str:
    control = "; ".join(f"{seat} plays {_detective(d)}" for d, seat in e.get("control") or ())
    return f"{e['seat']}'s detectives were handed over" + (f": {control}" if control else " to a bot")


_BY = {"foot": "on foot", "cab": "by cab", "underground": "by underground"}

SENTENCES = {
    "GameStarted": _game_started,
    "DetectiveEquipped": lambda e: f"{_detective(e['detective'])} was equipped with {_equipment(e['cards'])}",
    "DetectivePlaced": lambda e: f"{_detective(e['detective'])} was placed at {_place(e['location'])}",
    "LindAppeared": _lind_appeared,
    "LindMoved": _lind_moved,
    "LindMovedExtraordinarily": _lind_moved_extraordinarily,
    "DetectiveMoved": lambda e: f"{_detective(e['detective'])} went {_BY.get(e['by'], 'by ' + str(e['by']))} to "
                                f"{_place(e['to'])}",
    "InformationGathered": lambda e: f"{_detective(e['detective'])} gathered information with the "
                                     f"{_instrument(e['instrument'])}",
    "RouteCardRevealed": _route_card,
    "TrapDefused": lambda e: f"{_detective(e['detective'])} defused {_trap(e['trap'])} on route card {e['index'] + 1} "
                             f"with the {_instrument(e['instrument'])}",
    "TrapSuffered": _trap_suffered,
    "TurnEnded": lambda e: f"Turn {e['turn']} ended",
    "LindCaught": lambda e: (f"{_detective(e['detective'])} caught Lind at {_place(e['location'])}" if e.get("detective")
                             else f"Lind, with no move left, was caught at {_place(e['location'])}"),
    "LindWon": lambda e: {"jewels": "Lind won: he stole the jewels", "time": "Lind won: time ran out for the detectives"}
    .get(e["reason"], f"Lind won ({e['reason']})"),
    "LindResigned": lambda e: "Lind resigned: the detectives win",
    "DetectivesHandedOver": _handed_over,
}


# Legal commands in words, for the seat choosing one ------------------------

def _location(location) -> str:
    found = BOARD.locations.get(location)
    return f"location {location}, {found.name}" if found else f"location {location}"


def _move_lind(c: dict) -> str:
    how = {"foot": "Go on foot", "cab": "Take a cab", "underground": "Take the underground"}.get(c["by"], "Go")
    trap = f", leaving the trap {_trap(c['trap'])} behind" if c.get("trap") else ""
    return f"{how} to {_location(c['to'])}{trap}"


COMMAND_SENTENCES = {
    "PlaceDetective": lambda c: f"Place {_detective(c['detective'])} on {_location(c['location'])}",
    "EquipDetective": lambda c: f"Equip {_detective(c['detective'])} with {_equipment(c['cards'])}",
    "AppearLind": lambda c: f"Appear on {_location(c['location'])}",
    "MoveLind": _move_lind,
    "HideLind": lambda c: f"Hide where you are, with the decoy on {_location(c['decoy'])}",
    "MoveLindExtraordinarily": lambda c: f"Flee on foot to {_location(c['to'])}",
    "DeclineExtraordinaryMovement": lambda c: "Stay where you are",
    "MoveDetective": lambda c: f"Move {_detective(c['detective'])} {_BY.get(c['by'], '')} to {_location(c['to'])}",
    "GatherInformation": lambda c: f"Gather information with {_detective(c['detective'])}",
}
