"""The Coil's legal commands in words (issue 33): each says, with the names of
data.json and card_names.json, what the seat would do; every seat's hand is
its tactics, each named in card_names.json."""

import random

from domain import words
from domain.engine import EVERYONE, resolve_options
from domain.games.the_coil import RULES
from domain.games.the_coil.messages import PlayTactic
from tests.games.said import entries, sentences


def test_every_opening_choice_names_the_nation_as_printed():
    options = resolve_options(RULES.options, {"players": 3})
    state = RULES.replay(RULES.setup(RULES.seats(options), options, random.Random(0)))
    said = sentences(RULES, state, "p1")
    assert said == [f"Choose the nation {name}" for name in ("Celestos", "Dedran", "Ignixior", "Shakoom", "Varg'ree")]


def test_a_deployment_and_a_tactic_name_the_region_and_the_tactic_as_card_names_json_does(b):
    state = b.seat(b.battle(b.start(), coil=[("dedran-02", ())]), "p1", reserves=(4,), hands=("celestos-04",))
    said = sentences(RULES, state, "p1")
    assert "Deploy your 4 on the region Dedran 2" in said
    assert "Play Command (Celestos 4) on your 4, turning it to 6" in said
    names = entries(RULES, RULES.names_of(type(RULES.legal_commands(state, "p1")[0]), "region"))
    assert names["dedran-02"]["name"] == "Dedran 2: Falter"


def test_the_tactic_a_seat_played_is_told_by_its_name_not_its_id(b):
    state = b.seat(b.battle(b.start(), coil=[("dedran-02", ())]), "p1", reserves=(4,), hands=("celestos-04",))
    told = [words.tell(RULES.name, RULES.visible(event, "p2") | {"type": type(event).__name__}, "p2")
            for event in b.decide(state, "p1", PlayTactic("celestos-04", (4,), 6))]
    assert told[0] == "p1 played Command (Celestos 4) on 4, making 6"


def test_each_seat_s_hand_is_its_tactics_named_in_card_names_json(b):
    state = b.seat(b.seat(b.start(), "p1", hands=("celestos-04", "dedran-02")), "p2", hands=("ignixior-01",))
    faces = entries(RULES, RULES.hand.names)
    mine = RULES.hand.cards(RULES.view(state, "p1"), "p1")
    assert [faces[card]["name"] for card in mine] == ["Celestos 4: Command", "Dedran 2: Falter"]
    assert RULES.hand.cards(RULES.view(state, "p2"), "p2") == ["ignixior-01"]
    assert RULES.hand.cards(RULES.view(state, EVERYONE), EVERYONE) is None
