"""Rules version 2 of The Court of Miracles: a Plot card may be played at any
moment of the player's own turn outside a Standoff: also while choosing the
Wrath neighbourhood, while ordering several Standoffs and while deciding
whether to keep a recruited rogue. One Plot card per turn stays. Games
created under version 1 keep the old way (tests/games/court_of_miracles/
test_plots.py holds its test)."""

import random

import pytest

from domain.engine import IllegalCommand
from domain.games import VERSIONS

V1, V2 = VERSIONS["court-of-miracles"][1], VERSIONS["court-of-miracles"][2]
WHEEL = ("wheel", "fool")


def plays_plots_any_moment(rules):
    """The version's switch, as a game created under it has it from its first state."""
    return rules.replay(rules.setup(("p1", "p2"), {}, random.Random(0))).plot_any_moment


def _recruiting(cm, **kw):
    s = cm.table(hands={"p1": WHEEL}, phase="act", placed_neighbourhood="taverne", placed_spot=1,
                 board={("taverne", 1): ("p1", "henchman")}, bag=("brute", "swordsman"), **kw)
    s = cm.run(s, "p1", cm.m.Recruit())
    assert s.phase == "recruit"
    return s


def _choosing_wrath(cm, **kw):
    s = cm.run(cm.table(hands={"p1": WHEEL}, king=3, **kw), "p1", cm.m.PlaceRogue("beggar", "taverne", 2))
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert s.phase == "wrath"
    return s


def _ordering_standoffs(cm, **kw):
    board = {("taverne", 1): ("p2", "brute"), ("taverne", 2): ("p3", "henchman"), ("taverne", 3): ("p1", "beggar"),
             ("halles", 1): ("p2", "henchman"), ("halles", 2): ("p1", "henchman"), ("halles", 3): ("p3", "beggar")}
    s = cm.table(hands={"p1": WHEEL}, phase="act", placed_neighbourhood="taverne", placed_spot=3, board=board, **kw)
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert s.phase == "standoffs" and s.queue == ("taverne", "halles")
    return s


MOMENTS = {"recruit": _recruiting, "wrath": _choosing_wrath, "standoffs": _ordering_standoffs}


def test_version_2_is_the_newest_rules_of_the_court_of_miracles_and_names_its_change():
    assert max(VERSIONS["court-of-miracles"]) == 2
    assert "Plot card" in V2.versions[2] and plays_plots_any_moment(V2) and not plays_plots_any_moment(V1)


@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_under_version_2_a_plot_card_may_be_played_at_that_moment_of_one_s_turn(cm, moment):
    s = MOMENTS[moment](cm)
    assert cm.m.PlayPlot("wheel", player="p2") in cm.RULES.legal_commands(s, "p1")
    events = cm.decide(s, "p1", cm.m.PlayPlot("wheel", player="p2"))
    assert events[0] == cm.m.PlotPlayed("p1", "wheel")
    after = cm.RULES.replay(events, s)
    assert after.phase == moment, "the choice the player was making still waits"
    assert after.player("p1").hand == ("fool",)


@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_under_version_2_still_one_plot_card_per_turn_at_any_moment(cm, moment):
    s = cm.run(MOMENTS[moment](cm), "p1", cm.m.PlayPlot("wheel", player="p2"))
    assert not any(isinstance(c, cm.m.PlayPlot) for c in cm.RULES.legal_commands(s, "p1"))
    with pytest.raises(IllegalCommand, match="one per turn"):
        cm.decide(s, "p1", cm.m.PlayPlot("fool"))


@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_under_version_1_those_moments_refuse_a_plot_card(cm, moment):
    s = MOMENTS[moment](cm, rules_version=1)
    assert not any(isinstance(c, cm.m.PlayPlot) for c in cm.RULES.legal_commands(s, "p1"))
    with pytest.raises(IllegalCommand, match="not possible now"):
        cm.decide(s, "p1", cm.m.PlayPlot("wheel", player="p2"))


def test_under_version_2_the_player_still_chooses_after_the_plot_card(cm):
    s = cm.run(_recruiting(cm), "p1", cm.m.PlayPlot("wheel", player="p2"))
    s = cm.run(s, "p1", cm.m.DiscardRogue("brute"))
    assert s.seine == ("brute",)
    s = cm.run(_choosing_wrath(cm), "p1", cm.m.PlayPlot("fool"))
    assert cm.m.ChooseWrath("halles") in cm.RULES.legal_commands(s, "p1")
    s = cm.run(_ordering_standoffs(cm), "p1", cm.m.PlayPlot("fool"))
    assert set(cm.RULES.legal_commands(s, "p1")) == {cm.m.SettleStandoff("taverne"), cm.m.SettleStandoff("halles")}


def test_under_version_2_no_plot_card_during_a_standoff(cm):
    board = {("taverne", 1): ("p2", "brute"), ("taverne", 2): ("p3", "henchman"), ("taverne", 3): ("p1", "swordsman")}
    s = cm.table(hands={"p1": WHEEL}, phase="act", placed_neighbourhood="taverne", placed_spot=3, board=board,
                 coins={"p1": 5})
    s = cm.run(s, "p1", cm.m.EndTurn())
    assert s.phase == "standoff" and "p1" in cm.RULES.to_act(s)
    assert not any(isinstance(c, cm.m.PlayPlot) for c in cm.RULES.legal_commands(s, "p1"))
    with pytest.raises(IllegalCommand, match="no Plot card may be played during a Standoff"):
        cm.decide(s, "p1", cm.m.PlayPlot("wheel", player="p2"))


def test_under_version_2_strength_waits_until_the_recruited_rogue_is_kept_or_discarded(cm):
    s = cm.table(hands={"p1": ("strength",)}, phase="act", placed_neighbourhood="taverne", placed_spot=1,
                 board={("taverne", 1): ("p1", "henchman")}, bag=("brute", "swordsman"))
    s = cm.run(s, "p1", cm.m.Recruit())
    assert cm.m.PlayPlot("strength") not in cm.RULES.legal_commands(s, "p1")
    with pytest.raises(IllegalCommand, match="already waits for your choice"):
        cm.decide(s, "p1", cm.m.PlayPlot("strength"))


@pytest.mark.parametrize("moment", ["wrath", "standoffs"])
def test_a_timeout_never_plays_a_plot_card_and_draws_as_version_1_did(cm, moment):
    s2, s1 = MOMENTS[moment](cm), MOMENTS[moment](cm, rules_version=1)
    for seed in range(20):
        chosen = cm.RULES.on_timeout(s2, "p1", random.Random(seed))
        assert not isinstance(chosen, cm.m.PlayPlot)
        assert chosen == V1.on_timeout(s1, "p1", random.Random(seed))
