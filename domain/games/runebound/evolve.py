"""The fold: ``evolve(state, event) -> state``. Never rolls, never raises on a stored event."""

from __future__ import annotations

from . import data
from . import messages as m
from .state import Ally, Combat, Endgame, Hero, State, replace


def _without(items: tuple, item) -> tuple:
    """``items`` with the first occurrence of ``item`` removed."""
    if item not in items:
        return items
    index = items.index(item)
    return items[:index] + items[index + 1:]


def suffer(hero: Hero, wounds: int, exhaustion: int) -> Hero:
    """Wounds and exhaustion; exhaustion beyond stamina becomes wounds."""
    total = hero.exhaustion + exhaustion
    stamina = hero.stat("stamina")
    overflow = max(0, total - stamina)
    return replace(hero, wounds=hero.wounds + wounds + overflow, exhaustion=min(total, stamina))


def apply_effect(hero: Hero, effect: dict) -> Hero:
    hero = replace(hero, gold=hero.gold + effect.get("gold", 0),
                   wounds=max(0, hero.wounds - effect.get("heal", 0)))
    return suffer(hero, effect.get("wounds", 0), effect.get("exhaustion", 0))


def first_phase(enemy: str | None) -> str:
    effect = data.CARDS[enemy].get("effect", {}) if enemy else {}
    for phase in data.PHASES:
        if not (effect.get("kind") == "skip_phase" and effect.get("phase") == phase):
            return phase
    return data.PHASES[0]


def _take_counter(state: State, seat: str) -> State:
    hero = state.hero(seat)
    if hero.place not in state.counters:
        return state
    colour = data.PLACES[hero.place]["counter"]
    state = replace(state, counters=_without(state.counters, hero.place))
    return state.with_hero(replace(hero, counters=hero.counters + (colour,)))


def _end_combat(state: State) -> State:
    """The allies who fought are exhausted; the combat is over."""
    combat = state.combat
    if combat is None:
        return state
    for seat, allies in ((combat.seat, combat.allies), (combat.opponent, combat.opponent_allies)):
        if seat is not None and allies:
            hero = state.hero(seat)
            state = state.with_hero(replace(hero, exhausted=hero.exhausted + tuple(
                a for a in allies if a not in hero.exhausted and a in [x.name for x in hero.allies])))
    step = "experience" if state.endgame is None else state.step
    return replace(state, combat=None, step=step)


def _set_line_wounds(endgame: Endgame, vassal: str, wounds: int) -> Endgame:
    return replace(endgame, line=tuple((v, wounds if v == vassal else w) for v, w in endgame.line))


def _refresh_all(state: State) -> State:
    heroes = tuple(
        hero if hero.eliminated else replace(
            hero, wounds=0, exhaustion=0, exhausted=(), allies=tuple(replace(a, wounds=0) for a in hero.allies))
        for hero in state.heroes)
    endgame = replace(state.endgame, line=tuple((v, 0) for v, _ in state.endgame.line)) if state.endgame else None
    return replace(state, heroes=heroes, endgame=endgame)


def evolve(state: State | None, event: m.Event) -> State:
    handler = _HANDLERS.get(type(event))
    return handler(state, event) if handler else state


def _game_started(state, e: m.GameStarted) -> State:
    heroes = tuple(Hero(seat=seat, name=name, place=data.START, gold=data.HEROES[name]["gold"])
                   for seat, name in zip(e.seats, e.heroes))
    decks = tuple((name, tuple(e.decks.get(name, ()))) for name in data.DECK_NAMES)
    return State(seats=tuple(e.seats), heroes=heroes, decks=decks, counters=tuple(e.counters),
                 market=tuple(e.market), doom_rounds=e.doom_rounds, active=e.seats[0] if e.seats else None,
                 step="move" if heroes else "choosing")


def _hero_chosen(state: State, e: m.HeroChosen) -> State:
    """Heroes are chosen in seat order, so the tuple of heroes stays in seat order."""
    heroes = state.heroes + (Hero(seat=e.seat, name=e.hero, place=data.START, gold=data.HEROES[e.hero]["gold"]),)
    waiting = state.seats[len(heroes):]
    return replace(state, heroes=heroes, active=waiting[0] if waiting else state.active)


def _turn_began(state: State, e: m.TurnBegan) -> State:
    hero = state.hero(e.seat)
    state = state.with_hero(replace(hero, exhaustion=0, exhausted=()))
    return replace(state, active=e.seat, round=e.round, movement=e.movement, step="move")


def _moved(state: State, e: m.Moved) -> State:
    state = state.with_hero(replace(state.hero(e.seat), place=e.place))
    step = "adventure" if e.place in state.counters else "experience"
    return replace(state, step=step)


def _card_drawn(state: State, e: m.CardDrawn) -> State:
    return state.with_deck(e.deck, _without(state.deck(e.deck), e.card))


