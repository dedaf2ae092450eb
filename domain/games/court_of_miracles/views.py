"""What each viewer may see: the per-seat view of the state and of each event.

Hidden: the kind of a face-down rogue (seen by its owner), a player's rogues
out of play and Plot hand (seen by that player), a drawn rogue and the rogues in
the Seine (seen by their owner), a player's answer on his Swordsmen until every
player asked has answered (seen by that player), the order of the Plot pile and of the bag
(nobody). Public: whose rogue lies where, revealed rogues of a Standoff, hand
sizes, supply sizes, the bag's and the pile's sizes, coins, Renown, the discards."""

from __future__ import annotations

from dataclasses import asdict

from . import messages as m
from .data import BOARD_JSON, CARDS_JSON, INDEX, LINES, NEIGHBOURHOODS
from .legal import to_act
from .state import State, totals
from ...engine import EVERYONE


def _sees(viewer, seat) -> bool:
    return viewer == EVERYONE or viewer == seat


def _player(state: State, seat: str, viewer) -> dict:
    p = state.player(seat)
    mine = _sees(viewer, seat)
    return {
        "seat": seat,
        "coins": p.coins,
        "hand_size": len(p.hand),
        "hand": list(p.hand) if mine else None,
        "supply_size": len(p.supply),
        "supply": list(p.supply) if mine else None,
        "right_hand_parked": p.right_hand_parked,
        "lines": list(p.lines),
        "controls": [n for n in INDEX if state.controller(n) == seat],
        "renown_placed": state.renown_placed(seat),
        "renown_left": CARDS_JSON["renown_tokens"] - state.renown_placed(seat),
    }


def _hand(state: State, viewer) -> list | None:
    """What a seat holds, as a client draws it (shapes.HAND): its Plot cards,
    its rogues out of play and the rogue it drew and has yet to keep or
    discard; null for a viewer who holds no seat."""
    if viewer not in state.seats:
        return None
    p = state.player(viewer)
    drawn = [state.drawn] if state.drawn is not None and viewer == state.active else []
    return [*p.hand, *p.supply, *drawn]


def _neighbourhood(state: State, index: int, viewer, data: dict) -> dict:
    n = NEIGHBOURHOODS[index]
    spots = []
    for spot, spot_data, occupant in zip(n.spots, data["spots"], state.board[index]):
        spots.append({
            "spot": spot.number, "effect": spot.effect, "amount": spot.amount,
            "x": spot_data["x"], "y": spot_data["y"],
            "owner": occupant[0] if occupant else None,
            "rogue": occupant[1] if occupant and _sees(viewer, occupant[0]) else None,
        })
    return {
        "id": n.id, "name": n.name, "action": n.action, "x": data["x"], "y": data["y"],
        "renown": data["renown"], "controller": state.controllers[index], "spots": spots,
    }


def _standoff(state: State, viewer) -> dict | None:
    st = state.standoff
    if st is None:
        return None
    return {
        "neighbourhood": st.neighbourhood,
        "rogues": [{"owner": o, "spot": s, "rogue": k} for o, s, k in st.rogues],
        "chariot": st.chariot,
        "awaiting": list(st.awaiting),
        "answered": [{"seat": s, "count": c if _sees(viewer, s) else None} for s, c in st.chosen],
        "paid": [{"seat": s, "count": c} for s, c in st.paid],
        "totals": [{"seat": s, "strength": v} for s, v in totals(st).items()] if st.won else [],
        "won": st.won,
        "winner": st.winner,
    }


def view(state: State, viewer) -> dict:
    s = state
    square = BOARD_JSON["renown_square"]["lines"]
    return {
        "to_act": sorted(to_act(s)),
        "phase": s.phase,
        "active": s.active,
        "seats": list(s.seats),
        "players": [_player(s, seat, viewer) for seat in s.seats],
        "hand": _hand(s, viewer),
        "reserve": s.reserve,
        "neighbourhoods": [_neighbourhood(s, i, viewer, d) for i, d in enumerate(BOARD_JSON["neighbourhoods"])],
        "renown_square": [
            {**{k: d[k] for k in ("line", "toll", "bonus", "amount", "x", "y")},
             "seats": [seat for seat in s.seats if line.line in s.player(seat).lines]}
            for line, d in zip(LINES, square)
        ],
        "king": {"space": s.king, "stopped": s.turn.king_stopped, "path": BOARD_JSON["king_path"]["spaces"]},
        "pile_size": len(s.pile),
        "discards": list(s.discards),
        "bag_size": len(s.bag),
        "seine_size": len(s.seine),
        "seine": list(s.seine) if viewer == EVERYONE else None,
        "drawn_rogue": s.drawn if s.drawn is not None and _sees(viewer, s.active) else None,
        "turn": asdict(s.turn),
        "standoffs": list(s.queue),
        "standoff": _standoff(s, viewer),
        "winners": list(s.winners),
        "end_reason": s.end_reason,
    }


# ----------------------------------------------------------------- events

_OWNED_ROGUE = (m.RoguePlaced, m.RogueDrawn, m.RogueDiscarded)


def visible(event, viewer) -> dict:
    data = event.to_json()
    if isinstance(event, m.PlotsDrawn):
        data["count"] = len(event.cards)
    if viewer == EVERYONE:
        return data
    if isinstance(event, m.GameSetUp):
        data["pile"], data["bag"] = None, None
        data["pile_size"], data["bag_size"] = len(event.pile), len(event.bag)
    elif isinstance(event, m.PlotPileReshuffled):
        data["pile"], data["pile_size"] = None, len(event.pile)
    elif isinstance(event, m.PlotsDrawn) and viewer != event.seat:
        data["cards"] = None
    elif isinstance(event, _OWNED_ROGUE) and viewer != event.seat:
        data["rogue"] = None
    elif isinstance(event, m.SwordsmenChosen) and viewer != event.seat:
        data["count"] = None
    return data


def outcome(state: State) -> str | None:
    if state is None or state.phase != "over":
        return None
    renown = state.renown_placed(state.winners[0])
    how = "placed all their Renown tokens" if state.end_reason == "renown" else (
        f"the Penniless King reached the end of his path; {renown} Renown tokens placed")
    if len(state.winners) == 1:
        return f"{state.winners[0]} wins: {how}"
    return f"{' and '.join(state.winners)} share the victory: {how}"
