"""The turn: Plot card timing, placing or moving a rogue, spot effects,
neighbourhood actions and the controller's coin, the Renown Square."""

import random

import pytest

from domain.engine import IllegalCommand


# ---------------------------------------------------------------- turn order

def test_turn_begins_with_placing_a_rogue_before_any_action(cm):
    s = cm.table()
    with pytest.raises(IllegalCommand, match="place"):
        cm.decide(s, "p1", cm.m.TakeCoins())
    with pytest.raises(IllegalCommand, match="place"):
        cm.decide(s, "p1", cm.m.EndTurn())


def test_turn_steps_run_place_spot_effect_action_controller_coin_then_standoffs(cm):
    s = cm.table(controllers={"grande-cour": "p2"},
                 board={("grande-cour", 1): ("p2", "henchman"), ("grande-cour", 2): ("p3", "henchman")})
    events = cm.decide(s, "p1", cm.m.PlaceRogue("henchman", "grande-cour", 3))
    assert cm.kinds(events) == ["RoguePlaced", "CoinsTaken"]  # spot 3: 1 coin
    s = cm.RULES.replay(events, s)
    events = cm.decide(s, "p1", cm.m.TakeCoins())
    assert cm.kinds(events)[:3] == ["ActionTaken", "CoinsTaken", "CoinsTaken"]
    assert events[2] == cm.m.CoinsTaken("p2", 1)
    assert "TurnEnded" in cm.kinds(events) and "StandoffBegan" in cm.kinds(events)


def test_turns_pass_clockwise(cm):
    s = cm.table(first="p3", hands={"p3": ()})
    s = cm.run(s, "p3", cm.m.PlaceRogue("henchman", "taverne", 1))
    events = cm.decide(s, "p3", cm.m.EndTurn())
    assert events[-1] == cm.m.TurnBegan("p1")


def test_a_seat_not_to_act_is_refused(cm):
    s = cm.table()
    with pytest.raises(IllegalCommand, match="not your turn"):
        cm.decide(s, "p2", cm.m.PlaceRogue("henchman", "taverne", 1))


# ------------------------------------------------------------- plot timing

def test_plot_card_may_be_played_before_placing(cm):
    s = cm.table(hands={"p1": ("wheel",)})
    events = cm.decide(s, "p1", cm.m.PlayPlot("wheel", player="p2"))
    assert cm.kinds(events) == ["PlotPlayed", "CoinsTaken", "CoinsTaken"]


def test_plot_card_may_be_played_after_placing_and_after_the_action(cm):
    s = cm.table(hands={"p1": ("wheel",)}, phase="act", placed_neighbourhood="grande-cour", placed_spot=1,
                 board={("grande-cour", 1): ("p1", "henchman")})
    s = cm.run(s, "p1", cm.m.TakeCoins())
    assert s.phase == "act" and s.turn.action_done  # waits: a Plot card can still be played
    events = cm.decide(s, "p1", cm.m.PlayPlot("wheel", player="p2"))
    assert events[0] == cm.m.PlotPlayed("p1", "wheel")
    assert "TurnEnded" in cm.kinds(events)  # nothing left to do: the turn ends


def test_plot_card_may_not_be_played_during_a_standoff(cm):
    s = cm.table(hands={"p1": ("wheel",)}, coins={"p1": 5},
                 board={("taverne", 1): ("p1", "swordsman"), ("taverne", 2): ("p2", "henchman"),
                        ("taverne", 3): ("p1", "beggar")}, phase="act", placed_neighbourhood="taverne",
                 placed_spot=3)
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert s.phase == "standoff" and cm.RULES.to_act(s) == {"p1"}
    with pytest.raises(IllegalCommand, match="during a Standoff"):
        cm.decide(s, "p1", cm.m.PlayPlot("wheel", player="p2"))


def test_plot_card_may_not_be_played_in_another_players_turn(cm):
    s = cm.table(hands={"p2": ("wheel",)})
    with pytest.raises(IllegalCommand, match="not your turn"):
        cm.decide(s, "p2", cm.m.PlayPlot("wheel", player="p1"))