def _encounter_resolved(state: State, e: m.EncounterResolved) -> State:
    card = data.CARDS.get(e.card, {})
    test = card.get("test")
    effect = (test["pass"] if e.passed else test["fail"]) if test else card.get("effect", {})
    state = state.with_hero(apply_effect(state.hero(e.seat), effect))
    if e.passed:
        state = _take_counter(state, e.seat)
    return replace(state, discards=state.discards + (e.card,), step="experience")


def _event_resolved(state: State, e: m.EventResolved) -> State:
    effect = data.CARDS.get(e.card, {}).get("effect", {})
    heroes = tuple(hero if hero.eliminated else apply_effect(hero, effect) for hero in state.heroes)
    return replace(state, heroes=heroes, discards=state.discards + (e.card,), step="experience")


def _combat_began(state: State, e: m.CombatBegan) -> State:
    wounds = dict(state.endgame.line).get(e.enemy, 0) if state.endgame and e.enemy else 0
    combat = Combat(seat=e.seat, enemy=e.enemy, opponent=e.opponent, enemy_wounds=wounds,
                    phase=first_phase(e.enemy), allies=tuple(e.allies), opponent_allies=tuple(e.opponent_allies))
    return replace(state, combat=combat, step="combat")


def _round_began(state: State, e: m.RoundBegan) -> State:
    effect = data.CARDS.get(e.enemy, {}).get("effect", {})
    kind, amount = effect.get("kind"), effect.get("amount", 0)
    if kind == "heal_each_round" and state.combat:
        return _wound_enemy(state, -amount)
    if kind in ("exhaust_each_round", "wound_each_round"):
        wounds, exhaustion = (amount, 0) if kind == "wound_each_round" else (0, amount)
        return state.with_hero(suffer(state.hero(e.seat), wounds, exhaustion))
    return state


def _wound_enemy(state: State, amount: int) -> State:
    combat = state.combat
    wounds = max(0, combat.enemy_wounds + amount)
    state = replace(state, combat=replace(combat, enemy_wounds=wounds))
    if state.endgame and any(v == combat.enemy for v, _ in state.endgame.line):
        state = replace(state, endgame=_set_line_wounds(state.endgame, combat.enemy, wounds))
    return state


def _struck(state: State, e: m.Struck) -> State:
    combat = state.combat
    if combat and combat.enemy and e.seat == combat.seat and e.hit:
        return _wound_enemy(state, e.damage)
    return state


def _suffered(state: State, e: m.Suffered) -> State:
    hero = suffer(state.hero(e.seat), e.wounds, e.exhaustion)
    if e.ally:
        allies = []
        for ally in hero.allies:
            if ally.name == e.ally:
                ally = replace(ally, wounds=ally.wounds + e.ally_wounds)
                if ally.wounds >= data.MARKET[ally.name]["life"]:
                    continue  # the ally is defeated and discarded
            allies.append(ally)
        hero = replace(hero, allies=tuple(allies))
    return state.with_hero(hero)


def _phase_ended(state: State, e: m.PhaseEnded) -> State:
    return replace(state, combat=replace(state.combat, phase=e.phase, round=e.round, declared=None))


def _enemy_defeated(state: State, e: m.EnemyDefeated) -> State:
    hero = state.hero(e.seat)
    state = state.with_hero(replace(hero, gold=hero.gold + e.gold, trophies=hero.trophies + (e.card,)))
    return _end_combat(_take_counter(state, e.seat))


def _card_returned(state: State, e: m.CardReturned) -> State:
    cards = state.deck(e.deck)
    return state.with_deck(e.deck, cards[:e.position] + (e.card,) + cards[e.position:])


def _knocked_out(state: State, e: m.HeroKnockedOut) -> State:
    if state.combat and state.combat.seat == e.seat:
        state = _end_combat(state)
    hero = state.hero(e.seat)
    return state.with_hero(replace(hero, wounds=0, exhaustion=0, place=e.place, gold=hero.gold - e.gold_lost))


def _healed(state: State, e: m.Healed) -> State:
    hero = state.hero(e.seat)
    return state.with_hero(replace(hero, wounds=max(0, hero.wounds - e.wounds), gold=hero.gold - e.gold))


def _bought(state: State, e: m.Bought) -> State:
    hero = state.hero(e.seat)
    if data.MARKET[e.card]["type"] == "ally":
        hero = replace(hero, allies=hero.allies + (Ally(e.card),))
    else:
        hero = replace(hero, items=hero.items + (e.card,))
    return replace(state.with_hero(replace(hero, gold=hero.gold - e.gold)), market=_without(state.market, e.card))


def _item_used(state: State, e: m.ItemUsed) -> State:
    hero = state.hero(e.seat)
    return state.with_hero(replace(hero, wounds=max(0, hero.wounds - e.healed), exhausted=hero.exhausted + (e.item,)))


