"""What each viewer may see: the state (view) and each event (visible).

Hidden from other seats: hands, strategy cards (and the chosen one), the faces
of claimed regions, cards drawn by Scout, and every deck order. Public: dice,
the Coil, discard areas, and the counts of all cards (and in which area of its
strategy card, or the hand, each claimed region was placed: that is done in
sight). At the end the chosen strategy card and the claimed regions are turned
face up for everyone, with the scores; the session shows everything then."""

from __future__ import annotations

from ...engine import EVERYONE
from .battle import can_deploy
from .data import LAYOUT, NATION_IDS, card_json, nation_json, strategy_json
from .messages import (
    CardsDrawn, DeckShuffled, RegionsClaimed, Scouted, StrategyChosen, StrategyDeckShuffled, StrategyDrawn,
    Strategized,
)
from .scoring import CATEGORIES, category_totals, points
from .state import State


def _sees(viewer: str | None, seat: str) -> bool:
    return viewer == EVERYONE or viewer == seat


def _seat_view(state: State, seat: str, viewer: str | None) -> dict:
    i = state.index(seat)
    claims = state.claims(seat)
    x, y = _anchor(state, i)
    nation = state.nation_of(seat)
    seated = None not in state.nations  # (every nation chosen or dealt: from the deal on)
    data = {
        "seat": seat,
        "x": x,
        "y": y,
        "nation": nation_json(nation) if nation else None,
        "western_border": state.west_of(seat) if seated else None,
        "eastern_border": state.east_of(seat) if seated else None,
        "reserves": list(state.reserve(seat)),
        "population": state.population(seat),
        "hand_count": len(state.hand(seat)),
        "strategy_count": len(state.strategies[i]),
        "claimed_counts": {
            area: sum(1 for _, where in claims if where == area) for area in ("west", "home", "east")
        },
        "hand": None,
        "strategies": None,
        "chosen_strategy": None,
        "claimed": None,
    }
    if _sees(viewer, seat):
        data["hand"] = [card_json(card) for card in state.hand(seat)]
        data["strategies"] = [strategy_json(card) for card in state.strategies[i]]
    if _sees(viewer, seat) or state.phase == "over":
        # At the end the chosen strategy card is turned face up with the claimed regions.
        data["chosen_strategy"] = state.chosen[i]
        data["claimed"] = [{"area": area, "card": card_json(card)} for card, area in claims]
    return data


def _anchor(state: State, position: int) -> tuple[int, int]:
    """Where the nation card at this place around the table sits (layout in
    data.json); with two players the neutral nation is the third place."""
    places = len(state.seats) + (1 if len(state.seats) == 2 else 0)
    x, y = LAYOUT["table"][str(places)][position]
    return x, y


def _neutral(state: State) -> dict | None:
    if not state.neutral:
        return None
    x, y = _anchor(state, len(state.seats))
    return {**nation_json(state.neutral), "x": x, "y": y}


def _coil_view(state: State) -> list[dict]:
    regions = []
    dx, dy = LAYOUT["region_offset"]
    ax, ay = LAYOUT["regions_above_nation"]
    table = state.table()
    for nation in table:
        x, y = _anchor(state, table.index(nation))
        for position, region in enumerate(r for r in state.coil if r.nation == nation):
            regions.append({
                "card": card_json(region.card),
                "position": position,
                "x": x + ax + position * dx,
                "y": y + ay + position * dy,
                "full": region.full,
                "dice": [{"seat": seat, "value": value} for seat, value in region.dice],
            })
    return regions


def view(state: State, viewer: str | None) -> dict:
    current = state.current()
    data = {
        "phase": state.phase,
        "round": state.round,
        "northern_die": state.round,
        "to_act": sorted(state.to_act()),
        "current": current,
        "seats": [_seat_view(state, seat, viewer) for seat in state.seats],
        # The viewer's tactics, by id, as a client draws his hand (shapes.HAND).
        "hand": list(state.hand(viewer)) if viewer in state.seats else None,
        "neutral": _neutral(state),
        "layout": {key: LAYOUT[key] for key in ("card", "slot_positions", "arrow_slot", "northern_die")},
        "decks": [
            {"nation": nation, "count": len(state.deck(nation)), "discard": [card_json(c) for c in state.discard(nation)]}
            for nation in state.table()
        ],
        "coil": _coil_view(state),
        "strategy_deck_count": len(state.strategy_deck),
        "turn_order": list(state.order),
        "nation_choice": None,
        "escalation": None,
        "battle": None,
        "scores": None,
    }
    if state.phase == "nations" and current:
        data["nation_choice"] = {
            "seat": current, "available": [nation_json(n) for n in NATION_IDS if n not in state.nations],
        }
    if state.phase == "escalation" and current:
        data["escalation"] = {"seat": current, "actions_left": state.actions_left}
    if state.phase == "battle" and current:
        data["battle"] = {
            "seat": current,
            "had_turn": list(state.had_turn),
            "acted": state.acted,
            "deployed": state.deployed,
            "stop_allowed": state.stop_allowed(),
            "must_deploy": current not in state.had_turn and not state.deployed and can_deploy(state, current),
            "ability_used": list(state.shifted),
        }
    if state.phase == "over":
        totals = category_totals(state)
        earned = points(state)
        data["scores"] = [
            {
                "seat": seat,
                "strategy": strategy_json(state.strategy(seat)),
                "total": sum(earned[seat].values()),
                "categories": [
                    {"category": c, "total": totals[c][seat], "points": earned[seat][c]} for c in CATEGORIES
                ],
            }
            for seat in state.seats
        ]
    return data


def _hide(data: dict, key: str) -> None:
    value = data[key]
    data[key] = [None] * len(value) if isinstance(value, list) else None


def visible(event, viewer: str | None) -> dict:
    data = event.to_json()
    if viewer == EVERYONE:
        return data
    if isinstance(event, (DeckShuffled, StrategyDeckShuffled)):
        _hide(data, "cards")
    elif isinstance(event, (StrategyDrawn, Strategized, StrategyChosen)) and viewer != event.seat:
        _hide(data, "card")
    elif isinstance(event, CardsDrawn) and viewer != event.seat:
        _hide(data, "cards")
    elif isinstance(event, Scouted) and viewer != event.seat:
        _hide(data, "card")
    elif isinstance(event, RegionsClaimed) and viewer != event.seat:
        data["regions"] = [[None, area] for _, area in event.regions]
    return data


