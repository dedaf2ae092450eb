"""The Court of Miracles' legal commands in words (issue 33): each says, with
the printed names of the rogues, Plot cards and neighbourhoods, what the
player would do; and every seat's hand holds its Plot cards and rogues."""

from domain.engine import EVERYONE
from tests.games.said import entries, sentences


def test_every_opening_placement_names_the_rogue_and_the_neighbourhood_by_their_printed_names(cm):
    said = sentences(cm.RULES, cm.table(), "p1")
    assert "Place your Henchman face down on spot 1 of Taverne" in said
    assert "Place your Right-Hand face down on spot 3 of La Grande Cour des Miracles" not in said  # parked
    assert not any("grande-cour" in s or "henchman" in s for s in said)


def test_death_is_said_with_the_card_it_takes_from_the_discard_pile(cm):
    state = cm.table(hands={"p1": ("death",)}, discards=("judgment", "hanged-man"), phase="act")
    said = sentences(cm.RULES, state, "p1")
    assert "Play Death, taking Judgment from the discard pile" in said
    assert "Play Death, taking The Hanged Man from the discard pile" in said


def test_the_empress_and_wheel_of_fortune_name_the_renown_token_and_the_player(cm):
    state = cm.table(hands={"p1": ("empress", "wheel")}, lines={"p1": (1,)}, phase="act")
    said = sentences(cm.RULES, state, "p1")
    assert "Play The Empress, moving your Renown token from Renown Square line 1 to Les Halles" in said
    assert "Play Wheel of Fortune on p2" in said


def test_each_seat_s_hand_is_its_plot_cards_then_its_rogues_each_named_in_names_json(cm):
    state = cm.table(hands={"p1": ("fool",), "p2": ("death", "wheel")})
    faces = entries(cm.RULES, cm.RULES.hand.names)
    mine = cm.RULES.hand.cards(cm.RULES.view(state, "p1"), "p1")
    assert mine[0] == "fool" and {faces[card]["name"] for card in mine[1:]} >= {"Henchman", "Beggar"}
    assert cm.RULES.hand.cards(cm.RULES.view(state, "p2"), "p2")[:2] == ["death", "wheel"]
    assert cm.RULES.hand.cards(cm.RULES.view(state, EVERYONE), EVERYONE) is None


def test_a_drawn_rogue_waits_in_the_hand_of_the_player_who_drew_it(cm):
    state = cm.table(phase="act", placed_neighbourhood="taverne", placed_spot=1,
                     board={("taverne", 1): ("p1", "henchman")}, bag=("brute",))
    state = cm.run(state, "p1", cm.m.Recruit())
    hand = cm.RULES.hand.cards(cm.RULES.view(state, "p1"), "p1")
    assert hand[-1] == state.drawn == "brute"
    assert "Send your Brute to the Seine" in sentences(cm.RULES, state, "p1")
    assert "brute" not in cm.RULES.hand.cards(cm.RULES.view(state, "p2"), "p2")
