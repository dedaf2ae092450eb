"""A hero's turn in the compact Runebound core: refresh, movement, adventure,
market (in a town) and experience; the Crown of the Elder Kings replacement of
drawn encounters and events; the Endgame check after the Experience step."""

from __future__ import annotations

from ...engine import IllegalCommand
from . import data
from . import messages as m
from .builder import Builder
from .combat import knock_out, knocked_out
from .endgame import allies_ready, begin_endgame, has_set


def begin_turn(b: Builder, seat: str, round_: int) -> None:
    b.emit(m.TurnBegan(seat=seat, round=round_, movement=b.rng.choice(data.MOVEMENT_DIE)))


def choose_hero(b: Builder, seat: str, name: str) -> None:
    """Heroes are chosen in seat order; the first turn begins once all have chosen."""
    if name not in data.HEROES:
        raise IllegalCommand(f"there is no hero called {name!r}; the heroes are {', '.join(data.HEROES)}")
    if any(hero.name == name for hero in b.state.heroes):
        raise IllegalCommand(f"{name} has already been chosen")
    b.emit(m.HeroChosen(seat=seat, hero=name))
    if len(b.state.heroes) == len(b.state.seats):
        begin_turn(b, b.state.seats[0], 1)


def move(b: Builder, seat: str, place: str) -> None:
    hero = b.state.hero(seat)
    if place not in data.PLACES:
        raise IllegalCommand(f"there is no place called {place!r}")
    if place not in data.reachable(hero.place, b.state.movement):
        raise IllegalCommand(f"{place} is more than {b.state.movement} steps from {hero.place}")
    b.emit(m.Moved(seat=seat, place=place))


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


def attempt_adventure(b: Builder, seat: str) -> None:
    deck = adventure_deck(b.state, seat)
    if deck is None:
        raise IllegalCommand("there is no adventure you can attempt here")
    while True:
        card = b.state.deck(deck)[0]
        b.emit(m.CardDrawn(seat=seat, deck=deck, card=card))
        kind = data.CARDS[card]["kind"]
        if kind == "challenge" or deck not in data.CROWN_OF:
            return resolve(b, seat, card)
        # A Runebound encounter or event is discarded unresolved (an event still replenishes)
        if kind == "event":
            replenish(b)
        b.emit(m.CardDiscarded(card=card))
        crown = data.CROWN_OF[deck]
        if b.state.deck(crown):
            replacement = b.state.deck(crown)[0]
            b.emit(m.CardDrawn(seat=seat, deck=crown, card=replacement))
            return resolve(b, seat, replacement)
        if not b.state.deck(deck):  # both decks exhausted: the adventure comes to nothing
            b.emit(m.AdventureSkipped(seat=seat))
            return


def replenish(b: Builder) -> None:
    b.emit(m.CountersReplenished(places=tuple(p for p in data.STARBURSTS if p not in b.state.counters)))


def resolve(b: Builder, seat: str, card: str) -> None:
    info = data.CARDS[card]
    if info["kind"] == "challenge":
        b.emit(m.CombatBegan(seat=seat, enemy=card, opponent=None,
                             allies=allies_ready(b.state.hero(seat)), opponent_allies=()))
        return
    if info["kind"] == "event":
        replenish(b)
        b.emit(m.EventResolved(seat=seat, card=card))
        for other in b.state.in_play:
            if knocked_out(b.state, other):
                knock_out(b, other)
        return
    test = info.get("test")
    dice: tuple[int, ...] = ()
    passed = True
    if test:
        dice = b.dice()
        passed = sum(dice) + b.state.hero(seat).stat(test["stat"]) >= test["target"]
    b.emit(m.EncounterResolved(seat=seat, card=card, dice=dice, passed=passed))
    if knocked_out(b.state, seat):
        knock_out(b, seat)


def heal(b: Builder, seat: str) -> None:
    hero = b.state.hero(seat)
    if hero.place not in data.TOWNS:
        raise IllegalCommand("you can only heal in a town's market")
    if hero.wounds == 0:
        raise IllegalCommand("your hero has no wounds to heal")
    if hero.gold < data.HEAL_COST:
        raise IllegalCommand(f"healing a wound costs {data.HEAL_COST} gold; you have {hero.gold}")
    b.emit(m.Healed(seat=seat, wounds=1, gold=data.HEAL_COST))


def buy(b: Builder, seat: str, card: str) -> None:
    hero = b.state.hero(seat)
    if hero.place not in data.TOWNS:
        raise IllegalCommand("you can only buy in a town's market")
    if card not in b.state.market:
        raise IllegalCommand(f"{card!r} is not for sale in the market")
    cost = data.MARKET[card]["cost"]
    if hero.gold < cost:
        raise IllegalCommand(f"{card} costs {cost} gold; you have {hero.gold}")
    b.emit(m.Bought(seat=seat, card=card, gold=cost))


def use_item(b: Builder, seat: str, item: str) -> None:
    hero = b.state.hero(seat)
    if item not in hero.items or "heal" not in data.MARKET.get(item, {}):
        raise IllegalCommand(f"you have no item {item!r} that can be used")
    if item in hero.exhausted:
        raise IllegalCommand(f"{item} is exhausted until your next refresh")
    if hero.wounds == 0:
        raise IllegalCommand("your hero has no wounds to heal")
    b.emit(m.ItemUsed(seat=seat, item=item, healed=min(hero.wounds, data.MARKET[item]["heal"])))


def gain_experience(b: Builder, seat: str, kind: str) -> None:
    hero = b.state.hero(seat)
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
    b.emit(m.ExperienceGained(seat=seat, kind=kind, spent=tuple(spent)))


def end_turn(b: Builder, seat: str) -> None:
    """After the Experience step: the Endgame begins if the hero holds a set; else the next turn."""
    b.emit(m.TurnEnded(seat=seat))
    if has_set(b.state.hero(seat)):
        begin_endgame(b, seat)
        return
    seats = b.state.seats
    index = (seats.index(seat) + 1) % len(seats)
    round_ = b.state.round + (1 if index == 0 else 0)
    if b.state.doom_rounds and round_ > b.state.doom_rounds:
        b.emit(m.DoomFell(round=round_))
        return
    if not any(deck_at(b.state, place) for place in b.state.counters):
        # Stand-in: the decks are finite; with no adventure left anywhere nothing can change any more.
        b.emit(m.DoomFell(round=round_, reason="no_adventure_left"))
        return
    begin_turn(b, seats[index], round_)