def test_hand_limit_is_4_and_further_draws_are_not_drawn(cm):
    s = cm.table(hands={"p1": ("fool", "fool", "hermit")})
    events = cm.decide(s, "p1", cm.m.PlaceRogue("henchman", "chatelet", 3))  # draws 2
    drawn = cm.of(events, cm.m.PlotsDrawn)
    assert len(drawn) == 1 and len(drawn[0].cards) == 1
    assert len(cm.RULES.replay(events, s).player("p1").hand) == 4


def test_an_empty_plot_pile_is_reshuffled_from_the_discards(cm):
    s = cm.table(pile=(), discards=("fool", "hermit"), hands={"p1": ()})
    events = cm.decide(s, "p1", cm.m.PlaceRogue("henchman", "chatelet", 3))
    assert cm.kinds(events)[1:3] == ["PlotPileReshuffled", "PlotsDrawn"]
    after = cm.RULES.replay(events, s)
    assert sorted(after.player("p1").hand) == ["fool", "hermit"] and after.discards == ()


def test_with_pile_and_discards_empty_nothing_is_drawn(cm):
    s = cm.table(pile=(), hands={"p1": ()})
    assert cm.kinds(cm.decide(s, "p1", cm.m.PlaceRogue("henchman", "chatelet", 3))) == ["RoguePlaced"]


# ----------------------------------------------------------------- placing

def test_rogue_is_placed_face_down_on_a_free_spot(cm):
    s = cm.run(cm.table(), "p1", cm.m.PlaceRogue("beggar", "taverne", 2), seed=3)
    assert s.occupant("taverne", 2) == ("p1", "beggar") and "beggar" not in s.player("p1").supply


def test_rogue_cannot_be_placed_on_an_occupied_spot(cm):
    s = cm.table(board={("taverne", 2): ("p2", "henchman")})
    with pytest.raises(IllegalCommand, match="occupied"):
        cm.decide(s, "p1", cm.m.PlaceRogue("beggar", "taverne", 2))


def test_rogue_must_be_one_of_yours_out_of_play(cm):
    with pytest.raises(IllegalCommand, match="no 'brute'"):
        cm.decide(cm.table(), "p1", cm.m.PlaceRogue("brute", "taverne", 2))
    with pytest.raises(IllegalCommand, match="no neighbourhood"):
        cm.decide(cm.table(), "p1", cm.m.PlaceRogue("beggar", "louvre", 2))


def test_with_all_rogues_in_play_one_must_be_moved(cm):
    s = cm.table(supply={"p1": ()}, board={("taverne", 1): ("p1", "henchman")})
    legal = cm.RULES.legal_commands(s, "p1")
    assert legal and all(isinstance(c, (cm.m.MoveRogue, cm.m.PlayPlot)) for c in legal)
    events = cm.decide(s, "p1", cm.m.MoveRogue("taverne", 1, "halles", 2))
    assert events[0] == cm.m.RoguePlaced("p1", "henchman", "halles", 2, "taverne", 1)


def test_moving_a_rogue_is_refused_while_one_is_out_of_play(cm):
    s = cm.table(board={("taverne", 1): ("p1", "henchman")})
    with pytest.raises(IllegalCommand, match="all your rogues are in play"):
        cm.decide(s, "p1", cm.m.MoveRogue("taverne", 1, "halles", 2))


def test_a_moved_rogue_applies_the_spot_effect_and_the_action(cm):
    s = cm.table(supply={"p1": ()}, board={("taverne", 1): ("p1", "henchman")})
    s = cm.run(s, "p1", cm.m.MoveRogue("taverne", 1, "grande-cour", 3))
    assert s.player("p1").coins == 1 + 1
    assert cm.m.TakeCoins() in cm.RULES.legal_commands(s, "p1")


# ------------------------------------------------------------ spot effects

def test_spot_effect_moves_the_penniless_king(cm):
    s = cm.run(cm.table(king=5), "p1", cm.m.PlaceRogue("beggar", "taverne", 2))  # king 2
    assert s.king == 7


