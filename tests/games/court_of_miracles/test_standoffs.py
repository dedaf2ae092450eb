"""Standoffs: when they happen, who wins, what follows, and every rogue ability."""

import random

import pytest

from domain.engine import IllegalCommand
from tests.games.told import seen


def ending(cm, board, placed=("taverne", 3), **kw):
    """p1's turn, rogue placed, about to end the turn."""
    return cm.table(phase="act", placed_neighbourhood=placed[0], placed_spot=placed[1], board=board, **kw)


def full_taverne(a, b, c):
    return {("taverne", 1): a, ("taverne", 2): b, ("taverne", 3): c}


def test_a_standoff_happens_when_all_spots_of_a_neighbourhood_are_occupied(cm):
    s = cm.table(board={("taverne", 1): ("p2", "henchman"), ("taverne", 2): ("p3", "henchman")})
    s = cm.run(s, "p1", cm.m.PlaceRogue("beggar", "taverne", 3))
    events = cm.decide(s, "p1", cm.m.EndTurn())
    assert cm.kinds(events)[:2] == ["TurnEnded", "StandoffBegan"]
    assert events[0].standoffs == ("taverne",)


def test_no_standoff_in_a_neighbourhood_with_a_free_spot(cm):
    s = ending(cm, {("taverne", 1): ("p2", "henchman"), ("taverne", 3): ("p1", "henchman")})
    assert cm.kinds(cm.decide(s, "p1", cm.m.EndTurn())) == ["TurnEnded", "TurnBegan"]


def test_standoff_reveals_the_rogues(cm):
    s = ending(cm, full_taverne(("p2", "brute"), ("p3", "henchman"), ("p1", "beggar")))
    began = cm.of(cm.decide(s, "p1", cm.m.EndTurn()), cm.m.StandoffBegan)[0]
    assert began.rogues == (("p2", 1, "brute"), ("p3", 2, "henchman"), ("p1", 3, "beggar"))


def test_standoff_highest_total_strength_wins_and_places_a_renown_token(cm):
    s = ending(cm, full_taverne(("p2", "henchman"), ("p1", "henchman"), ("p1", "henchman")))
    events = cm.decide(s, "p1", cm.m.EndTurn())
    won = cm.of(events, cm.m.StandoffWon)[0]
    assert won.winner == "p1" and dict(won.totals) == {"p1": 2, "p2": 1}
    assert cm.m.RenownPlaced("p1", neighbourhood="taverne") in events


def test_standoff_tie_goes_to_the_player_whose_rogue_is_closest_to_the_symbol(cm):
    s = ending(cm, full_taverne(("p2", "henchman"), ("p1", "henchman"), ("p3", "beggar")))
    assert cm.of(cm.decide(s, "p1", cm.m.EndTurn()), cm.m.StandoffWon)[0].winner == "p2"


def test_standoff_rogues_go_back_to_their_owners(cm):
    s = ending(cm, full_taverne(("p2", "brute"), ("p3", "henchman"), ("p1", "beggar")),
               supply={"p1": (), "p2": (), "p3": ()})
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert s.rogues_in("taverne") == ()
    assert (s.player("p1").supply, s.player("p2").supply, s.player("p3").supply) == (("beggar",), ("brute",), ("henchman",))


def test_standoff_previous_controller_gets_the_renown_token_back(cm):
    s = ending(cm, full_taverne(("p2", "brute"), ("p3", "henchman"), ("p1", "beggar")), controllers={"taverne": "p3"})
    events = cm.decide(s, "p1", cm.m.EndTurn())
    assert cm.m.RenownReturned("p3", neighbourhood="taverne") in events
    assert cm.RULES.replay(events, s).controller("taverne") == "p2"


def test_standoff_won_by_the_controller_keeps_control_without_a_new_token(cm):
    s = ending(cm, full_taverne(("p2", "brute"), ("p3", "henchman"), ("p1", "beggar")), controllers={"taverne": "p2"})
    events = cm.decide(s, "p1", cm.m.EndTurn())
    assert not cm.of(events, cm.m.RenownPlaced) and not cm.of(events, cm.m.RenownReturned)


