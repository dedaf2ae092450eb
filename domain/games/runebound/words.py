"""Runebound's events in words, for a game log: one sentence per event type,
made from the event as a viewer may see it (``visible``): another hero's
secret combat action is "an action" until the phase is fought."""

from __future__ import annotations

from ...words import count, listed
from . import data


def _deck(deck) -> str:
    return str(deck).replace("crown_", "Crown ").replace("_", " ") + " deck"


def _started(e: dict) -> str:
    decks = e.get("decks") or {}
    sizes = ", ".join(f"{_deck(name)} {len(cards) if isinstance(cards, list) else cards}" for name, cards in decks.items())
    heroes = f"; heroes {listed(e['heroes'])}" if e.get("heroes") else "; each seat chooses a hero"
    doom = f"; doom after round {e['doom_rounds']}" if e.get("doom_rounds") else ""
    return f"The game began with {listed(e['seats'])}{heroes}{doom}" + (
        f"; decks: {sizes}" if sizes else "")


def _combat(e: dict) -> str:
    foe = e.get("enemy") or e.get("opponent") or "an enemy"
    allies = f" with {listed(e['allies'])}" if e.get("allies") else ""
    theirs = f" (with {listed(e['opponent_allies'])})" if e.get("opponent_allies") else ""
    return f"{e['seat']} began a combat{allies} against {foe}{theirs}"


def _struck(e: dict) -> str:
    dice = " + ".join(map(str, e.get("dice") or ()))
    result = f"hit for {e['damage']}" if e.get("hit") else "missed"
    return f"{e['seat']} struck in the {e['phase']} phase: {dice}, total {e['total']} against {e['needed']}, {result}"


def _suffered(e: dict) -> str:
    ally = f"; {e['ally']} took {count(e['ally_wounds'], 'wound')}" if e.get("ally") else ""
    return f"{e['seat']} suffered {count(e['wounds'], 'wound')} and {e['exhaustion']} exhaustion{ally}"


def _endgame(e: dict) -> str:
    levels = ", ".join(f"{s} level {lvl}" for s, lvl in zip(e.get("challengers") or (), e.get("levels") or ()))
    return f"The Endgame began: {e['king']} claims the crown" + (f"; challengers {levels}" if levels else "")


SENTENCES = {
    "GameStarted": _started,
    "HeroChosen": lambda e: f"{e['seat']} chose {e['hero']}",
    "TurnBegan": lambda e: f"{e['seat']}'s turn began (round {e['round']}), with {e['movement']} movement",
    "Moved": lambda e: f"{e['seat']} moved to {e['place']}",
    "AdventureSkipped": lambda e: f"{e['seat']} passed up the adventure",
    "CardDrawn": lambda e: f"{e['seat']} drew {e['card']} from the {_deck(e['deck'])}",
    "CardDiscarded": lambda e: f"{e['card']} was discarded",
    "CountersReplenished": lambda e: f"Adventure counters returned to {listed(e['places'], 'no place')}",
    "EncounterResolved": lambda e: f"{e['seat']} faced {e['card']}, rolled {' + '.join(map(str, e.get('dice') or ()))} "
                                   + ("and passed" if e.get("passed") else "and failed"),
    "EventResolved": lambda e: f"The event {e['card']} took effect",
    "CombatBegan": _combat,
    "RoundBegan": lambda e: f"A new combat round began for {e['seat']} against {e['enemy']}",
    "ActionDeclared": lambda e: f"{e['seat']} declared " + (f"to {e['action']}" if e.get("action") else "an action"),
    "Struck": _struck,
    "Suffered": _suffered,
    "PhaseEnded": lambda e: f"The {e['phase']} phase of round {e['round']} ended",
    "EnemyDefeated": lambda e: f"{e['seat']} defeated {e['card']} and gained {e['gold']} gold",
    "Retreated": lambda e: f"{e['seat']} retreated",
    "CardReturned": lambda e: f"{e['card']} went back into the {_deck(e['deck'])}",
    "HeroKnockedOut": lambda e: f"{e['seat']} was knocked out, lost {e['gold_lost']} gold and woke at {e['place']}",
    "Healed": lambda e: f"{e['seat']} healed {count(e['wounds'], 'wound')} for {e['gold']} gold",
    "Bought": lambda e: f"{e['seat']} bought {e['card']} for {e['gold']} gold",
    "ItemUsed": lambda e: f"{e['seat']} used {e['item']}" + (f", healing {e['healed']}" if e.get("healed") else ""),
    "ExperienceGained": lambda e: f"{e['seat']} gained {e['kind']} experience for {listed(e['spent'], 'nothing')} counters",
    "TurnEnded": lambda e: f"{e['seat']}'s turn ended",
    "DoomFell": lambda e: f"Doom fell in round {e['round']}: " + (
        "no adventure is left" if e.get("reason") == "no_adventure_left" else "nobody was crowned in time"),
    "EndgameBegan": _endgame,
    "ElderKingCrowned": lambda e: f"{e['seat']} was crowned Elder King" + (
        f", discarding {listed(e['discarded'])}" if e.get("discarded") else ""),
    "VassalPlaced": lambda e: f"{e['seat']} placed the vassal {e['vassal']}",
    "VassalsPlaced": lambda e: f"{e['seat']} placed every vassal",
    "ConfrontationBegan": lambda e: f"{e['seat']} confronted the Elder King",
    "VassalDefeated": lambda e: f"{e['seat']} defeated the vassal {e['vassal']}",
    "HeroEliminated": lambda e: f"{e['seat']} was eliminated",
    "GameWon": lambda e: f"{e['seat']} won the game",
}


# Legal commands in words, for the seat choosing one ------------------------

def _buy(c: dict) -> str:
    card = data.MARKET.get(c["card"], {})
    verb = "Hire" if card.get("type") == "ally" else "Buy"
    return f"{verb} {c['card']}" + (f" for {card['cost']} gold" if "cost" in card else "")


def _use_item(c: dict) -> str:
    heal = data.MARKET.get(c["item"], {}).get("heal")
    return f"Use {c['item']}" + (f" to heal {count(heal, 'wound')}" if heal else "")


COMMAND_SENTENCES = {
    "ChooseHero": lambda c: f"Choose the hero {c['hero']}",
    "MoveTo": lambda c: f"Move to {c['place']}",
    "Adventure": lambda c: "Attempt the adventure where you stand",
    "SkipAdventure": lambda c: "Leave the adventure where it lies",
    "Attack": lambda c: "Attack in this combat phase",
    "Defend": lambda c: "Defend in this combat phase",
    "Retreat": lambda c: "Retreat from the combat",
    "Heal": lambda c: f"Pay {data.HEAL_COST} gold to heal a wound",
    "Buy": _buy,
    "UseItem": _use_item,
    "GainExperience": lambda c: f"Spend adventure counters to raise your {str(c['kind']).capitalize()}",
    "EndTurn": lambda c: "End your turn",
    "PlaceVassal": lambda c: f"Place the Vassal {c['vassal']} next in your line",
    "FinishPlacing": lambda c: "Finish placing your Vassals",
}
