"""Vassals, sets, wild Dragon Lords, Margath, and when the Endgame begins."""

import pytest

from domain.games.runebound import data


def at_end_of_turn(rb, *cards, players=4):
    m = rb.m
    return rb.given(*rb.won("p1", *cards), m.Moved(seat="p1", place="Tamalir"), players=players)


def test_there_are_twelve_vassals_one_of_each_rank_of_each_house_each_with_a_text():
    cards = [data.CARDS[v] for v in data.VASSALS]
    assert sorted((c["rank"], c["house"]) for c in cards) == sorted(
        (rank, house) for rank in data.RANKS for house in data.HOUSES)
    assert all(c["deck"] == "crown_blue" and c["kind"] == "challenge" and c["text"] and c["effect"] for c in cards)


@pytest.mark.parametrize("house", data.HOUSES)
def test_each_vassal_text_follows_its_houses_theme(house):
    kinds = {data.CARDS[f"{rank} of {house}"]["effect"]["kind"] for rank in data.RANKS}
    themes = {"Secrets": {"no_defend", "attack_penalty", "exhaust_each_round", "skip_phase"},
              "Blood": {"damage_as_attack", "heal_each_round", "reflect", "wound_each_round"},
              "Hate": {"defend_cost", "damage_cap", "no_defend", "all_phases_use"}}
    assert kinds == themes[house]


