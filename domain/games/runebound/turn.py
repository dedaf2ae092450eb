"""A hero's turn in the compact Runebound core: refresh, movement, adventure,
market (in a town) and experience; the Crown of the Elder Kings replacement of
drawn encounters and events; the Endgame check after the Experience step."""

from __future__ import annotations

from ...engine import IllegalCommand
from ...kit import Draft
from . import data
from . import messages as m
from .combat import knock_out, knocked_out
from .dice import dice, movement
from .endgame import allies_ready, begin_endgame, has_set


def begin_turn(draft: Draft, seat: str, round_: int) -> None:
    draft.emit(m.TurnBegan(seat=seat, round=round_, movement=movement(draft)))


def choose_hero(draft: Draft, seat: str, name: str) -> None:
    """Heroes are chosen in seat order; the first turn begins once all have chosen."""
    if name not in data.HEROES:
        raise IllegalCommand(f"there is no hero called {name!r}; the heroes are {', '.join(data.HEROES)}")
    if any(hero.name == name for hero in draft.state.heroes):
        raise IllegalCommand(f"{name} has already been chosen")
    draft.emit(m.HeroChosen(seat=seat, hero=name))
    if len(draft.state.heroes) == len(draft.state.seats):
        begin_turn(draft, draft.state.seats[0], 1)


def move(draft: Draft, seat: str, place: str) -> None:
    hero = draft.state.hero(seat)
    if place not in data.PLACES:
        raise IllegalCommand(f"there is no place called {place!r}")
    if place not in data.reachable(hero.place, draft.state.movement):
        raise IllegalCommand(f"{place} is more than {draft.state.movement} steps from {hero.place}")
    draft.emit(m.Moved(seat=seat, place=place))


def adventure_deck(state, seat: str) -> str | None:
    """The deck an adventure where the hero stands would draw from first, or None if it cannot be attempted."""
    return deck_at(state, state.hero(seat).place)


def deck_at(state, place: str) -> str | None:
    """The deck an adventure at ``place`` would draw from first, or None if it cannot be attempted."""
    if place not in state.counters:
        return None
    colour = data.PLACES[place]["counter"]
    if colour == "blue":
        return "crown_blue" if state.deck("crown_blue") else None
    if state.deck(colour):
        return colour
    crown = data.CROWN_OF.get(colour)
    return crown if crown and state.deck(crown) else None


def attempt_adventure(draft: Draft, seat: str) -> None:
    deck = adventure_deck(draft.state, seat)
    if deck is None:
        raise IllegalCommand("there is no adventure you can attempt here")
    while True:
        card = draft.state.deck(deck)[0]
        draft.emit(m.CardDrawn(seat=seat, deck=deck, card=card))
        kind = data.CARDS[card]["kind"]
        if kind == "challenge" or deck not in data.CROWN_OF:
            return resolve(draft, seat, card)
        # A Runebound encounter or event is discarded unresolved (an event still replenishes)
        if kind == "event":
            replenish(draft)
        draft.emit(m.CardDiscarded(card=card))
        crown = data.CROWN_OF[deck]
        if draft.state.deck(crown):
            replacement = draft.state.deck(crown)[0]
            draft.emit(m.CardDrawn(seat=seat, deck=crown, card=replacement))
            return resolve(draft, seat, replacement)
        if not draft.state.deck(deck):  # both decks exhausted: the adventure comes to nothing
            draft.emit(m.AdventureSkipped(seat=seat))
            return


def replenish(draft: Draft) -> None:
    draft.emit(m.CountersReplenished(places=tuple(p for p in data.STARBURSTS if p not in draft.state.counters)))


