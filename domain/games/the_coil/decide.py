"""decide: validate a seat's command and produce its events (and whatever
follows automatically), or refuse it with IllegalCommand."""

from __future__ import annotations

import random

from ...engine import IllegalCommand, not_your_turn
from .battle import VALUES, apply_tactic, can_deploy, check_tactic, deploy_refusal, tactic_of
from .conquest import claim, placement_refusal
from .data import NATION_IDS, NATIONS
from .flow import (
    Emitter, after_choice, after_conquest, after_escalation_turn, after_expansion, after_muster,
    begin_battle_turn, conquest, deal, has_cards, refill,
)
from .messages import (
    BattleTurnEnded, ChooseNation, ChooseStrategy, NationChosen, PlaceRegions, RegionsClaimed, Deploy, DiceMustered, DieDeployed, DieShifted, EndEscalation, EndTurn,
    EscalationTurnEnded, Expand, Muster, PlayTactic, Recruit, Recruited, RegionFlipped, Scout, Scouted,
    ShiftDie, Stop, Stopped, StrategyChosen, Strategized, Strategize, TacticPlayed,
)
from .state import State

PHASE_OF = {
    ChooseNation: "nations", Expand: "expansion", Muster: "muster", Recruit: "escalation", Scout: "escalation",
    Strategize: "escalation", EndEscalation: "escalation", Deploy: "battle", PlayTactic: "battle",
    ShiftDie: "battle", EndTurn: "battle", Stop: "battle", PlaceRegions: "conquest", ChooseStrategy: "choose",
}
PHASE_NAMES = {
    "nations": "setup (choosing nations)", "expansion": "the Expansion phase", "muster": "the Muster phase", "escalation": "the Escalation phase",
    "battle": "the Battle phase", "choose": "the end of the game (choosing a strategy card)",
    "conquest": "the Conquest phase", "over": "a finished game", "setup": "setup",
}


def decide(state: State, seat: str, command, rng: random.Random) -> list:
    if seat not in state.seats:
        raise IllegalCommand(f"{seat!r} is not a seat of this game")
    if seat not in state.to_act():
        raise not_your_turn(seat, state.to_act())
    phase = PHASE_OF.get(type(command))
    if phase is None:
        raise IllegalCommand(f"The Coil has no command {type(command).__name__}")
    if phase != state.phase:
        raise IllegalCommand(
            f"{type(command).__name__} belongs to {PHASE_NAMES[phase]}, but this is {PHASE_NAMES[state.phase]}"
        )
    em = Emitter(state, rng)
    HANDLERS[type(command)](em, seat, command, rng)
    return em.events


# ---------------------------------------------------------------- setup, expansion and muster


def _choose_nation(em: Emitter, seat: str, command: ChooseNation, rng: random.Random) -> None:
    state = em.state
    free = [n for n in NATION_IDS if n not in state.nations]
    if command.nation not in NATIONS:
        raise IllegalCommand(f"there is no nation {command.nation!r}; free: {', '.join(free)}")
    if command.nation in state.nations:
        raise IllegalCommand(
            f"{NATIONS[command.nation].name} was chosen by {state.seat_of_nation(command.nation)}; free: {', '.join(free)}"
        )
    em.emit(NationChosen(seat, command.nation))
    if em.state.current() is None:
        deal(em, rng)


def _expand(em: Emitter, seat: str, command: Expand, rng: random.Random) -> None:
    nation = em.state.nation_of(seat)
    em.emit(RegionFlipped(seat, nation, em.state.deck(nation)[0]))
    after_expansion(em, rng)


def _muster(em: Emitter, seat: str, command: Muster, rng: random.Random) -> None:
    state = em.state
    count = min(NATIONS[state.nation_of(seat)].dice_per_muster, state.population(seat))
    if command.fixed is not None:
        if not state.is_ability(seat, "forged_will"):
            raise IllegalCommand("only Ignixior may set a mustered die instead of rolling it")
        if command.fixed not in VALUES:
            raise IllegalCommand(f"a die shows 1 to 6, not {command.fixed}")
    values = [rng.randint(1, 6) for _ in range(count)]
    if command.fixed is not None:
        values[0] = command.fixed
    em.emit(DiceMustered(seat, tuple(values), command.fixed))
    after_muster(em, rng)


# ---------------------------------------------------------------- escalation


def _after_action(em: Emitter, seat: str, rng: random.Random) -> None:
    if em.state.actions_left <= 0:
        em.emit(EscalationTurnEnded(seat))
        after_escalation_turn(em, rng)


def _recruit(em: Emitter, seat: str, command: Recruit, rng: random.Random) -> None:
    if em.state.population(seat) <= 0:
        raise IllegalCommand("your population has no die left to recruit")
    em.emit(Recruited(seat, rng.randint(1, 6)))
    _after_action(em, seat, rng)


