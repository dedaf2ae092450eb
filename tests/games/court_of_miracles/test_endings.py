"""Both endings, both tie-breaks, shared victory, outcome and score."""


def test_placing_the_sixth_renown_token_wins_at_once(cm):
    s = cm.table(phase="act", placed_neighbourhood="halles", placed_spot=1, board={("halles", 1): ("p1", "henchman")},
                 coins={"p1": 4}, lines={"p1": (2, 3, 4, 5)}, controllers={"taverne": "p1"})
    events = cm.decide(s, "p1", cm.m.BuyRenown(1))
    assert events[-1] == cm.m.GameEnded(("p1",), "renown")
    s = cm.RULES.replay(events, s)
    assert cm.RULES.to_act(s) == frozenset() and cm.RULES.outcome(s) == "p1 wins: placed all their Renown tokens"


def test_a_standoff_placing_the_sixth_renown_token_wins_at_once(cm):
    board = {("taverne", 1): ("p2", "brute"), ("taverne", 2): ("p3", "henchman"), ("taverne", 3): ("p1", "beggar")}
    s = cm.table(phase="act", placed_neighbourhood="taverne", placed_spot=3, board=board,
                 lines={"p2": (1, 2, 3, 4, 5)})
    events = cm.decide(s, "p1", cm.m.EndTurn())
    assert events[-1] == cm.m.GameEnded(("p2",), "renown")


def test_the_king_reaching_the_last_space_ends_the_game_and_most_renown_wins(cm):
    s = cm.table(king=19, controllers={"taverne": "p2", "halles": "p3", "chatelet": "p3"})
    events = cm.decide(s, "p1", cm.m.PlaceRogue("beggar", "taverne", 2))  # king +2: stops at 20
    assert events[-2] == cm.m.KingMoved(19, 20) and events[-1] == cm.m.GameEnded(("p3",), "king")


def test_king_ending_tie_goes_to_the_player_controlling_most_neighbourhoods(cm):
    s = cm.table(king=19, controllers={"taverne": "p2", "halles": "p3"}, lines={"p2": (1,), "p3": (2,), "p1": (1, 2)})
    s = cm.run(s, "p1", cm.m.PlaceRogue("beggar", "taverne", 2))
    assert s.winners == ("p2", "p3")  # all have 2 Renown; p2 and p3 control one neighbourhood each
    s = cm.table(king=19, controllers={"taverne": "p2", "halles": "p2"}, lines={"p3": (1, 2), "p1": (1,)})
    assert cm.run(s, "p1", cm.m.PlaceRogue("beggar", "taverne", 2)).winners == ("p2",)


def test_king_ending_persisting_tie_shares_the_victory(cm):
    s = cm.table(king=19, controllers={"taverne": "p2", "halles": "p3"})
    s = cm.run(s, "p1", cm.m.PlaceRogue("beggar", "taverne", 2))
    assert s.winners == ("p2", "p3")
    assert cm.RULES.outcome(s).startswith("p2 and p3 share the victory")
    ranks = {st.seat: st.rank for st in cm.RULES.score(s)}
    assert ranks == {"p2": 1, "p3": 1, "p1": 3}


def test_the_king_stops_at_the_last_space_even_with_spaces_to_spare(cm):
    s = cm.table(king=18, phase="act", placed_neighbourhood="halles", placed_spot=1, coins={"p1": 8},
                 board={("halles", 1): ("p1", "henchman")})
    s = cm.run(s, "p1", cm.m.BuyRenown(5))
    assert s.king == 20 and s.phase == "over"


def test_a_king_moving_several_spaces_stops_on_the_first_wrath_space(cm):
    s = cm.table(king=14, phase="act", placed_neighbourhood="halles", placed_spot=1, coins={"p1": 8},
                 board={("halles", 1): ("p1", "henchman")})
    assert cm.run(s, "p1", cm.m.BuyRenown(5)).king == 16
