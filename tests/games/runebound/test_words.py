"""Runebound's legal commands in words (issue 33): each says, with the printed
names of places, heroes and cards, what the hero would do; every seat's hand
is its hero's items, allies and Vassals, each named in card_texts.json."""

from domain.engine import EVERYONE
from tests.games.said import entries, sentences


def test_every_opening_move_names_the_place_as_printed(rb):
    said = sentences(rb.RULES, rb.given(), "p1")
    assert "Move to Greyhaven Pass" in said and "Move to Tamalir" in said
    assert all(s.startswith("Move to ") for s in said)


def test_a_wounded_hero_is_offered_his_healing_item_by_its_name_and_what_it_heals(rb):
    state = rb.given(rb.m.Bought(seat="p2", card="Healing Draught", gold=0),
                     rb.m.Suffered(seat="p2", wounds=2, exhaustion=0), rb.m.TurnBegan(seat="p2", round=1, movement=2))
    assert "Use Healing Draught to heal 2 wounds" in sentences(rb.RULES, state, "p2")


def test_each_seat_s_hand_is_its_hero_s_items_allies_and_vassals_named_in_card_texts(rb):
    state = rb.given(rb.m.Bought(seat="p2", card="Healing Draught", gold=0),
                     rb.m.Bought(seat="p2", card="Hired Archer", gold=0))
    texts = entries(rb.RULES, rb.RULES.hand.names)
    hand = rb.RULES.hand.cards(rb.RULES.view(state, "p2"), "p2")
    assert hand == ["Healing Draught", "Hired Archer"]
    assert texts["Hired Archer"]["text"].startswith("Ally, hired for 4 gold")
    assert rb.RULES.hand.cards(rb.RULES.view(state, "p1"), "p1") == []
    assert rb.RULES.hand.cards(rb.RULES.view(state, EVERYONE), EVERYONE) is None


def test_the_market_and_the_vassals_are_named_in_card_texts(rb):
    texts = entries(rb.RULES, rb.RULES.hand.names)
    assert set(rb.data.MARKET) <= set(texts)
    assert {name for name, card in rb.data.CARDS.items() if card.get("vassal")} <= set(texts)