def test_spot_effect_gives_coins(cm):
    s = cm.run(cm.table(), "p1", cm.m.PlaceRogue("beggar", "halles", 2))  # coins 2
    assert s.player("p1").coins == 3


def test_spot_effect_draws_plot_cards(cm):
    s = cm.run(cm.table(hands={"p1": ()}), "p1", cm.m.PlaceRogue("beggar", "egyptienne", 2))  # plots 2
    assert len(s.player("p1").hand) == 2


def test_the_reserve_pays_only_what_it_has(cm):
    s = cm.run(cm.table(reserve=1), "p1", cm.m.PlaceRogue("beggar", "halles", 2))
    assert s.player("p1").coins == 2 and s.reserve == 0


# ------------------------------------------------------ neighbourhood actions

def acting(cm, n, spot=1, **kw):
    board = dict(kw.pop("board", {}))
    board[(n, spot)] = ("p1", "henchman")
    return cm.table(phase="act", placed_neighbourhood=n, placed_spot=spot, board=board, **kw)


def test_the_neighbourhood_action_is_optional(cm):
    s = acting(cm, "grande-cour", controllers={"grande-cour": "p2"})
    events = cm.decide(s, "p1", cm.m.EndTurn())
    assert not cm.of(events, cm.m.CoinsTaken) and events[-1] == cm.m.TurnBegan("p2")


def test_only_the_action_of_the_neighbourhood_where_the_rogue_was_placed(cm):
    with pytest.raises(IllegalCommand, match="not the action"):
        cm.decide(acting(cm, "grande-cour"), "p1", cm.m.DrawPlot())


def test_the_controller_takes_a_coin_when_the_action_is_taken(cm):
    s = cm.run(acting(cm, "grande-cour", controllers={"grande-cour": "p3"}), "p1", cm.m.TakeCoins())
    assert (s.player("p1").coins, s.player("p3").coins) == (1 + 2, 3 + 1)


def test_the_controller_taking_the_coin_may_be_the_acting_player(cm):
    s = cm.run(acting(cm, "grande-cour", controllers={"grande-cour": "p1"}), "p1", cm.m.TakeCoins())
    assert s.player("p1").coins == 1 + 2 + 1


def test_the_action_is_taken_once_per_turn(cm):
    s = cm.run(acting(cm, "grande-cour", hands={"p1": ("fool",)}), "p1", cm.m.TakeCoins())
    with pytest.raises(IllegalCommand, match="already taken"):
        cm.decide(s, "p1", cm.m.TakeCoins())


def test_taverne_recruits_a_rogue_that_replaces_one_of_yours_out_of_play(cm):
    s = cm.run(acting(cm, "taverne", bag=("brute", "courtesan")), "p1", cm.m.Recruit())
    assert s.phase == "recruit" and s.drawn == "brute" and s.bag == ("courtesan",)
    assert cm.RULES.to_act(s) == {"p1"}
    s = cm.run(s, "p1", cm.m.DiscardRogue("beggar"))
    assert s.player("p1").supply == ("brute", "henchman", "henchman") and s.seine == ("beggar",)


def test_taverne_drawn_rogue_may_be_discarded_to_the_seine(cm):
    s = cm.run(acting(cm, "taverne", bag=("brute",)), "p1", cm.m.Recruit())
    s = cm.run(s, "p1", cm.m.DiscardRogue("brute"))
    assert s.player("p1").supply == ("beggar", "henchman", "henchman") and s.seine == ("brute",)


def test_taverne_cannot_recruit_from_an_empty_bag(cm):
    with pytest.raises(IllegalCommand, match="bag is empty"):
        cm.decide(acting(cm, "taverne", bag=()), "p1", cm.m.Recruit())


def test_rue_de_l_egyptienne_moves_another_rogue_to_a_free_spot_without_its_effect(cm):
    s = acting(cm, "egyptienne", board={("taverne", 1): ("p2", "henchman")})
    events = cm.decide(s, "p1", cm.m.ShiftRogue("taverne", 1, "halles", 2))
    assert cm.kinds(events)[:2] == ["ActionTaken", "RogueShifted"]
    s = cm.RULES.replay(events, s)
    assert s.occupant("halles", 2) == ("p2", "henchman") and s.player("p1").coins == 1


