"""Views and event feeds: what each seat may see, and a leak test that
re-randomises everything a seat may not know in a position (see test_leaks.py
for whole games)."""

import collections
import json
import random
from dataclasses import replace

from domain.engine import EVERYONE
from domain.games import VERSIONS
from domain.games.court_of_miracles import RULES
from domain.games.court_of_miracles.data import INDEX
from domain.games.court_of_miracles.shapes import PHASES
from domain.playout import start, step


def dump(value):
    return json.dumps(value, sort_keys=True)


def spot_view(view, n, spot):
    hood = next(h for h in view["neighbourhoods"] if h["id"] == n)
    return hood["spots"][spot - 1]


def test_a_face_down_rogue_shows_its_owner_and_place_only(cm):
    s = cm.run(cm.table(), "p1", cm.m.PlaceRogue("beggar", "taverne", 2))
    assert spot_view(RULES.view(s, "p2"), "taverne", 2) | {"x": 0, "y": 0} == {
        "spot": 2, "effect": "king", "amount": 2, "x": 0, "y": 0, "owner": "p1", "rogue": None}
    assert spot_view(RULES.view(s, "p1"), "taverne", 2)["rogue"] == "beggar"
    assert spot_view(RULES.view(s, None), "taverne", 2)["rogue"] is None
    placed = cm.m.RoguePlaced("p1", "beggar", "taverne", 2)
    assert RULES.visible(placed, "p2")["rogue"] is None and RULES.visible(placed, "p1")["rogue"] == "beggar"


def test_plot_hands_and_rogues_out_of_play_are_seen_by_their_owner_only(cm):
    s = cm.table(hands={"p1": ("fool", "hermit")})
    mine, theirs = RULES.view(s, "p1")["players"][0], RULES.view(s, "p2")["players"][0]
    assert mine["hand"] == ["fool", "hermit"] and theirs["hand"] is None and theirs["hand_size"] == 2
    assert mine["supply"] == ["beggar", "henchman", "henchman"] and theirs["supply"] is None
    drawn = cm.m.PlotsDrawn("p1", ("fool",))
    assert RULES.visible(drawn, "p2")["cards"] is None and RULES.visible(drawn, "p2")["count"] == 1


def test_the_bag_and_the_pile_order_are_hidden_but_their_sizes_public(cm):
    setup = RULES.setup(("p1", "p2"), {"players": 2}, random.Random(3))
    seen = RULES.visible(setup[0], "p1")
    assert seen["bag"] is None and seen["pile"] is None and seen["bag_size"] == 24 and seen["pile_size"] == 24
    v = RULES.view(RULES.replay(setup), None)
    assert v["bag_size"] == 24 and v["pile_size"] == 22 and "bag" not in v


def test_revealed_rogues_of_a_standoff_are_public(cm):
    board = {("taverne", 1): ("p2", "brute"), ("taverne", 2): ("p3", "swordsman"), ("taverne", 3): ("p1", "beggar")}
    s = cm.table(phase="act", placed_neighbourhood="taverne", placed_spot=3, board=board, coins={"p3": 3})
    events = cm.decide(s, "p1", cm.m.EndTurn())
    began = cm.of(events, cm.m.StandoffBegan)[0]
    assert RULES.visible(began, "p2")["rogues"] == [["p2", 1, "brute"], ["p3", 2, "swordsman"], ["p1", 3, "beggar"]]
    v = RULES.view(RULES.replay(events, s), None)
    assert [r["rogue"] for r in v["standoff"]["rogues"]] == ["brute", "swordsman", "beggar"]


# ------------------------------------------------------------- leak test


def rerandomise(state, viewer, rng):
    """Everything ``viewer`` may not know shuffled, public facts kept."""
    standing = state.standoff.neighbourhood if state.standoff else None
    # Plot cards: other hands and the pile, re-dealt with the same sizes.
    others = [p for p in state.players if p.seat != viewer]
    cards = [c for p in others for c in p.hand] + list(state.pile)
    rng.shuffle(cards)
    # Rogues: others' face-down and out-of-play rogues, the bag, the Seine, another's drawn rogue.
    slots = [(n, s) for n, s, o in state.spots() if o is not None and o[0] != viewer and n != standing]
    rogues = [state.occupant(n, s)[1] for n, s in slots] + [k for p in others for k in p.supply]
    rogues += list(state.bag) + list(state.seine)
    hidden_drawn = state.drawn is not None and state.active != viewer
    if hidden_drawn:
        rogues.append(state.drawn)
    rng.shuffle(rogues)
    rows = [list(r) for r in state.board]
    for n, s in slots:
        rows[INDEX[n]][s - 1] = (state.occupant(n, s)[0], rogues.pop())
    players = []
    for p in state.players:
        if p.seat != viewer:
            hand = tuple(cards.pop() for _ in p.hand)
            supply = tuple(sorted(rogues.pop() for _ in p.supply))
            p = replace(p, hand=hand, supply=supply)
        players.append(p)
    drawn = rogues.pop() if hidden_drawn else state.drawn
    seine = tuple(rogues.pop() for _ in state.seine)
    bag = tuple(rogues)
    return replace(state, board=tuple(tuple(r) for r in rows), players=tuple(players), pile=tuple(cards),
                   bag=bag, seine=seine, drawn=drawn)