def test_several_standoffs_are_settled_in_the_order_the_active_player_chooses(cm):
    board = {**full_taverne(("p2", "brute"), ("p3", "henchman"), ("p1", "beggar")),
             ("halles", 1): ("p2", "henchman"), ("halles", 2): ("p1", "henchman"), ("halles", 3): ("p3", "beggar")}
    s = cm.run(ending(cm, board), "p1", cm.m.EndTurn())
    assert s.phase == "standoffs" and s.queue == ("taverne", "halles")
    assert set(cm.RULES.legal_commands(s, "p1")) == {cm.m.SettleStandoff("taverne"), cm.m.SettleStandoff("halles")}
    events = cm.decide(s, "p1", cm.m.SettleStandoff("halles"))
    began = [e.neighbourhood for e in cm.of(events, cm.m.StandoffBegan)]
    assert began == ["halles", "taverne"] and events[-1] == cm.m.TurnBegan("p2")


def test_a_standoff_with_no_rogues_does_nothing(cm):
    s = cm.run(ending(cm, {("taverne", 3): ("p1", "henchman")}, wrath="chatelet"), "p1", cm.m.EndTurn())
    events = cm.decide(s, "p1", cm.m.ChooseWrath("chatelet"))
    assert cm.of(events, cm.m.StandoffWon)[0].winner is None
    assert not cm.of(events, cm.m.RenownPlaced)


def test_a_standoff_with_one_players_rogues_is_won_by_that_player(cm):
    s = cm.run(ending(cm, {("chatelet", 3): ("p2", "beggar")}, wrath="chatelet"), "p1", cm.m.EndTurn())
    s = cm.run(s, "p1", cm.m.ChooseWrath("chatelet"))
    assert s.controller("chatelet") == "p2"


# ------------------------------------------------------- Wrath of the King

def test_wrath_space_stops_the_king_for_the_turn(cm):
    s = cm.run(cm.table(king=3), "p1", cm.m.PlaceRogue("beggar", "taverne", 2))  # king +2 from 3
    assert s.king == 4 and s.turn.king_stopped and s.turn.wrath == "halles"


def test_a_king_stopped_by_wrath_moves_no_more_this_turn(cm):
    s = cm.table(king=4, phase="act", placed_neighbourhood="halles", placed_spot=1, king_stopped=True,
                 wrath="halles", coins={"p1": 5}, board={("halles", 1): ("p1", "henchman")})
    s = cm.run(s, "p1", cm.m.BuyRenown(2))
    assert s.king == 4


def test_wrath_settles_the_indicated_neighbourhood_and_one_chosen_by_the_active_player(cm):
    board = {("halles", 1): ("p2", "henchman"), ("chatelet", 1): ("p3", "henchman")}
    s = cm.table(king=3, board=board)
    s = cm.run(s, "p1", cm.m.PlaceRogue("beggar", "taverne", 2))
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert s.phase == "wrath" and cm.RULES.to_act(s) == {"p1"}
    s = cm.run(s, "p1", cm.m.ChooseWrath("chatelet"))
    assert s.phase == "standoffs" and s.queue == ("halles", "chatelet")
    s = cm.run(s, "p1", cm.m.SettleStandoff("chatelet"))
    assert s.controller("chatelet") == "p3" and s.controller("halles") == "p2" and s.active == "p2"


# --------------------------------------------------------------- rogues

@pytest.mark.parametrize("kind, strength", [("henchman", 1), ("right-hand", 2), ("brute", 2), ("beggar", 0),
                                            ("pickpocket", 1), ("priest", 1), ("soothsayer", 0),
                                            ("courtesan", 1), ("swordsman", 0)])
def test_rogue_strengths(cm, kind, strength):
    s = ending(cm, full_taverne(("p2", kind), ("p3", "beggar"), ("p1", "beggar")), coins={"p2": 0})
    won = cm.of(cm.decide(s, "p1", cm.m.EndTurn()), cm.m.StandoffWon)[0]
    assert dict(won.totals)["p2"] == strength


def test_beggar_owner_receives_1_coin_from_the_winner(cm):
    s = ending(cm, full_taverne(("p2", "brute"), ("p3", "beggar"), ("p1", "beggar")), coins={"p2": 3, "p3": 0})
    events = cm.decide(s, "p1", cm.m.EndTurn())
    assert cm.m.CoinsGiven("p2", "p3", 1) in events and cm.m.CoinsGiven("p2", "p1", 1) in events


