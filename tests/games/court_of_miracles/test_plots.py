"""The twelve Plot cards, one test (at least) each."""

import pytest

from domain.engine import IllegalCommand


def test_plot_card_goes_to_the_discard_pile(cm):
    s = cm.run(cm.table(hands={"p1": ("judgment",)}), "p1", cm.m.PlayPlot("judgment"))
    assert s.player("p1").hand == () and s.discards == ("judgment",)


def test_the_fool_each_player_with_5_or_more_coins_gives_you_1(cm):
    s = cm.table(hands={"p1": ("fool",)}, coins={"p2": 5, "p3": 4})
    events = cm.decide(s, "p1", cm.m.PlayPlot("fool"))
    assert cm.of(events, cm.m.CoinsGiven) == [cm.m.CoinsGiven("p2", "p1", 1)]


def test_the_chariot_triggers_a_standoff_at_once_where_two_players_have_rogues(cm):
    board = {("halles", 1): ("p2", "henchman"), ("halles", 3): ("p3", "brute")}
    s = cm.table(hands={"p1": ("chariot",)}, board=board)
    events = cm.decide(s, "p1", cm.m.PlayPlot("chariot", neighbourhood="halles"))
    assert cm.kinds(events)[:3] == ["PlotPlayed", "StandoffBegan", "StandoffWon"]
    s = cm.RULES.replay(events, s)
    assert s.controller("halles") == "p3" and s.phase == "place" and s.active == "p1"


def test_the_chariot_needs_rogues_of_two_different_players(cm):
    s = cm.table(hands={"p1": ("chariot",)}, board={("halles", 1): ("p2", "henchman"), ("halles", 2): ("p2", "brute")})
    with pytest.raises(IllegalCommand, match="at least 2 different players"):
        cm.decide(s, "p1", cm.m.PlayPlot("chariot", neighbourhood="halles"))


def test_death_takes_a_card_of_your_choice_from_the_discard_pile(cm):
    s = cm.run(cm.table(hands={"p1": ("death",)}, discards=("fool", "hermit")), "p1", cm.m.PlayPlot("death", take="hermit"))
    assert s.player("p1").hand == ("hermit",) and sorted(s.discards) == ["death", "fool"]
    with pytest.raises(IllegalCommand, match="discard pile"):
        cm.decide(cm.table(hands={"p1": ("death",)}, discards=("fool",)), "p1", cm.m.PlayPlot("death", take="wheel"))


def test_the_devil_doubles_the_bonus_of_the_spot(cm):
    s = cm.run(cm.table(hands={"p1": ("devil",)}), "p1", cm.m.PlayPlot("devil"))
    s = cm.run(s, "p1", cm.m.PlaceRogue("beggar", "halles", 2))  # 2 coins, doubled
    assert s.player("p1").coins == 1 + 4


def test_the_devil_must_be_played_before_placing(cm):
    s = cm.table(hands={"p1": ("devil",)}, phase="act", placed_neighbourhood="halles", placed_spot=1,
                 board={("halles", 1): ("p1", "henchman")})
    with pytest.raises(IllegalCommand, match="before placing"):
        cm.decide(s, "p1", cm.m.PlayPlot("devil"))


def test_the_devil_doubled_king_still_stops_on_wrath(cm):
    s = cm.run(cm.table(hands={"p1": ("devil",)}, king=1), "p1", cm.m.PlayPlot("devil"))
    s = cm.run(s, "p1", cm.m.PlaceRogue("beggar", "taverne", 2))  # 2 spaces doubled to 4
    assert s.king == 4 and s.turn.wrath == "halles"


def test_the_empress_moves_your_renown_token_to_an_uncontrolled_neighbourhood(cm):
    s = cm.table(hands={"p1": ("empress",)}, controllers={"taverne": "p1", "halles": "p2"})
    s = cm.run(s, "p1", cm.m.PlayPlot("empress", neighbourhood="taverne", to_neighbourhood="chatelet"))
    assert s.controller("taverne") is None and s.controller("chatelet") == "p1"
    with pytest.raises(IllegalCommand, match="uncontrolled"):
        cm.decide(cm.table(hands={"p1": ("empress",)}, controllers={"taverne": "p1", "halles": "p2"}), "p1",
                  cm.m.PlayPlot("empress", neighbourhood="taverne", to_neighbourhood="halles"))