def resolve(draft: Draft, seat: str, card: str) -> None:
    info = data.CARDS[card]
    if info["kind"] == "challenge":
        draft.emit(m.CombatBegan(seat=seat, enemy=card, opponent=None,
                             allies=allies_ready(draft.state.hero(seat)), opponent_allies=()))
        return
    if info["kind"] == "event":
        replenish(draft)
        draft.emit(m.EventResolved(seat=seat, card=card))
        for other in draft.state.in_play:
            if knocked_out(draft.state, other):
                knock_out(draft, other)
        return
    test = info.get("test")
    rolled: tuple[int, ...] = ()
    passed = True
    if test:
        rolled = dice(draft)
        passed = sum(rolled) + draft.state.hero(seat).stat(test["stat"]) >= test["target"]
    draft.emit(m.EncounterResolved(seat=seat, card=card, dice=rolled, passed=passed))
    if knocked_out(draft.state, seat):
        knock_out(draft, seat)


def heal(draft: Draft, seat: str) -> None:
    hero = draft.state.hero(seat)
    if hero.place not in data.TOWNS:
        raise IllegalCommand("you can only heal in a town's market")
    if hero.wounds == 0:
        raise IllegalCommand("your hero has no wounds to heal")
    if hero.gold < data.HEAL_COST:
        raise IllegalCommand(f"healing a wound costs {data.HEAL_COST} gold; you have {hero.gold}")
    draft.emit(m.Healed(seat=seat, wounds=1, gold=data.HEAL_COST))


def buy(draft: Draft, seat: str, card: str) -> None:
    hero = draft.state.hero(seat)
    if hero.place not in data.TOWNS:
        raise IllegalCommand("you can only buy in a town's market")
    if card not in draft.state.market:
        raise IllegalCommand(f"{card!r} is not for sale in the market")
    cost = data.MARKET[card]["cost"]
    if hero.gold < cost:
        raise IllegalCommand(f"{card} costs {cost} gold; you have {hero.gold}")
    draft.emit(m.Bought(seat=seat, card=card, gold=cost))


def use_item(draft: Draft, seat: str, item: str) -> None:
    hero = draft.state.hero(seat)
    if item not in hero.items or "heal" not in data.MARKET.get(item, {}):
        raise IllegalCommand(f"you have no item {item!r} that can be used")
    if item in hero.exhausted:
        raise IllegalCommand(f"{item} is exhausted until your next refresh")
    if hero.wounds == 0:
        raise IllegalCommand("your hero has no wounds to heal")
    draft.emit(m.ItemUsed(seat=seat, item=item, healed=min(hero.wounds, data.MARKET[item]["heal"])))


def gain_experience(draft: Draft, seat: str, kind: str) -> None:
    hero = draft.state.hero(seat)
    if kind not in data.EXPERIENCE_KINDS:
        raise IllegalCommand(f"experience counters are {', '.join(data.EXPERIENCE_KINDS)}, not {kind!r}")
    if hero.xp < data.XP_PER_EXPERIENCE:
        raise IllegalCommand(f"an experience counter costs {data.XP_PER_EXPERIENCE} experience; "
                             f"your adventure counters are worth {hero.xp}")
    spent: list[str] = []
    for colour in hero.counters:
        if sum(data.XP_VALUE[c] for c in spent) >= data.XP_PER_EXPERIENCE:
            break
        spent.append(colour)
    draft.emit(m.ExperienceGained(seat=seat, kind=kind, spent=tuple(spent)))


def end_turn(draft: Draft, seat: str) -> None:
    """After the Experience step: the Endgame begins if the hero holds a set; else the next turn."""
    draft.emit(m.TurnEnded(seat=seat))
    if has_set(draft.state.hero(seat)):
        begin_endgame(draft, seat)
        return
    seats = draft.state.seats
    index = (seats.index(seat) + 1) % len(seats)
    round_ = draft.state.round + (1 if index == 0 else 0)
    if draft.state.doom_rounds and round_ > draft.state.doom_rounds:
        draft.emit(m.DoomFell(round=round_))
        return
    if not any(deck_at(draft.state, place) for place in draft.state.counters):
        # Stand-in: the decks are finite; with no adventure left anywhere nothing can change any more.
        draft.emit(m.DoomFell(round=round_, reason="no_adventure_left"))
        return
    begin_turn(draft, seats[index], round_)