def test_beggar_whose_owner_wins_gets_nothing(cm):
    s = ending(cm, full_taverne(("p2", "brute"), ("p2", "beggar"), ("p1", "henchman")))
    assert not cm.of(cm.decide(s, "p1", cm.m.EndTurn()), cm.m.CoinsGiven)


def test_pickpocket_takes_2_coins_when_its_owner_wins(cm):
    s = ending(cm, full_taverne(("p2", "pickpocket"), ("p3", "pickpocket"), ("p1", "beggar")))
    events = cm.decide(s, "p1", cm.m.EndTurn())
    assert cm.m.CoinsTaken("p2", 2) in events and cm.m.CoinsTaken("p3", 2) not in events


def test_defrocked_priest_draws_a_plot_card_when_its_owner_wins(cm):
    s = ending(cm, full_taverne(("p2", "priest"), ("p3", "priest"), ("p1", "beggar")), hands={"p2": (), "p3": ()})
    drawn = cm.of(cm.decide(s, "p1", cm.m.EndTurn()), cm.m.PlotsDrawn)
    assert [d.seat for d in drawn] == ["p2"]


def test_soothsayer_takes_a_coin_and_a_plot_card_when_its_owner_loses(cm):
    s = ending(cm, full_taverne(("p2", "soothsayer"), ("p3", "soothsayer"), ("p1", "beggar")),
               hands={"p2": (), "p3": ()})
    events = cm.decide(s, "p1", cm.m.EndTurn())
    assert cm.of(events, cm.m.StandoffWon)[0].winner == "p2"
    assert cm.m.CoinsTaken("p3", 1) in events and [d.seat for d in cm.of(events, cm.m.PlotsDrawn)] == ["p3"]
    assert cm.m.CoinsTaken("p2", 1) not in events


def test_swordsman_has_strength_3_when_its_owner_pays_2_coins(cm):
    s = ending(cm, full_taverne(("p2", "brute"), ("p3", "swordsman"), ("p1", "beggar")), coins={"p3": 2})
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert s.phase == "standoff" and cm.RULES.to_act(s) == {"p3"}
    assert cm.RULES.legal_commands(s, "p3") == [cm.m.PaySwordsmen(0), cm.m.PaySwordsmen(1)]
    events = cm.decide(s, "p3", cm.m.PaySwordsmen(1))
    won = cm.of(events, cm.m.StandoffWon)[0]
    assert won.winner == "p3" and dict(won.totals)["p3"] == 3
    s = cm.RULES.replay(events, s)
    assert s.player("p3").coins == 0 and s.reserve == 60 - 6 + 2  # the price goes to the reserve


def test_swordsman_unpaid_has_strength_0(cm):
    s = ending(cm, full_taverne(("p2", "brute"), ("p3", "swordsman"), ("p1", "beggar")), coins={"p3": 2})
    s = cm.run(s, "p1", cm.m.EndTurn())
    won = cm.of(cm.decide(s, "p3", cm.m.PaySwordsmen(0)), cm.m.StandoffWon)[0]
    assert won.winner == "p2" and dict(won.totals)["p3"] == 0


def test_swordsman_owner_cannot_pay_without_2_coins(cm):
    s = ending(cm, full_taverne(("p2", "brute"), ("p3", "swordsman"), ("p1", "beggar")), coins={"p3": 1})
    events = cm.decide(s, "p1", cm.m.EndTurn())
    assert cm.of(events, cm.m.StandoffWon)[0].winner == "p2"
    s = ending(cm, full_taverne(("p2", "brute"), ("p3", "swordsman"), ("p1", "beggar")), coins={"p3": 2})
    with pytest.raises(IllegalCommand, match="2 coins each"):
        cm.decide(cm.run(s, "p1", cm.m.EndTurn()), "p3", cm.m.PaySwordsmen(2))


def test_courtesan_winner_may_place_the_renown_token_in_any_neighbourhood(cm):
    s = ending(cm, full_taverne(("p2", "courtesan"), ("p3", "beggar"), ("p1", "beggar")),
               controllers={"taverne": "p3"})
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert cm.RULES.to_act(s) == {"p2"} and len(cm.RULES.legal_commands(s, "p2")) == 5
    s = cm.run(s, "p2", cm.m.PlaceCourtesanRenown("chatelet"))
    assert s.controller("chatelet") == "p2" and s.controller("taverne") == "p3"
    assert s.active == "p2"


