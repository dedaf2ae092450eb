import json
from dataclasses import dataclass

import pytest

from domain.engine import (
    Codec,
    Command,
    DecodeError,
    IllegalCommand,
    NotYourTurn,
    Option,
    not_your_turn,
    rank_by,
    resolve_options,
    rng_for,
    seed_commitment,
)


@dataclass(frozen=True)
class MovePiece(Command):
    to: str
    path: tuple[str, ...] = ()


def test_a_command_round_trips_through_its_json_form():
    command = MovePiece("b2", ("a1", "b2"))
    assert command.to_json() == {"type": "MovePiece", "to": "b2", "path": ["a1", "b2"]}
    assert Codec([MovePiece]).decode(json.loads(json.dumps(command.to_json()))) == command


def test_decoding_names_the_unknown_type_and_the_known_ones():
    with pytest.raises(DecodeError, match="unknown type 'Fly'; known types: MovePiece"):
        Codec([MovePiece]).decode({"type": "Fly"})


def test_decoding_names_missing_and_unknown_fields():
    with pytest.raises(DecodeError, match="needs field"):
        Codec([MovePiece]).decode({"type": "MovePiece"})
    with pytest.raises(DecodeError, match="has no field"):
        Codec([MovePiece]).decode({"type": "MovePiece", "to": "a1", "colour": "red"})


def test_options_take_their_defaults_and_refuse_unknown_names():
    declared = [Option("players", "int", 2, "seats", minimum=2, maximum=4), Option("fast", "bool", False, "")]
    assert resolve_options(declared, {"players": 3}) == {"players": 3, "fast": False}
    with pytest.raises(IllegalCommand, match="unknown option"):
        resolve_options(declared, {"speed": 1})
    with pytest.raises(IllegalCommand, match="at most 4"):
        resolve_options(declared, {"players": 5})
    with pytest.raises(IllegalCommand, match="true or false"):
        resolve_options(declared, {"fast": "yes"})


def test_not_your_turn_says_who_is_to_act():
    error = not_your_turn("p1", {"p2"})
    assert isinstance(error, NotYourTurn)
    assert error.message == "it is not your turn: p2 is to act"
    assert not_your_turn("p1", {"p3", "p2"}).message == "it is not your turn: p2, p3 are to act"


def test_the_rng_of_a_decision_depends_only_on_the_seed_and_the_version():
    assert rng_for(b"seed", 7).random() == rng_for(b"seed", 7).random()
    assert rng_for(b"seed", 7).random() != rng_for(b"seed", 8).random()
    assert rng_for(b"seed", 7).random() != rng_for(b"other", 7).random()


def test_the_seed_commitment_is_its_sha256():
    assert seed_commitment(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_ranking_shares_places_between_equal_scores():
    assert rank_by({"p1": 5, "p2": 9, "p3": 5}) == {"p1": 2, "p2": 1, "p3": 2}