def _experience_gained(state: State, e: m.ExperienceGained) -> State:
    hero = state.hero(e.seat)
    counters = hero.counters
    for colour in e.spent:
        counters = _without(counters, colour)
    return state.with_hero(replace(hero, experience=hero.experience + (e.kind,), counters=counters))


def _game_over(state: State, winner: str | None, result: str) -> State:
    return replace(state, step="over", active=None, combat=None, winner=winner, result=result)


def _doom_fell(state: State, e: m.DoomFell) -> State:
    if e.reason == "no_adventure_left":
        return _game_over(state, None, f"no adventure was left to attempt in round {e.round}: "
                                       "Vorakesh raised Lord Margath and nobody wins")
    return _game_over(state, None, f"Vorakesh raised Lord Margath after round {e.round - 1}: nobody wins")


def _endgame_began(state: State, e: m.EndgameBegan) -> State:
    endgame = Endgame(king=e.king, challengers=tuple(e.challengers), last_king=e.king)
    return replace(state, endgame=endgame, active=e.king, step="placing")


def _crowned(state: State, e: m.ElderKingCrowned) -> State:
    hero = state.hero(e.seat)
    trophies = hero.trophies
    for card in e.discarded:
        trophies = _without(trophies, card)
    state = state.with_hero(replace(hero, trophies=trophies))
    endgame = replace(state.endgame, king=e.seat, last_king=e.seat, line=(), placing=True,
                      challengers=_without(state.endgame.challengers, e.seat))
    return replace(state, endgame=endgame, active=e.seat, step="placing", combat=None,
                   discards=state.discards + tuple(e.discarded))


def _vassal_placed(state: State, e: m.VassalPlaced) -> State:
    hero = state.hero(e.seat)
    state = state.with_hero(replace(hero, trophies=_without(hero.trophies, e.vassal)))
    return replace(state, endgame=replace(state.endgame, line=state.endgame.line + ((e.vassal, 0),)))


def _vassals_placed(state: State, e: m.VassalsPlaced) -> State:
    return replace(state, endgame=replace(state.endgame, placing=False))


def _confrontation_began(state: State, e: m.ConfrontationBegan) -> State:
    return replace(_refresh_all(state), active=e.seat, step="combat")


def _vassal_defeated(state: State, e: m.VassalDefeated) -> State:
    endgame = state.endgame
    line = tuple((v, w) for v, w in endgame.line if v != e.vassal)
    state = replace(state, endgame=replace(endgame, line=line), discards=state.discards + (e.vassal,))
    return _end_combat(state)


def _eliminated(state: State, e: m.HeroEliminated) -> State:
    state = state.with_hero(replace(state.hero(e.seat), eliminated=True))
    endgame = state.endgame
    if endgame is None:
        return state
    discards = state.discards
    if endgame.king == e.seat:
        discards += tuple(v for v, _ in endgame.line)
        endgame = replace(endgame, king=None, line=())
    endgame = replace(endgame, challengers=_without(endgame.challengers, e.seat),
                      eliminated=endgame.eliminated + (e.seat,))
    return replace(state, endgame=endgame, discards=discards, combat=None)


def _game_won(state: State, e: m.GameWon) -> State:
    return _game_over(state, e.seat, f"{e.seat} wins as the last Elder King")


_HANDLERS = {
    m.GameStarted: _game_started,
    m.HeroChosen: _hero_chosen,
    m.TurnBegan: _turn_began,
    m.Moved: _moved,
    m.AdventureSkipped: lambda s, e: replace(s, step="experience"),
    m.CardDrawn: _card_drawn,
    m.CardDiscarded: lambda s, e: replace(s, discards=s.discards + (e.card,)),
    m.CountersReplenished: lambda s, e: replace(
        s, counters=tuple(p for p in data.WILDS if p in s.counters or p in e.places)),
    m.EncounterResolved: _encounter_resolved,
    m.EventResolved: _event_resolved,
    m.CombatBegan: _combat_began,
    m.RoundBegan: _round_began,
    m.ActionDeclared: lambda s, e: replace(s, combat=replace(s.combat, declared=e.action)),
    m.Struck: _struck,
    m.Suffered: _suffered,
    m.PhaseEnded: _phase_ended,
    m.EnemyDefeated: _enemy_defeated,
    m.Retreated: lambda s, e: _end_combat(s),
    m.CardReturned: _card_returned,
    m.HeroKnockedOut: _knocked_out,
    m.Healed: _healed,
    m.Bought: _bought,
    m.ItemUsed: _item_used,
    m.ExperienceGained: _experience_gained,
    m.TurnEnded: lambda s, e: s,
    m.DoomFell: _doom_fell,
    m.EndgameBegan: _endgame_began,
    m.ElderKingCrowned: _crowned,
    m.VassalPlaced: _vassal_placed,
    m.VassalsPlaced: _vassals_placed,
    m.ConfrontationBegan: _confrontation_began,
    m.VassalDefeated: _vassal_defeated,
    m.HeroEliminated: _eliminated,
    m.GameWon: _game_won,
}