def test_courtesan_takes_control_of_a_neighbourhood_held_by_another_player(cm):
    s = ending(cm, full_taverne(("p2", "courtesan"), ("p3", "beggar"), ("p1", "beggar")),
               controllers={"halles": "p1"})
    events = cm.decide(cm.run(s, "p1", cm.m.EndTurn()), "p2", cm.m.PlaceCourtesanRenown("halles"))
    assert events[:2] == [cm.m.RenownReturned("p1", neighbourhood="halles"), cm.m.RenownPlaced("p2", neighbourhood="halles")]


def test_a_wrath_choice_naming_the_indicated_neighbourhood_settles_it_once(cm):
    board = {("halles", 1): ("p2", "henchman")}
    s = cm.run(ending(cm, {**board, ("taverne", 3): ("p1", "beggar")}, wrath="halles"), "p1", cm.m.EndTurn())
    events = cm.decide(s, "p1", cm.m.ChooseWrath("halles"))
    assert [e.neighbourhood for e in cm.of(events, cm.m.StandoffBegan)] == ["halles"]


def test_a_beggars_owner_gets_what_a_poor_winner_has(cm):
    s = ending(cm, full_taverne(("p2", "brute"), ("p3", "beggar"), ("p1", "beggar")), coins={"p2": 1, "p3": 0})
    events = cm.decide(s, "p1", cm.m.EndTurn())
    assert cm.of(events, cm.m.CoinsGiven) == [cm.m.CoinsGiven("p2", "p3", 1)]


def test_a_courtesan_placing_renown_where_its_owner_already_rules_adds_no_token(cm):
    s = ending(cm, full_taverne(("p2", "courtesan"), ("p3", "beggar"), ("p1", "beggar")),
               controllers={"halles": "p2"})
    events = cm.decide(cm.run(s, "p1", cm.m.EndTurn()), "p2", cm.m.PlaceCourtesanRenown("halles"))
    assert not cm.of(events, cm.m.RenownPlaced) and cm.kinds(events)[-1] == "TurnBegan"


def test_a_neighbourhood_filled_by_rue_de_l_egyptienne_has_its_standoff_at_the_end_of_the_turn(cm):
    board = {("egyptienne", 1): ("p1", "henchman"), ("halles", 1): ("p2", "henchman"),
             ("taverne", 1): ("p3", "henchman"), ("taverne", 2): ("p2", "beggar")}
    s = cm.table(phase="act", placed_neighbourhood="egyptienne", placed_spot=1, board=board, hands={"p1": ()})
    events = cm.decide(s, "p1", cm.m.ShiftRogue("halles", 1, "taverne", 3))
    assert cm.of(events, cm.m.TurnEnded)[0].standoffs == ("taverne",)


def test_swordsmen_of_several_players_are_paid_for_at_once_then_the_winner_is_known(cm):
    s = ending(cm, full_taverne(("p2", "swordsman"), ("p3", "swordsman"), ("p1", "brute")),
               coins={"p2": 2, "p3": 5})
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert cm.RULES.to_act(s) == {"p2", "p3"} and s.standoff.winner is None
    events = cm.decide(s, "p3", cm.m.PaySwordsmen(1))
    assert events == [cm.m.SwordsmenChosen("p3", 1)]  # p2 has not answered yet: nothing paid, no winner
    s = cm.RULES.replay(events, s)
    assert cm.RULES.to_act(s) == {"p2"} and s.player("p3").coins == 5
    events = cm.decide(s, "p2", cm.m.PaySwordsmen(1))
    assert cm.kinds(events)[:4] == ["SwordsmenChosen", "SwordsmenPaid", "SwordsmenPaid", "StandoffWon"]
    assert cm.of(events, cm.m.SwordsmenPaid) == [cm.m.SwordsmenPaid("p2", 1), cm.m.SwordsmenPaid("p3", 1)]
    won = cm.of(events, cm.m.StandoffWon)[0]
    assert dict(won.totals) == {"p2": 3, "p3": 3, "p1": 2} and won.winner == "p2"  # tie: spot 1 is closest


