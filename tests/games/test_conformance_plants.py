"""The kit suite catches the faults an author plants without noticing: a
draw outside the given rng, an evolve that changes its argument, a bot that
reads more than its seat's view, a legal_commands list that is not exact.
Each check runs over every game; each plant shows the check fails by name."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domain.games.example import RULES as EXAMPLE
from domain.games.example.messages import ChooseCard
from domain.kit.bots import Weighted
from domain import games

from tests.games.conformance import plants
from tests.games.conformance.playouts import GAMES, play

every_game = pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))


@every_game
def test_every_decision_re_runs_from_its_seed_to_the_same_events(game):
    plants.check_decisions_rerun_from_their_seed(game)


@every_game
def test_evolve_leaves_the_state_it_was_given_as_it_was(game):
    plants.check_evolve_leaves_its_state_alone(game)


@every_game
def test_every_bot_chooses_alike_in_histories_its_seat_cannot_tell_apart(game):
    plants.check_bots_choose_from_their_seat_s_view_only(game)


def test_a_setup_that_draws_from_the_random_module_fails_naming_setup():
    def setup(seats, options, rng):
        return EXAMPLE.setup(seats, options, random.Random(random.random()))

    with pytest.raises(AssertionError, match="setup gave other events when re-run from the same seed"):
        plants.check_decisions_rerun_from_their_seed(dataclasses.replace(EXAMPLE, setup=setup))


def test_a_decide_that_draws_from_the_random_module_fails_naming_the_decision():
    coil = games.get("the-coil")  # its battles roll dice in decide

    def decide(state, seat, command, rng):
        return coil.decide(state, seat, command, random.Random(random.random()))

    with pytest.raises(AssertionError, match=r"decide gave other events when p\d's .* at version \d+ was re-run"):
        plants.check_decisions_rerun_from_their_seed(dataclasses.replace(coil, decide=decide))


def test_an_evolve_that_changes_its_argument_fails_naming_the_event():
    def evolve(state, event):
        new = EXAMPLE.evolve(state, event)
        if state is not None:
            object.__setattr__(state, "round", state.round + 1)  # the frozen dataclass written through
        return new

    with pytest.raises(AssertionError, match=r"evolve changed the state it was given in place at event \d+ \(\w+\)"):
        plants.check_evolve_leaves_its_state_alone(dataclasses.replace(EXAMPLE, evolve=evolve, given_evolve=None))


def test_a_bot_that_reads_the_state_fails_naming_the_bot():
    kept = {}

    def evolve(state, event):
        kept["state"] = EXAMPLE.evolve(state, event)
        return kept["state"]

    class Peeking(Weighted):
        def pick(self, view, commands, rng):  # chooses by the cards nobody may see
            state = kept["state"]
            return commands[hash((state.deck, state.hands)) % len(commands)]

    planted = dataclasses.replace(EXAMPLE, evolve=evolve, given_evolve=None, bots={"heuristic": lambda: Peeking({})})
    with pytest.raises(AssertionError, match="heuristic bot for p\\d after event \\d+ chose .* in a history p\\d "
                                             "cannot tell from it"):
        plants.check_bots_choose_from_their_seat_s_view_only(planted)


def test_a_legal_command_that_decide_refuses_fails_naming_legal_commands():
    def legal_commands(state, seat):
        return [*EXAMPLE.legal_commands(state, seat), ChooseCard(card=99)]

    with pytest.raises(AssertionError, match=r"legal_commands listed ChooseCard\(card=99\) for p\d at version \d+, "
                                             r"but decide refused it"):
        play(dataclasses.replace(EXAMPLE, legal_commands=legal_commands), {}, 0)