def test_leak_views_do_not_change_when_the_hidden_facts_of_a_position_are_rerandomised():
    """Each position of random games, with everything the viewer may not know shuffled
    (the whole-game comparison of views and feeds is in test_leaks.py)."""
    rng = random.Random(99)
    checked = changed = 0
    for seed in range(12):
        playout = start(RULES, {"players": 2 + seed % 4}, seed)
        bot = random.Random(seed)
        while RULES.outcome(playout.state) is None:
            step(playout, bot, check=False)
            if bot.random() < 0.3:
                for viewer in (*playout.seats, None):
                    before = dump(RULES.view(playout.state, viewer))
                    other = rerandomise(playout.state, viewer, rng)
                    changed += other != playout.state
                    assert dump(RULES.view(other, viewer)) == before
                    checked += 1
    assert checked > 200 and changed > checked // 2


def test_the_referee_and_the_end_of_the_game_see_everything(cm):
    s = cm.run(cm.table(), "p1", cm.m.PlaceRogue("beggar", "taverne", 2))
    assert spot_view(RULES.view(s, EVERYONE), "taverne", 2)["rogue"] == "beggar"
    assert RULES.visible(cm.m.RogueDrawn("p2", "brute"), EVERYONE)["rogue"] == "brute"


def test_the_turn_ends_by_itself_only_with_an_empty_hand_so_unplayable_cards_stay_secret(cm):
    acting = dict(phase="act", placed_neighbourhood="grande-cour", placed_spot=1,
                  board={("grande-cour", 1): ("p1", "henchman")})
    with_card = cm.decide(cm.table(hands={"p1": ("devil",)}, **acting), "p1", cm.m.TakeCoins())
    assert "TurnEnded" not in cm.kinds(with_card)
    empty = cm.decide(cm.table(hands={"p1": ()}, **acting), "p1", cm.m.TakeCoins())
    assert "TurnEnded" in cm.kinds(empty)


# ------------------------------------------------------- the view declaration


def test_the_view_declaration_describes_every_field():
    assert RULES.view_shape.name == "View" and RULES.view_shape.undescribed() == []


def test_every_view_of_every_viewer_matches_its_declaration_at_every_step_of_seeded_games():
    """Every seat count under both rules versions, to the end of the game:
    every phase is reached, a Standoff with a sealed answer and a drawn rogue too."""
    reached = collections.Counter()
    for rules in VERSIONS[RULES.name].values():
        for seed in range(10):
            playout = start(rules, {"players": 2 + seed % 4}, 4000 + seed)
            bot = random.Random(seed)
            while True:
                state = playout.state
                for viewer in (*state.seats, None, EVERYONE):
                    view = rules.view(state, viewer)
                    assert rules.view_shape.problems(view) == [], (seed, viewer, state.phase)
                reached[state.phase] += 1
                reached["answered"] += bool(state.standoff and state.standoff.chosen)
                reached["drawn"] += state.drawn is not None
                if playout.over:
                    break
                step(playout, bot, check=False)
    assert all(reached[phase] for phase in (*PHASES, "answered", "drawn")), reached


def test_views_playouts_rarely_rest_in_match_the_declaration(cm):
    """A Chariot's Standoff waiting for a sealed answer; a Courtesan's winner
    choosing, with the payments and totals public; a shared victory."""
    board = {("halles", 1): ("p2", "swordsman"), ("halles", 3): ("p1", "brute")}
    chariot = cm.run(cm.table(hands={"p1": ("chariot",)}, board=board, coins={"p2": 2}), "p1",
                     cm.m.PlayPlot("chariot", neighbourhood="halles"))
    board = {("taverne", 1): ("p2", "courtesan"), ("taverne", 2): ("p2", "swordsman"), ("taverne", 3): ("p1", "beggar")}
    s = cm.table(phase="act", placed_neighbourhood="taverne", placed_spot=3, board=board, coins={"p2": 2})
    courtesan = cm.run(cm.run(s, "p1", cm.m.EndTurn()), "p2", cm.m.PaySwordsmen(1))
    assert courtesan.standoff.paid and courtesan.standoff.won and cm.RULES.to_act(courtesan) == {"p2"}
    over = replace(chariot, phase="over", winners=("p1", "p2"), end_reason="king")
    for state in (chariot, courtesan, over):
        for viewer in ("p1", "p2", "p3", None, EVERYONE):
            assert RULES.view_shape.problems(RULES.view(state, viewer)) == []


def test_a_view_the_declaration_does_not_describe_is_named():
    view = RULES.view(RULES.replay(RULES.setup(("p1", "p2"), {}, random.Random(1))), "p1")
    view["players"][0]["hand"] = "fool"
    del view["king"]["stopped"]
    problems = RULES.view_shape.problems({**view, "crown": 1})
    assert problems == ["$.crown is not declared in View", "$.players[0].hand should be a list, not 'fool'",
                        "$.king.stopped is missing (King declares it)"]