def test_swordsman_answers_are_sealed_until_every_player_asked_has_answered(cm):
    """Two games where p3 answers differently look the same to p2 (and p1, and a
    spectator) until p2 has answered too."""
    s = ending(cm, full_taverne(("p2", "swordsman"), ("p3", "swordsman"), ("p1", "brute")),
               coins={"p2": 2, "p3": 5})
    s = cm.run(s, "p1", cm.m.EndTurn())
    pays, keeps = (cm.decide(s, "p3", cm.m.PaySwordsmen(n)) for n in (1, 0))
    for viewer in ("p1", "p2", None):
        assert [seen(cm.RULES, e, viewer) for e in pays] == [seen(cm.RULES, e, viewer) for e in keeps]
        assert cm.RULES.view(cm.RULES.replay(pays, s), viewer) == cm.RULES.view(cm.RULES.replay(keeps, s), viewer)
        assert cm.RULES.visible(pays[0], viewer)["count"] is None
    assert cm.RULES.visible(pays[0], "p3")["count"] == 1
    assert cm.RULES.view(cm.RULES.replay(pays, s), "p3")["standoff"]["answered"] == [{"seat": "p3", "count": 1}]
    assert cm.RULES.view(cm.RULES.replay(pays, s), "p2")["standoff"]["answered"] == [{"seat": "p3", "count": None}]


def test_two_swordsmen_of_one_player_may_each_be_paid_for(cm):
    s = ending(cm, full_taverne(("p2", "swordsman"), ("p2", "swordsman"), ("p1", "brute")), coins={"p2": 4})
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert cm.RULES.legal_commands(s, "p2") == [cm.m.PaySwordsmen(0), cm.m.PaySwordsmen(1), cm.m.PaySwordsmen(2)]
    won = cm.of(cm.decide(s, "p2", cm.m.PaySwordsmen(2)), cm.m.StandoffWon)[0]
    assert dict(won.totals)["p2"] == 6


def test_timeouts_skip_optional_steps_and_place_a_rogue_on_a_random_legal_spot(cm):
    s = cm.table()
    placed = {cm.RULES.on_timeout(s, "p1", random.Random(seed)) for seed in range(20)}
    assert len(placed) > 3 and all(c in cm.RULES.legal_commands(s, "p1") for c in placed)
    assert all(isinstance(c, cm.m.PlaceRogue) for c in placed)
    acting = cm.table(phase="act", placed_neighbourhood="grande-cour", placed_spot=1, hands={"p1": ("fool",)},
                      board={("grande-cour", 1): ("p1", "henchman")})
    assert cm.RULES.on_timeout(acting, "p1", random.Random(0)) == cm.m.EndTurn()
    s = ending(cm, full_taverne(("p2", "swordsman"), ("p3", "courtesan"), ("p1", "beggar")), coins={"p2": 2})
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert cm.RULES.on_timeout(s, "p2", random.Random(0)) == cm.m.PaySwordsmen(0)
    s = cm.run(s, "p2", cm.m.PaySwordsmen(0))
    assert cm.RULES.on_timeout(s, "p3", random.Random(0)) == cm.m.PlaceCourtesanRenown("taverne")


def test_the_courtesans_winner_is_told_to_name_a_neighbourhood_not_to_pay_swordsmen(cm):
    s = ending(cm, full_taverne(("p2", "courtesan"), ("p3", "beggar"), ("p1", "beggar")))
    s = cm.run(s, "p1", cm.m.EndTurn())
    with pytest.raises(IllegalCommand, match="name the neighbourhood for your Courtesan's Renown token"):
        cm.decide(s, "p2", cm.m.PaySwordsmen(0))


def test_a_swordsman_owner_is_told_to_answer_before_a_courtesans_renown_is_placed(cm):
    s = ending(cm, full_taverne(("p2", "courtesan"), ("p2", "swordsman"), ("p1", "beggar")), coins={"p2": 2})
    s = cm.run(s, "p1", cm.m.EndTurn())
    with pytest.raises(IllegalCommand, match="say first how many of your Swordsmen you pay for"):
        cm.decide(s, "p2", cm.m.PlaceCourtesanRenown("chatelet"))