def test_the_empress_moves_a_renown_token_from_the_renown_square_and_frees_the_line(cm):
    s = cm.table(hands={"p1": ("empress",)}, lines={"p1": (2,)})
    s = cm.run(s, "p1", cm.m.PlayPlot("empress", line=2, to_neighbourhood="chatelet"))
    assert s.player("p1").lines == () and s.controller("chatelet") == "p1"


def test_the_empress_never_reopens_line_3_of_the_right_hand(cm):
    s = cm.table(hands={"p1": ("empress",)}, lines={"p1": (3,)}, parked={"p1": False}, coins={"p1": 9})
    s = cm.run(s, "p1", cm.m.PlayPlot("empress", line=3, to_neighbourhood="chatelet"))
    s = cm.run(s, "p1", cm.m.PlaceRogue("beggar", "halles", 1))
    with pytest.raises(IllegalCommand, match="line 3 is closed"):
        cm.decide(s, "p1", cm.m.BuyRenown(3))


def test_the_hanged_man_moves_an_opponents_rogue_to_another_spot(cm):
    s = cm.table(hands={"p1": ("hanged-man",)}, board={("halles", 1): ("p2", "henchman"), ("halles", 2): ("p1", "beggar")})
    events = cm.decide(s, "p1", cm.m.PlayPlot("hanged-man", neighbourhood="halles", spot=1, to_neighbourhood="taverne",
                                               to_spot=3))
    assert cm.kinds(events) == ["PlotPlayed", "RogueShifted"]  # no spot effect
    assert cm.RULES.replay(events, s).occupant("taverne", 3) == ("p2", "henchman")
    with pytest.raises(IllegalCommand, match="opponent"):
        cm.decide(s, "p1", cm.m.PlayPlot("hanged-man", neighbourhood="halles", spot=2, to_neighbourhood="taverne",
                                         to_spot=3))


def test_the_hanged_man_filling_a_neighbourhood_brings_a_standoff_at_the_end_of_the_turn(cm):
    board = {("halles", 1): ("p2", "henchman"), ("taverne", 1): ("p3", "henchman"), ("taverne", 2): ("p1", "beggar")}
    s = cm.table(hands={"p1": ("hanged-man",)}, board=board)
    s = cm.run(s, "p1", cm.m.PlayPlot("hanged-man", neighbourhood="halles", spot=1, to_neighbourhood="taverne", to_spot=3))
    assert s.phase == "place" and s.full("taverne")
    s = cm.run(s, "p1", cm.m.PlaceRogue("henchman", "chatelet", 2))
    events = cm.decide(s, "p1", cm.m.EndTurn())
    assert cm.of(events, cm.m.StandoffBegan)[0].neighbourhood == "taverne"


def test_the_hermit_takes_back_a_controlled_neighbourhoods_renown_for_5_coins(cm):
    s = cm.run(cm.table(hands={"p1": ("hermit",)}, controllers={"halles": "p1"}), "p1",
               cm.m.PlayPlot("hermit", neighbourhood="halles"))
    assert s.controller("halles") is None and s.player("p1").coins == 6
    with pytest.raises(IllegalCommand, match="you control"):
        cm.decide(cm.table(hands={"p1": ("hermit",)}, controllers={"halles": "p2"}), "p1",
                  cm.m.PlayPlot("hermit", neighbourhood="halles"))


def test_judgment_each_player_with_more_renown_in_play_gives_you_1_coin(cm):
    s = cm.table(hands={"p1": ("judgment",)}, controllers={"halles": "p1", "taverne": "p2", "chatelet": "p2"},
                 lines={"p3": (1,)})
    events = cm.decide(s, "p1", cm.m.PlayPlot("judgment"))
    assert cm.of(events, cm.m.CoinsGiven) == [cm.m.CoinsGiven("p2", "p1", 1)]


def test_justice_removes_all_rogues_of_a_neighbourhood_without_a_standoff(cm):
    board = {("halles", 1): ("p2", "henchman"), ("halles", 2): ("p3", "brute")}
    s = cm.table(hands={"p1": ("justice",)}, board=board)
    events = cm.decide(s, "p1", cm.m.PlayPlot("justice", neighbourhood="halles"))
    assert cm.kinds(events) == ["PlotPlayed", "RoguesReturned"]
    s = cm.RULES.replay(events, s)
    assert s.rogues_in("halles") == () and "brute" in s.player("p3").supply and s.controller("halles") is None


