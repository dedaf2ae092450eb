"""The Coil's events in words, for a game log: one sentence per event type,
made from the event as a viewer may see it (``visible``): a card another
seat drew, scouted or chose is a card, not its name."""

from __future__ import annotations

from ...words import count, listed
from .data import CARDS, NATIONS, STRATEGIES, TACTICS


def _nation(nation) -> str:
    found = NATIONS.get(nation)
    return found.name if found else str(nation)


def _strategy(card) -> str:
    found = STRATEGIES.get(card)
    return found.name if found else str(card)


def _region(card) -> str:
    """A homeland card as card_names.json names it, without its tactic: "Dedran 3"."""
    found = CARDS.get(card)
    return f"{_nation(found.nation)} {int(card.rsplit('-', 1)[1])}" if found else str(card)


def _tactic_card(card) -> str:
    found = CARDS.get(card)
    return f"{TACTICS[found.tactic].name} ({_region(card)})" if found else str(card)


def _cards(cards) -> str:
    cards = list(cards or ())
    if any(card is None for card in cards):
        return count(len(cards), "card")
    return f"{count(len(cards), 'card')} ({listed(map(_region, cards))})" if cards else "no card"


def _started(e: dict) -> str:
    nations = (f"; nations dealt: {listed(f'{s} {_nation(n)}' for s, n in zip(e['seats'], e['nations']))}"
               if e.get("nations") else "; each seat chooses a nation")
    neutral = f"; {_nation(e['neutral'])} is neutral" if e.get("neutral") else ""
    return f"The game began with {listed(e['seats'])}{nations}{neutral}"


def _strategy_of(verb: str, hidden: str):
    def sentence(e: dict) -> str:
        return f"{e['seat']} {verb} " + (f"the strategy card {_strategy(e['card'])}" if e.get("card") else hidden)

    return sentence


def _scouted(e: dict) -> str:
    looked = f"looked at {_region(e['card'])}" if e.get("card") else "looked at a card"
    flipped = f" and flipped {_region(e['flipped'])} into the Coil" if e.get("flipped") else ""
    return f"{e['seat']} scouted {_nation(e['nation'])}'s deck: {looked}{flipped}"


def _mustered(e: dict) -> str:
    fixed = f", one set to {e['fixed']}" if e.get("fixed") is not None else ""
    return f"{e['seat']} mustered {count(len(e['values']), 'die', 'dice')}: {', '.join(map(str, e['values']))}{fixed}"


def _tactic(e: dict) -> str:
    dice = f" on {', '.join(map(str, e['dice']))}" if e.get("dice") else ""
    value = f", making {e['value']}" if e.get("value") is not None else ""
    return f"{e['seat']} played {_tactic_card(e['card'])}{dice}{value}"


_AREAS = {"west": "to the western area", "home": "to the home area", "east": "to the eastern area",
          "hand": "into the hand"}


def _claimed(e: dict) -> str:
    regions = e.get("regions") or ()
    named = listed(((f"{_region(card) if card else 'a region'} {_AREAS.get(area, area)}") for card, area in regions),
                   "nothing")
    return f"{e['seat']} claimed {named}"


def _returned(e: dict) -> str:
    kept = e.get("kept") or ()
    return "The dice left the Coil" + (f"; kept: {listed(f'{seat} {value}' for seat, value in kept)}" if kept else "")


SENTENCES = {
    "GameStarted": _started,
    "NationChosen": lambda e: f"{e['seat']} chose {_nation(e['nation'])}",
    "NeutralNationDrawn": lambda e: f"{_nation(e['nation'])} was drawn as the neutral nation",
    "DeckShuffled": lambda e: f"{_nation(e['nation'])}'s homeland deck was shuffled ({count(len(e['cards']), 'card')})",
    "StrategyDeckShuffled": lambda e: f"The strategy deck was shuffled ({count(len(e['cards']), 'card')})",
    "StrategyDrawn": _strategy_of("drew", "a strategy card"),
    "CardsDrawn": lambda e: f"{e['seat']} drew {_cards(e['cards'])} from {_nation(e['nation'])}'s deck",
    "RoundBegan": lambda e: f"Round {e['round']} began",
    "PhaseBegan": lambda e: f"The {e['phase']} phase began: {listed(e['seats'])}",
    "RegionFlipped": lambda e: (f"{e['seat']}" if e.get("seat") else "The neutral nation")
    + f" flipped {_region(e['card'])} from {_nation(e['nation'])}'s deck into the Coil",
    "DiceMustered": _mustered,
    "Recruited": lambda e: f"{e['seat']} recruited a die showing {e['value']}",
    "Scouted": _scouted,
    "Strategized": _strategy_of("took", "a strategy card"),
    "EscalationTurnEnded": lambda e: f"{e['seat']}'s Escalation turn ended",
    "ReservesRerolled": lambda e: f"{e['seat']} rerolled the reserves {count(e['attempts'], 'time')}: "
                                  + ", ".join(map(str, e["values"])),
    "DieDeployed": lambda e: f"{e['seat']} deployed a {e['value']} to {_region(e['region'])}",
    "TacticPlayed": _tactic,
    "DieShifted": lambda e: f"{e['seat']} shifted a {e['value']} " + ("up" if e.get("up") else "down"),
    "BattleTurnEnded": lambda e: f"{e['seat']}'s Battle turn ended",
    "Stopped": lambda e: f"{e['seat']} stopped",
    "RegionsClaimed": _claimed,
    "RegionsLeftPlay": lambda e: f"{_nation(e['nation'])} collected {_cards(e['cards'])}",
    "DiceReturned": _returned,
    "StrategyChosen": _strategy_of("chose", "a strategy card"),
    "GameEnded": lambda e: "The game ended",
}


# Legal commands in words, for the seat choosing one ------------------------

def _dice(values) -> str:
    return "your " + listed(map(str, values), "no die")


def _muster(c: dict) -> str:
    fixed = c.get("fixed")
    return "Muster your dice" + (f", one of them set to {fixed}" if fixed is not None else "")


def _play_tactic(c: dict) -> str:
    value = f", turning it to {c['value']}" if c.get("value") is not None else ""
    return f"Play {_tactic_card(c['card'])} on {_dice(c['dice'])}{value}"


def _place_regions(c: dict) -> str:
    regions = c.get("regions") or ()
    if not regions:
        return "Place no region on your strategy card: take them all into your hand"
    named = listed(_region(r) for r in regions)
    return f"Place the region{'s' if len(regions) > 1 else ''} {named} on your strategy card, the others into your hand"


COMMAND_SENTENCES = {
    "ChooseNation": lambda c: f"Choose the nation {_nation(c['nation'])}",
    "Expand": lambda c: "Flip the top card of your homeland deck into the Coil",
    "Muster": _muster,
    "Recruit": lambda c: "Recruit: roll one die of your population into your reserves",
    "Scout": lambda c: f"Scout {_nation(c['nation'])}'s homeland deck",
    "Strategize": lambda c: "Draw a strategy card",
    "EndEscalation": lambda c: "End your Escalation turn",
    "Deploy": lambda c: f"Deploy your {c['value']} on the region {_region(c['region'])}",
    "PlayTactic": _play_tactic,
    "ShiftDie": lambda c: f"{'Raise' if c['up'] else 'Lower'} your {c['value']} by 1",
    "EndTurn": lambda c: "End your turn",
    "Stop": lambda c: "Say Stop: end the Battle phase for everyone",
    "PlaceRegions": _place_regions,
    "ChooseStrategy": lambda c: f"Score with the strategy card {_strategy(c['card'])}",
}
