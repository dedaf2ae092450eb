"""decide: who may act, in which phase each command belongs, and what each
one does: its events and whatever follows automatically (flow.py), or an
IllegalCommand saying why not, raised where the rule is checked."""

from __future__ import annotations

import random

from ...engine import IllegalCommand, not_your_turn
from ...kit import Draft
from .battle import VALUES, apply_tactic, can_deploy, check_tactic, deploy_refusal, tactic_of
from .conquest import claim, placement_refusal
from .data import NATION_IDS, NATIONS
from .flow import (
    after_choice, after_conquest, after_escalation_turn, after_expansion, after_muster, begin_battle_turn,
    conquest, deal, has_cards, new_draft, refill,
)
from .messages import (
    BattleTurnEnded, ChooseNation, ChooseStrategy, Deploy, DiceMustered, DieDeployed, DieShifted, EndEscalation,
    EndTurn, EscalationTurnEnded, Expand, Muster, NationChosen, PlaceRegions, PlayTactic, Recruit, Recruited,
    RegionFlipped, RegionsClaimed, Scout, Scouted, ShiftDie, Stop, Stopped, StrategyChosen, Strategize,
    Strategized, TacticPlayed,
)
from .state import State

PHASE_OF = {
    ChooseNation: "nations", Expand: "expansion", Muster: "muster", Recruit: "escalation", Scout: "escalation",
    Strategize: "escalation", EndEscalation: "escalation", Deploy: "battle", PlayTactic: "battle",
    ShiftDie: "battle", EndTurn: "battle", Stop: "battle", PlaceRegions: "conquest", ChooseStrategy: "choose",
}
PHASE_NAMES = {
    "nations": "setup (choosing nations)", "expansion": "the Expansion phase", "muster": "the Muster phase",
    "escalation": "the Escalation phase", "battle": "the Battle phase",
    "choose": "the end of the game (choosing a strategy card)", "conquest": "the Conquest phase",
    "over": "a finished game", "setup": "setup",
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
    draft = new_draft(state, rng)
    match command:
        case ChooseNation():
            _choose_nation(draft, seat, command)
        case Expand():
            _expand(draft, seat)
        case Muster():
            _muster(draft, seat, command)
        case Recruit():
            _recruit(draft, seat)
        case Scout():
            _scout(draft, seat, command)
        case Strategize():
            _strategize(draft, seat)
        case EndEscalation():
            _end_escalation(draft, seat)
        case Deploy():
            _deploy(draft, seat, command)
        case PlayTactic():
            _play_tactic(draft, seat, command)
        case ShiftDie():
            _shift_die(draft, seat, command)
        case EndTurn():
            _end_turn(draft, seat)
        case Stop():
            _stop(draft, seat)
        case PlaceRegions():
            _place_regions(draft, seat, command)
        case ChooseStrategy():
            _choose(draft, seat, command)
    return draft.events


# ---------------------------------------------------------------- setup, expansion and muster


def _choose_nation(draft: Draft, seat: str, command: ChooseNation) -> None:
    state = draft.state
    free = [n for n in NATION_IDS if n not in state.nations]
    if command.nation not in NATIONS:
        raise IllegalCommand(f"there is no nation {command.nation!r}; free: {', '.join(free)}")
    if command.nation in state.nations:
        raise IllegalCommand(
            f"{NATIONS[command.nation].name} was chosen by {state.seat_of_nation(command.nation)}; free: {', '.join(free)}"
        )
    draft.emit(NationChosen(seat, command.nation))
    if draft.state.current() is None:
        deal(draft)


def _expand(draft: Draft, seat: str) -> None:
    nation = draft.state.nation_of(seat)
    draft.emit(RegionFlipped(seat, nation, draft.state.deck(nation)[0]))
    after_expansion(draft)


def _muster(draft: Draft, seat: str, command: Muster) -> None:
    state = draft.state
    count = min(NATIONS[state.nation_of(seat)].dice_per_muster, state.population(seat))
    if command.fixed is not None:
        if not state.is_ability(seat, "forged_will"):
            raise IllegalCommand("only Ignixior may set a mustered die instead of rolling it")
        if command.fixed not in VALUES:
            raise IllegalCommand(f"a die shows 1 to 6, not {command.fixed}")
    values = [draft.rng.randint(1, 6) for _ in range(count)]
    if command.fixed is not None:
        values[0] = command.fixed
    draft.emit(DiceMustered(seat, tuple(values), command.fixed))
    after_muster(draft)


# ---------------------------------------------------------------- escalation


def _after_action(draft: Draft, seat: str) -> None:
    if draft.state.actions_left <= 0:
        draft.emit(EscalationTurnEnded(seat))
        after_escalation_turn(draft)


def _recruit(draft: Draft, seat: str) -> None:
    if draft.state.population(seat) <= 0:
        raise IllegalCommand("your population has no die left to recruit")
    draft.emit(Recruited(seat, draft.rng.randint(1, 6)))
    _after_action(draft, seat)


def _scout(draft: Draft, seat: str, command: Scout) -> None:
    nation = command.nation
    if nation not in draft.state.table():
        raise IllegalCommand(f"no homeland deck {nation!r} is in play; decks: {', '.join(draft.state.table())}")
    if not has_cards(draft.state, nation):
        raise IllegalCommand(f"the {NATIONS[nation].name} homeland deck and its discard area are empty")
    refill(draft, nation, need=2)
    deck = draft.state.deck(nation)
    draft.emit(Scouted(seat, nation, deck[0], deck[1] if len(deck) > 1 else None))
    _after_action(draft, seat)


def _strategize(draft: Draft, seat: str) -> None:
    if not draft.state.strategy_deck:
        raise IllegalCommand("the strategy deck is empty")
    draft.emit(Strategized(seat, draft.state.strategy_deck[0]))
    _after_action(draft, seat)


def _end_escalation(draft: Draft, seat: str) -> None:
    draft.emit(EscalationTurnEnded(seat))
    after_escalation_turn(draft)


# ---------------------------------------------------------------- battle


def _must_stop(state: State, seat: str) -> bool:
    return not state.reserve(seat) and state.stop_allowed()


def _check_may_act(state: State, seat: str) -> None:
    if _must_stop(state, seat):
        raise IllegalCommand("you begin your turn with no dice in your reserves: you must stop")


def _deploy(draft: Draft, seat: str, command: Deploy) -> None:
    state = draft.state
    _check_may_act(state, seat)
    if command.value not in state.reserve(seat):
        raise IllegalCommand(f"no die in your reserves shows {command.value}")
    refusal = deploy_refusal(state, seat, command.value, command.region)
    if refusal:
        raise IllegalCommand(refusal)
    draft.emit(DieDeployed(seat, command.value, command.region))


def _play_tactic(draft: Draft, seat: str, command: PlayTactic) -> None:
    state = draft.state
    _check_may_act(state, seat)
    if command.card not in state.hand(seat):
        raise IllegalCommand(f"{command.card} is not a tactic in your hand")
    tactic = tactic_of(command.card)
    check_tactic(state.reserve(seat), tactic, tuple(command.dice), command.value)
    after = apply_tactic(state.reserve(seat), tactic, tuple(command.dice), command.value, draft.rng)
    draft.emit(TacticPlayed(seat, command.card, tuple(command.dice), command.value, after))


def _shift_die(draft: Draft, seat: str, command: ShiftDie) -> None:
    state = draft.state
    if not state.is_ability(seat, "starlit_resolve"):
        raise IllegalCommand("only Celestos may shift a die with its ability")
    if seat in state.shifted:
        raise IllegalCommand("Celestos' ability is used once per Battle phase, and you have used it")
    _check_may_act(state, seat)
    if command.value not in state.reserve(seat):
        raise IllegalCommand(f"no die in your reserves shows {command.value}")
    draft.emit(DieShifted(seat, command.value, command.up))


def _end_turn(draft: Draft, seat: str) -> None:
    state = draft.state
    _check_may_act(state, seat)
    if seat not in state.had_turn and not state.deployed and can_deploy(state, seat):
        raise IllegalCommand("on your first Battle turn of the round you must deploy at least one die")
    draft.emit(BattleTurnEnded(seat))
    begin_battle_turn(draft)


def _stop(draft: Draft, seat: str) -> None:
    state = draft.state
    if len(state.had_turn) < len(state.seats):
        raise IllegalCommand("you may stop only after every player has had at least one turn")
    if state.acted:
        raise IllegalCommand("you may stop only at the start of your turn, before doing anything")
    draft.emit(Stopped(seat))
    conquest(draft)


# ---------------------------------------------------------------- conquest and end of game


def _place_regions(draft: Draft, seat: str, command: PlaceRegions) -> None:
    regions = tuple(command.regions)
    refusal = placement_refusal(draft.state, seat, regions)
    if refusal:
        raise IllegalCommand(refusal)
    draft.emit(RegionsClaimed(seat, claim(draft.state, seat, regions)))
    after_conquest(draft)


def _choose(draft: Draft, seat: str, command: ChooseStrategy) -> None:
    if command.card not in draft.state.strategies[draft.state.index(seat)]:
        raise IllegalCommand(f"{command.card!r} is not one of your strategy cards")
    draft.emit(StrategyChosen(seat, command.card))
    after_choice(draft)
