"""What a seat may see: everything on the table. Deck orders stay hidden (counts only),
and so does a challenger's declared action in a combat between heroes until the phase
is fought (the Elder King answers without knowing it). The referee sees every event as
recorded. The shape of a view is declared in shapes.py."""

from __future__ import annotations

from ...engine import EVERYONE, Event
from . import data
from . import messages as m
from .legal import to_act
from .state import State


def board() -> dict:
    return {
        "places": [dict(place) for place in data.DATA["places"]],
        "edges": [list(edge) for edge in data.DATA["edges"]],
    }


def enemy_card(name: str) -> dict:
    card = data.CARDS[name]
    return {
        "name": name, "colour": card["colour"], "life": card["life"], "gold": card["gold"],
        "target": dict(card["target"]), "damage": dict(card["damage"]),
        "text": card.get("text", ""), "rank": card.get("rank"), "house": card.get("house"),
        "vassal": bool(card.get("vassal")), "dragon_lord": bool(card.get("dragon_lord")),
        "margath": bool(card.get("margath")),
    }


def market_card(name: str) -> dict:
    card = data.MARKET[name]
    bonus = card.get("bonus")
    return {
        "name": name, "type": card["type"], "cost": card["cost"],
        "bonus": dict(bonus) if bonus else None,
        "life": card.get("life", 0), "stamina": card.get("stamina", 0), "heal": card.get("heal", 0),
    }


def hero_card(name: str) -> dict:
    card = data.HEROES[name]
    return {**{key: card[key] for key in ("name", "life", "stamina", "mind", "body", "spirit", "gold")},
            **{phase: {"attack": card[phase][0], "damage": card[phase][1]} for phase in data.PHASES}}


def hero_view(state: State, seat: str) -> dict:
    hero = state.hero(seat)
    return {
        "seat": seat, "hero": hero.name, "place": hero.place, "gold": hero.gold,
        "wounds": hero.wounds, "exhaustion": hero.exhaustion,
        "life": hero.stat("life"), "stamina": hero.stat("stamina"),
        "mind": hero.stat("mind"), "body": hero.stat("body"), "spirit": hero.stat("spirit"),
        "level": hero.level, "experience": list(hero.experience),
        "adventure_counters": list(hero.counters), "xp": hero.xp,
        "items": list(hero.items),
        "allies": [{"name": ally.name, "wounds": ally.wounds} for ally in hero.allies],
        "exhausted": list(hero.exhausted),
        "trophies": list(hero.trophies), "vassals": list(hero.vassals),
        "dragon_lords": list(hero.dragon_lords), "eliminated": hero.eliminated,
    }


def hand(state: State, viewer: str | None) -> list | None:
    """The viewer's hero's cards by name, as a client draws his hand
    (shapes.HAND): his items, allies and Vassals (all face up for everyone);
    empty until he has a hero, null for a viewer with no seat."""
    if viewer not in state.seats:
        return None
    hero = next((hero for hero in state.heroes if hero.seat == viewer), None)
    if hero is None:
        return []
    return [*hero.items, *(ally.name for ally in hero.allies), *hero.vassals]


def view(state: State, viewer: str | None) -> dict:
    combat = state.combat
    endgame = state.endgame
    return {
        "board": board(),
        "round": state.round,
        "doom_rounds": state.doom_rounds,
        "active": state.active,
        "step": state.step,
        "movement": state.movement,
        "to_act": sorted(to_act(state)),
        "heroes": [hero_view(state, hero.seat) for hero in state.heroes],
        "hand": hand(state, viewer),
        "hero_cards": [hero_card(name) for name in data.HEROES],
        "counters": [{"place": place, "colour": data.PLACES[place]["counter"]} for place in state.counters],
        "decks": {name: len(cards) for name, cards in state.decks},
        "discards": list(state.discards),
        "market": [market_card(name) for name in state.market],
        "combat": None if combat is None else {
            "seat": combat.seat, "enemy": combat.enemy, "opponent": combat.opponent,
            "enemy_card": enemy_card(combat.enemy) if combat.enemy else None,
            "enemy_wounds": combat.enemy_wounds, "phase": combat.phase, "round": combat.round,
            "allies": list(combat.allies), "opponent_allies": list(combat.opponent_allies),
            "has_declared": combat.declared is not None,
            # The challenger's declared action stays secret until the phase is fought.
            "declared": combat.declared if viewer in (combat.seat, EVERYONE) else None,
        },
        "endgame": None if endgame is None else {
            "king": endgame.king, "challengers": list(endgame.challengers),
            "line": [{"vassal": v, "wounds": w, "card": enemy_card(v)} for v, w in endgame.line],
            "placing": endgame.placing, "last_king": endgame.last_king,
            "eliminated": list(endgame.eliminated),
        },
        "winner": state.winner,
        "result": state.result,
    }


def outcome(state: State | None) -> str | None:
    return state.result if state is not None else None


def visible(event: Event, viewer: str | None) -> dict:
    data_ = event.to_json()
    if viewer == EVERYONE:
        return data_
    if isinstance(event, m.GameStarted):
        # Deck orders are hidden from everyone; their sizes are public.
        data_["decks"] = {name: len(cards) for name, cards in event.decks.items()}
    if isinstance(event, m.ActionDeclared) and viewer != event.seat:
        data_["action"] = None  # secret until the phase is fought
    return data_