def test_a_defeated_blue_challenge_is_a_vassal_the_hero_collects(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Sunken Fen"), decks={"crown_blue": ("Knave of Hate",)})
    _, state = rb.act(state, "p1", m.Adventure())
    _, state = rb.fight_until(state, "p1", lambda s: s.combat is None, rb.Dice(10))
    assert state.hero("p1").vassals == ("Knave of Hate",)


def test_a_defeated_red_challenge_is_a_dragon_lord_the_hero_collects_and_margath_comes_last(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Wolfden"), decks={"red": ("Dragon Lord Sarkis", "Lord Margath")})
    _, state = rb.act(state, "p1", m.Adventure())
    _, state = rb.fight_until(state, "p1", lambda s: s.combat is None, rb.Dice(10))
    assert state.hero("p1").dragon_lords == ("Dragon Lord Sarkis",) and state.deck("red") == ("Lord Margath",)
    state = rb.RULES.replay([m.TurnBegan(seat="p1", round=2, movement=1), m.Moved(seat="p1", place="Stormcrag")], state)
    events, _ = rb.act(state, "p1", m.Adventure())
    assert events[0] == m.CardDrawn(seat="p1", deck="red", card="Lord Margath")


@pytest.mark.parametrize("cards", [
    ("Knave of Secrets", "Knave of Blood", "Knave of Hate"),
    ("Duke of Secrets", "Duke of Blood", "Duke of Hate"),
])
def test_three_vassals_of_one_rank_are_a_set(rb, cards):
    events, _ = rb.act(at_end_of_turn(rb, *cards), "p1", rb.m.EndTurn())
    assert isinstance(events[1], rb.m.EndgameBegan) and events[1].king == "p1"


@pytest.mark.parametrize("cards", [
    ("Knave of Secrets", "Knight of Secrets", "Duke of Secrets"),
    ("Knight of Blood", "Lady of Blood", "Duke of Blood"),
])
def test_three_vassals_of_one_house_are_a_set(rb, cards):
    events, _ = rb.act(at_end_of_turn(rb, *cards), "p1", rb.m.EndTurn())
    assert isinstance(events[1], rb.m.EndgameBegan)


@pytest.mark.parametrize("cards", [
    ("Knave of Secrets", "Knight of Blood", "Duke of Hate"),
    ("Knave of Secrets", "Knave of Blood", "Knight of Hate", "Lady of Secrets"),
    ("Knave of Secrets", "Dragon Lord Sarkis"),
])
def test_vassals_that_are_not_three_of_a_rank_or_of_a_house_are_not_a_set(rb, cards):
    events, after = rb.act(at_end_of_turn(rb, *cards), "p1", rb.m.EndTurn())
    assert isinstance(events[1], rb.m.TurnBegan) and after.endgame is None


@pytest.mark.parametrize("cards", [
    ("Knave of Secrets", "Knave of Hate", "Dragon Lord Sarkis"),
    ("Knave of Secrets", "Duke of Secrets", "Dragon Lord Ebonclaw"),
    ("Lady of Blood", "Dragon Lord Sarkis", "Dragon Lord Ravhatar"),
    ("Dragon Lord Sarkis", "Dragon Lord Ravhatar", "Dragon Lord Ebonclaw"),
])
def test_a_defeated_dragon_lord_is_a_wild_card_for_any_vassal_of_any_house(rb, cards):
    events, _ = rb.act(at_end_of_turn(rb, *cards), "p1", rb.m.EndTurn())
    assert isinstance(events[1], rb.m.EndgameBegan)


def test_defeating_lord_margath_completes_a_set_without_any_vassal(rb):
    events, _ = rb.act(at_end_of_turn(rb, "Lord Margath"), "p1", rb.m.EndTurn())
    assert isinstance(events[1], rb.m.EndgameBegan)
    assert events[2] == rb.m.ElderKingCrowned(seat="p1", discarded=("Lord Margath",))


def test_lord_margath_is_the_last_red_card_even_after_a_red_challenge_returns_to_the_deck(rb):
    m = rb.m
    state = rb.given(m.Moved(seat="p1", place="Wolfden"), decks={"red": ("Dragon Lord Vyrmax", "Dragon Lord Kalvex", "Lord Margath")})
    _, state = rb.act(state, "p1", m.Adventure())
    _, state = rb.act(state, "p1", m.Attack(), rb.Dice(1))
    _, state = rb.act(state, "p1", m.Attack(), rb.Dice(1))
    _, state = rb.act(state, "p1", m.Attack(), rb.Dice(1))
    events, state = rb.act(state, "p1", m.Retreat())
    assert events[0] == m.CardReturned(deck="red", card="Dragon Lord Vyrmax", position=1)
    assert state.deck("red") == ("Dragon Lord Kalvex", "Dragon Lord Vyrmax", "Lord Margath")


def test_the_endgame_begins_after_the_experience_step_of_the_hero_who_completed_a_set(rb):
    """The rulebook's example: Rob completes the Knave, Knight and Lady of Secrets."""
    m = rb.m
    state = rb.given(*rb.won("p1", "Lady of Secrets", "Knight of Hate", "Knight of Secrets"),
                     m.Moved(seat="p1", place="Sunken Fen"), decks={"crown_blue": ("Knave of Secrets",)})
    _, state = rb.act(state, "p1", m.Adventure())
    _, state = rb.fight_until(state, "p1", lambda s: s.combat is None, rb.Dice(10))
    assert state.hero("p1").vassals[-1] == "Knave of Secrets"
    assert state.step == "experience" and state.endgame is None
    assert m.EndTurn() in rb.RULES.legal_commands(state, "p1")
    events, state = rb.act(state, "p1", m.EndTurn())
    assert events[0] == m.TurnEnded(seat="p1") and isinstance(events[1], m.EndgameBegan)


def test_normal_turns_stop_when_the_endgame_begins(rb):
    events, state = rb.act(at_end_of_turn(rb, "Lord Margath"), "p1", rb.m.EndTurn())
    assert not any(isinstance(e, rb.m.TurnBegan) for e in events)
    assert rb.RULES.to_act(state) == {"p1"} and state.step == "placing"


def test_every_challenge_of_the_red_runebound_deck_is_a_dragon_lord():
    red = [data.CARDS[name] for name in data.deck_cards("red")]
    assert all(card.get("dragon_lord") for card in red if card["kind"] == "challenge")
    assert len(data.DRAGON_LORDS) == sum(card["kind"] == "challenge" for card in red)
