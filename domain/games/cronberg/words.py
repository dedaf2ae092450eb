"""Cronberg's events in words, for a game log: one sentence per event type,
made from the event as a viewer may see it (``visible``), never from the
event itself, so a sentence can tell no more than the dict it is made from."""

from __future__ import annotations

from ...words import count, listed

KIND_NAMES = {"plain": "a plain triangle", "park": "a Park", "musketeer": "a Musketeer", "coat_of_arms": "a Coat of Arms"}


def _round_started(e: dict) -> str:
    size = e["stack_size"] if "stack_size" in e else len(e.get("stack") or ())
    return f"Round {e['round']} began with {count(size, 'building')} in the stack; {e['starter']} starts"


def _round_ended(e: dict) -> str:
    return f"Round {e['round']} ended; the scores stand at {', '.join(str(s) for s in e['scores'])}"


SENTENCES = {
    "GameSetUp": lambda e: f"The game was set up for {listed(e['seats'])} over {count(e['rounds'], 'round')}",
    "RoundStarted": _round_started,
    "BuildingDrawn": lambda e: f"{e['seat']} drew building {e['tile']}",
    "BuildingPlaced": lambda e: (f"{e['seat']} laid building {e['tile']} on {listed(e['triangles'])}"
                                 + (", turned" if e.get("turned") else "")),
    "TriangleEnclosed": lambda e: f"{e['triangle']}, {KIND_NAMES.get(e['kind'], e['kind'])}, was enclosed",
    "MemberDrivenOut": lambda e: f"{e['seat']}'s family member was driven out of {e['crossing']}",
    "MemberScored": lambda e: (f"{e['seat']}'s family member on {e['crossing']} scored {e['points']}"
                               + (" at the end of the round" if e.get("at_end") else "")),
    "MemberPlaced": lambda e: f"{e['seat']} placed a family member on {e['crossing']}",
    "TurnPassed": lambda e: f"{e['seat']} passed",
    "TurnBegan": lambda e: f"{e['seat']}'s turn began",
    "RoundEnded": _round_ended,
    "GameEnded": lambda e: f"The game ended: {listed(e['winners'])} won with {count(e['points'], 'point')}",
}


# Each legal command in words, for people, from the command's JSON (seats as
# seat ids: the API puts the players' names in their place).

def _place_building(c: dict) -> str:
    return f"Lay the drawn building on {listed(c['triangles'])}" + (", turned" if c.get("turned") else "")


COMMAND_SENTENCES = {
    "DrawBuilding": lambda c: "Draw a building",
    "PlaceBuilding": _place_building,
    "PlaceMember": lambda c: f"Place a family member on {c['crossing']}",
}