def _scout(em: Emitter, seat: str, command: Scout, rng: random.Random) -> None:
    nation = command.nation
    if nation not in em.state.table():
        raise IllegalCommand(f"no homeland deck {nation!r} is in play; decks: {', '.join(em.state.table())}")
    if not has_cards(em.state, nation):
        raise IllegalCommand(f"the {NATIONS[nation].name} homeland deck and its discard area are empty")
    refill(em, rng, nation, need=2)
    deck = em.state.deck(nation)
    em.emit(Scouted(seat, nation, deck[0], deck[1] if len(deck) > 1 else None))
    _after_action(em, seat, rng)


def _strategize(em: Emitter, seat: str, command: Strategize, rng: random.Random) -> None:
    if not em.state.strategy_deck:
        raise IllegalCommand("the strategy deck is empty")
    em.emit(Strategized(seat, em.state.strategy_deck[0]))
    _after_action(em, seat, rng)


def _end_escalation(em: Emitter, seat: str, command: EndEscalation, rng: random.Random) -> None:
    em.emit(EscalationTurnEnded(seat))
    after_escalation_turn(em, rng)


# ---------------------------------------------------------------- battle


def _must_stop(state: State, seat: str) -> bool:
    return not state.reserve(seat) and state.stop_allowed()


def _check_may_act(state: State, seat: str) -> None:
    if _must_stop(state, seat):
        raise IllegalCommand("you begin your turn with no dice in your reserves: you must stop")


def _deploy(em: Emitter, seat: str, command: Deploy, rng: random.Random) -> None:
    state = em.state
    _check_may_act(state, seat)
    if command.value not in state.reserve(seat):
        raise IllegalCommand(f"no die in your reserves shows {command.value}")
    refusal = deploy_refusal(state, seat, command.value, command.region)
    if refusal:
        raise IllegalCommand(refusal)
    em.emit(DieDeployed(seat, command.value, command.region))


def _play_tactic(em: Emitter, seat: str, command: PlayTactic, rng: random.Random) -> None:
    state = em.state
    _check_may_act(state, seat)
    if command.card not in state.hand(seat):
        raise IllegalCommand(f"{command.card} is not a tactic in your hand")
    tactic = tactic_of(command.card)
    check_tactic(state.reserve(seat), tactic, tuple(command.dice), command.value)
    after = apply_tactic(state.reserve(seat), tactic, tuple(command.dice), command.value, rng)
    em.emit(TacticPlayed(seat, command.card, tuple(command.dice), command.value, after))


def _shift_die(em: Emitter, seat: str, command: ShiftDie, rng: random.Random) -> None:
    state = em.state
    if not state.is_ability(seat, "starlit_resolve"):
        raise IllegalCommand("only Celestos may shift a die with its ability")
    if seat in state.shifted:
        raise IllegalCommand("Celestos' ability is used once per Battle phase, and you have used it")
    _check_may_act(state, seat)
    if command.value not in state.reserve(seat):
        raise IllegalCommand(f"no die in your reserves shows {command.value}")
    em.emit(DieShifted(seat, command.value, command.up))


def _end_turn(em: Emitter, seat: str, command: EndTurn, rng: random.Random) -> None:
    state = em.state
    _check_may_act(state, seat)
    if seat not in state.had_turn and not state.deployed and can_deploy(state, seat):
        raise IllegalCommand("on your first Battle turn of the round you must deploy at least one die")
    em.emit(BattleTurnEnded(seat))
    begin_battle_turn(em, rng)


def _stop(em: Emitter, seat: str, command: Stop, rng: random.Random) -> None:
    state = em.state
    if len(state.had_turn) < len(state.seats):
        raise IllegalCommand("you may stop only after every player has had at least one turn")
    if state.acted:
        raise IllegalCommand("you may stop only at the start of your turn, before doing anything")
    em.emit(Stopped(seat))
    conquest(em, rng)


# ---------------------------------------------------------------- conquest and end of game


def _place_regions(em: Emitter, seat: str, command: PlaceRegions, rng: random.Random) -> None:
    regions = tuple(command.regions)
    refusal = placement_refusal(em.state, seat, regions)
    if refusal:
        raise IllegalCommand(refusal)
    em.emit(RegionsClaimed(seat, claim(em.state, seat, regions)))
    after_conquest(em, rng)


def _choose(em: Emitter, seat: str, command: ChooseStrategy, rng: random.Random) -> None:
    if command.card not in em.state.strategies[em.state.index(seat)]:
        raise IllegalCommand(f"{command.card!r} is not one of your strategy cards")
    em.emit(StrategyChosen(seat, command.card))
    after_choice(em)


HANDLERS = {
    ChooseNation: _choose_nation, PlaceRegions: _place_regions, Expand: _expand, Muster: _muster, Recruit: _recruit, Scout: _scout, Strategize: _strategize,
    EndEscalation: _end_escalation, Deploy: _deploy, PlayTactic: _play_tactic, ShiftDie: _shift_die,
    EndTurn: _end_turn, Stop: _stop, ChooseStrategy: _choose,
}