def test_rue_de_l_egyptienne_cannot_move_the_rogue_just_placed(cm):
    with pytest.raises(IllegalCommand, match="another rogue"):
        cm.decide(acting(cm, "egyptienne"), "p1", cm.m.ShiftRogue("egyptienne", 1, "halles", 2))


def test_les_halles_pays_the_toll_places_renown_on_a_line_and_gives_its_bonus(cm):
    s = cm.run(acting(cm, "halles", coins={"p1": 4}, hands={"p1": ()}), "p1", cm.m.BuyRenown(1))
    assert s.player("p1").lines == (1,) and s.player("p1").coins == 0 and len(s.player("p1").hand) == 1


def test_les_halles_refuses_a_line_whose_toll_you_cannot_pay(cm):
    with pytest.raises(IllegalCommand, match="costs 5"):
        cm.decide(acting(cm, "halles", coins={"p1": 4}), "p1", cm.m.BuyRenown(2))


def test_renown_square_line_2_moves_the_king_2_spaces(cm):
    s = cm.run(acting(cm, "halles", coins={"p1": 5}, king=0), "p1", cm.m.BuyRenown(2))
    assert s.king == 2


def test_renown_square_line_3_gives_back_the_right_hand(cm):
    s = cm.run(acting(cm, "halles", coins={"p1": 6}), "p1", cm.m.BuyRenown(3))
    assert not s.player("p1").right_hand_parked and "right-hand" in s.player("p1").supply


def test_renown_square_line_4_draws_2_plot_cards(cm):
    s = cm.run(acting(cm, "halles", coins={"p1": 7}, hands={"p1": ()}), "p1", cm.m.BuyRenown(4))
    assert len(s.player("p1").hand) == 2


def test_renown_square_line_5_moves_the_king_3_spaces(cm):
    s = cm.run(acting(cm, "halles", coins={"p1": 8}, king=4), "p1", cm.m.BuyRenown(5))
    assert s.king == 7


def test_renown_square_allows_one_token_per_player_per_line(cm):
    s = acting(cm, "halles", coins={"p1": 9}, lines={"p1": (1,), "p2": (2,)})
    with pytest.raises(IllegalCommand, match="one per player per line"):
        cm.decide(s, "p1", cm.m.BuyRenown(1))
    assert cm.run(s, "p1", cm.m.BuyRenown(2)).player("p1").lines == (1, 2)  # another player's line is fine


def test_le_chatelet_draws_a_plot_card(cm):
    s = cm.run(acting(cm, "chatelet", hands={"p1": ()}), "p1", cm.m.DrawPlot())
    assert len(s.player("p1").hand) == 1


def test_la_grande_cour_des_miracles_gives_2_coins(cm):
    s = cm.run(acting(cm, "grande-cour"), "p1", cm.m.TakeCoins())
    assert s.player("p1").coins == 3


def test_nonsense_values_are_refused_with_a_reason(cm):
    s = cm.table()
    for command in (cm.m.PlaceRogue("beggar", "taverne", 0), cm.m.PlaceRogue("beggar", "taverne", -3),
                    cm.m.PlaceRogue("beggar", ("taverne",), 1), cm.m.PlaceRogue(["beggar"], "taverne", 1),
                    cm.m.PlaceRogue("beggar", "taverne", "1"), cm.m.PlayPlot(card=("fool",)),
                    cm.m.BuyRenown(line=[1]), cm.m.ChooseWrath("seine")):
        with pytest.raises(IllegalCommand):
            cm.decide(s, "p1", command)


def test_timeout_while_recruiting_sends_the_drawn_rogue_to_the_seine(cm):
    s = cm.run(acting(cm, "taverne", bag=("brute",)), "p1", cm.m.Recruit())
    assert cm.RULES.on_timeout(s, "p1", random.Random(0)) == cm.m.DiscardRogue("brute")