def test_the_magician_applies_the_action_of_another_neighbourhood(cm):
    s = cm.run(cm.table(hands={"p1": ("magician",)}, controllers={"grande-cour": "p3", "halles": "p2"}), "p1",
               cm.m.PlayPlot("magician"))
    s = cm.run(s, "p1", cm.m.PlaceRogue("beggar", "halles", 1))
    legal = cm.RULES.legal_commands(s, "p1")
    assert cm.m.TakeCoins() in legal and cm.m.BuyRenown(1) not in legal
    events = cm.decide(s, "p1", cm.m.TakeCoins())
    assert cm.m.CoinsTaken("p3", 1) in events and cm.m.CoinsTaken("p2", 1) not in events


def test_strength_draws_a_rogue_and_discards_one_of_yours_out_of_play(cm):
    s = cm.run(cm.table(hands={"p1": ("strength",)}, bag=("courtesan", "brute")), "p1", cm.m.PlayPlot("strength"))
    assert s.phase == "recruit" and s.drawn == "courtesan"
    assert {c.rogue for c in cm.RULES.legal_commands(s, "p1")} == {"beggar", "henchman", "courtesan"}
    s = cm.run(s, "p1", cm.m.DiscardRogue("henchman"))
    assert s.player("p1").supply == ("beggar", "courtesan", "henchman") and s.phase == "place"


def test_wheel_of_fortune_gives_you_3_coins_and_another_player_of_your_choice_1(cm):
    s = cm.run(cm.table(hands={"p1": ("wheel",)}), "p1", cm.m.PlayPlot("wheel", player="p3"))
    assert (s.player("p1").coins, s.player("p3").coins) == (4, 4)
    with pytest.raises(IllegalCommand, match="another player"):
        cm.decide(cm.table(hands={"p1": ("wheel",)}), "p1", cm.m.PlayPlot("wheel", player="p1"))


def test_a_plot_card_not_in_hand_is_refused(cm):
    with pytest.raises(IllegalCommand, match="no 'fool' card"):
        cm.decide(cm.table(hands={"p1": ()}), "p1", cm.m.PlayPlot("fool"))
    with pytest.raises(IllegalCommand, match="no Plot card 'joker'"):
        cm.decide(cm.table(hands={"p1": ()}), "p1", cm.m.PlayPlot("joker"))


def test_the_devils_doubled_draw_respects_the_hand_limit(cm):
    s = cm.run(cm.table(hands={"p1": ("devil", "fool", "fool")}), "p1", cm.m.PlayPlot("devil"))
    s = cm.run(s, "p1", cm.m.PlaceRogue("beggar", "egyptienne", 2))  # 2 cards doubled to 4
    assert len(s.player("p1").hand) == 4


def test_the_magician_refuses_the_placed_neighbourhoods_own_action(cm):
    s = cm.run(cm.table(hands={"p1": ("magician",)}), "p1", cm.m.PlayPlot("magician"))
    s = cm.run(s, "p1", cm.m.PlaceRogue("beggar", "grande-cour", 1))
    with pytest.raises(IllegalCommand, match="another neighbourhood"):
        cm.decide(s, "p1", cm.m.TakeCoins())


def test_justice_on_the_neighbourhood_just_placed_keeps_its_action(cm):
    s = cm.table(hands={"p1": ("justice",)}, phase="act", placed_neighbourhood="grande-cour", placed_spot=1,
                 board={("grande-cour", 1): ("p1", "henchman"), ("grande-cour", 2): ("p2", "henchman")})
    s = cm.run(s, "p1", cm.m.PlayPlot("justice", neighbourhood="grande-cour"))
    assert s.rogues_in("grande-cour") == () and cm.m.TakeCoins() in cm.RULES.legal_commands(s, "p1")


