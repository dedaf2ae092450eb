"""The rulebook's worked example, played out: Rob (p1), Rich (p2), Raya (p3) and Casey (p4)."""

ROB, RICH, RAYA, CASEY = "p1", "p2", "p3", "p4"


def test_the_worked_example_of_rob_rich_raya_and_casey(rb):
    m, act, Dice = rb.m, rb.act, rb.Dice
    state = rb.given(
        *rb.won(ROB, "Lady of Secrets", "Knight of Hate", "Knight of Secrets"),
        *rb.won(RAYA, "Dragon Lord Sarkis", "Knight of Blood"),
        *rb.levels(RICH, 2), *rb.levels(RAYA, 1),
        m.Moved(seat=ROB, place="Sunken Fen"),
        decks={"crown_blue": ("Knave of Secrets", "Crown Vault")})

    # Rob attempts a blue adventure, draws the Knave of Secrets and defeats it: a set.
    _, state = act(state, ROB, m.Adventure())
    assert state.combat.enemy == "Knave of Secrets"
    _, state = rb.fight_until(state, ROB, lambda s: s.combat is None, Dice(10))
    assert state.step == "experience" and state.endgame is None  # his Experience step, as normal
    events, state = act(state, ROB, m.EndTurn())
    assert events[1] == m.EndgameBegan(king=ROB, challengers=(RICH, RAYA, CASEY), levels=(3, 2, 1), random_tiebreak=())

    # Rob uses the Lady of Secrets, Knight of Secrets and Knight of Hate (not the Knave of the set).
    for vassal in ("Lady of Secrets", "Knight of Secrets", "Knight of Hate"):
        _, state = act(state, ROB, m.PlaceVassal(vassal))
    events, state = act(state, ROB, m.FinishPlacing())
    assert events[1:] == [m.ConfrontationBegan(seat=RICH),
                          m.CombatBegan(seat=RICH, enemy="Lady of Secrets", opponent=None, allies=(), opponent_allies=())]
    assert state.hero(ROB).vassals == ("Knave of Secrets",)

    # Rich defeats the Lady of Secrets, discards her and moves on to the Knight of Secrets...
    log, state = rb.fight_until(state, RICH, lambda s: s.combat.enemy != "Lady of Secrets", Dice(10))
    assert m.VassalDefeated(seat=RICH, vassal="Lady of Secrets") in log
    assert state.combat.enemy == "Knight of Secrets"
    _, state = act(state, RICH, m.Attack(), Dice(10))
    assert dict(state.endgame.line)["Knight of Secrets"] == 1
    # ...where he is knocked out: eliminated.
    log, state = rb.fight_until(state, RICH, lambda s: s.hero(RICH).eliminated, Dice(1))

    # Raya is next: the Knight of Secrets' wound is discarded; the Lady is gone for good.
    assert log[-2:] == [m.ConfrontationBegan(seat=RAYA),
                        m.CombatBegan(seat=RAYA, enemy="Knight of Secrets", opponent=None, allies=(), opponent_allies=())]
    assert state.endgame.line == (("Knight of Secrets", 0), ("Knight of Hate", 0))

    # Raya wins her way to Rob's Hero card and beats him in combat between Heroes.
    _, state = rb.fight_until(state, RAYA, lambda s: s.combat.opponent == ROB, Dice(10))
    for _ in range(50):
        if state.hero(ROB).eliminated:
            break
        _, state = act(state, RAYA, m.Attack())
        events, state = act(state, ROB, m.Attack(), Dice(10, 10, 1, 1))
    assert events[-2:] == [m.HeroEliminated(seat=ROB), m.ElderKingCrowned(seat=RAYA, discarded=("Dragon Lord Sarkis",))]

    # Raya places her only Vassal, the Knight of Blood; Casey, the last player, confronts her.
    assert rb.RULES.legal_commands(state, RAYA) == [m.PlaceVassal("Knight of Blood"), m.FinishPlacing()]
    _, state = act(state, RAYA, m.PlaceVassal("Knight of Blood"))
    events, state = act(state, RAYA, m.FinishPlacing())
    assert events[1:] == [m.ConfrontationBegan(seat=CASEY),
                          m.CombatBegan(seat=CASEY, enemy="Knight of Blood", opponent=None, allies=(), opponent_allies=())]
    assert state.endgame.king == RAYA and state.endgame.challengers == (CASEY,)