def test_only_one_plot_card_may_be_played_per_turn(cm):
    s = cm.run(cm.table(hands={"p1": ("wheel", "fool")}), "p1", cm.m.PlayPlot("wheel", player="p2"))
    assert s.turn.plot_played and not any(isinstance(c, cm.m.PlayPlot) for c in cm.RULES.legal_commands(s, "p1"))
    with pytest.raises(IllegalCommand, match="one per turn"):
        cm.decide(s, "p1", cm.m.PlayPlot("fool"))
    s = cm.run(s, "p1", cm.m.PlaceRogue("beggar", "grande-cour", 1))
    with pytest.raises(IllegalCommand, match="one per turn"):
        cm.decide(s, "p1", cm.m.PlayPlot("fool"))
    s = cm.run(s, "p1", cm.m.EndTurn())
    s = cm.run(s, "p2", cm.m.PlaceRogue("beggar", "grande-cour", 2))
    s = cm.run(s, "p2", cm.m.EndTurn())
    s = cm.run(s, "p3", cm.m.PlaceRogue("beggar", "taverne", 1))
    s = cm.run(s, "p3", cm.m.EndTurn())
    assert s.active == "p1" and cm.m.PlayPlot("fool") in cm.RULES.legal_commands(s, "p1")  # a new turn, a new card


def test_after_the_action_the_turn_ends_by_itself_once_the_turns_plot_card_is_played(cm):
    s = cm.table(hands={"p1": ("fool", "hermit")}, phase="act", placed_neighbourhood="grande-cour", placed_spot=1,
                 board={("grande-cour", 1): ("p1", "henchman")})
    s = cm.run(s, "p1", cm.m.PlayPlot("fool"))
    events = cm.decide(s, "p1", cm.m.TakeCoins())
    assert "TurnEnded" in cm.kinds(events) and events[-1] == cm.m.TurnBegan("p2")


def test_the_chariots_standoff_waits_for_swordsman_payments_then_the_turn_goes_on(cm):
    board = {("halles", 1): ("p2", "swordsman"), ("halles", 3): ("p1", "brute")}
    s = cm.table(hands={"p1": ("chariot",)}, board=board, coins={"p2": 2})
    s = cm.run(s, "p1", cm.m.PlayPlot("chariot", neighbourhood="halles"))
    assert s.phase == "standoff" and cm.RULES.to_act(s) == {"p2"}
    s = cm.run(s, "p2", cm.m.PaySwordsmen(1))
    assert s.controller("halles") == "p2" and s.phase == "place" and cm.RULES.to_act(s) == {"p1"}


def test_the_hanged_man_may_move_the_rogue_to_another_spot_of_the_same_neighbourhood(cm):
    s = cm.table(hands={"p1": ("hanged-man",)}, board={("halles", 1): ("p2", "henchman")})
    s = cm.run(s, "p1", cm.m.PlayPlot("hanged-man", neighbourhood="halles", spot=1, to_neighbourhood="halles",
                                       to_spot=3))
    assert s.occupant("halles", 3) == ("p2", "henchman") and s.occupant("halles", 1) is None


def test_death_may_take_another_death_but_needs_a_discard_pile(cm):
    s = cm.run(cm.table(hands={"p1": ("death",)}, discards=("death",)), "p1", cm.m.PlayPlot("death", take="death"))
    assert s.player("p1").hand == ("death",) and s.discards == ("death",)
    empty = cm.table(hands={"p1": ("death",)})
    assert not any(isinstance(c, cm.m.PlayPlot) for c in cm.RULES.legal_commands(empty, "p1"))


def test_under_rules_version_1_no_plot_card_while_a_drawn_rogue_waits_or_the_wrath_neighbourhood_is_chosen(cm):
    s = cm.table(hands={"p1": ("wheel",)}, phase="act", placed_neighbourhood="taverne", placed_spot=1,
                 board={("taverne", 1): ("p1", "henchman")}, bag=("brute",), rules_version=1)
    s = cm.run(s, "p1", cm.m.Recruit())
    with pytest.raises(IllegalCommand, match="discard"):
        cm.decide(s, "p1", cm.m.PlayPlot("wheel", player="p2"))
    s = cm.run(s, "p1", cm.m.DiscardRogue("brute"))
    s = cm.run(cm.table(hands={"p1": ("wheel",)}, king=3, rules_version=1), "p1", cm.m.PlaceRogue("beggar", "taverne", 2))
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert s.phase == "wrath"
    with pytest.raises(IllegalCommand, match="Wrath"):
        cm.decide(s, "p1", cm.m.PlayPlot("wheel", player="p2"))
