"""The rulebook's two worked examples, played out as one game, step by step:
Rob (p1), Rich (p2), Raya (p3) and Casey (p4). Every outcome the rulebook states
is checked where the example states it."""

from domain.games.runebound.endgame import has_set

ROB, RICH, RAYA, CASEY = "p1", "p2", "p3", "p4"


def test_the_worked_example_of_rob_rich_raya_and_casey(rb):
    m, act, Dice, RULES = rb.m, rb.act, rb.Dice, rb.RULES
    state = rb.given(
        # "Rob has already defeated and collected the Lady of Secrets, Knight of Hate, and Knight of Secrets."
        *rb.won(ROB, "Lady of Secrets", "Knight of Hate", "Knight of Secrets"),
        m.Moved(seat=ROB, place="Frostmere"),
        m.EncounterResolved(seat=ROB, card="Lost Merchant", dice=(), passed=True),  # a green counter (1 xp)
        # Raya has one Dragon Lord and the Knight of Blood; Rich has the highest level, then Raya, then Casey.
        *rb.won(RAYA, "Dragon Lord Sarkis", "Knight of Blood"),
        *rb.levels(RICH, 2), *rb.levels(RAYA, 1),
        m.TurnBegan(seat=ROB, round=2, movement=3),
        decks={"crown_blue": ("Knave of Secrets", "Crown Vault")})
    assert not has_set(state.hero(ROB))

    # "He attempts a blue adventure and draws the Knave of Secrets."
    _, state = act(state, ROB, m.MoveTo("Sunken Fen"))
    events, state = act(state, ROB, m.Adventure())
    assert events[0] == m.CardDrawn(seat=ROB, deck="crown_blue", card="Knave of Secrets")
    assert state.combat.enemy == "Knave of Secrets"

    # "If he can defeat that Challenge, he will have the Knave, Knight, and Lady of Secrets:
    #  a complete set of Vassals."
    log, state = rb.fight_until(state, ROB, lambda s: s.combat is None, Dice(10))
    assert m.EnemyDefeated(seat=ROB, card="Knave of Secrets", gold=3) in log
    assert has_set(state.hero(ROB))

    # "he would then complete his Experience Step as normal": the Endgame has not begun yet.
    assert state.step == "experience" and state.endgame is None
    assert m.GainExperience("body") in RULES.legal_commands(state, ROB)
    _, state = act(state, ROB, m.GainExperience("body"))
    assert state.endgame is None and state.hero(ROB).level == 2

    # "At the end of his turn, the Endgame would begin." Rich has the highest-level Hero among
    # the other players, so he attempts the Confrontation first; then Raya, then Casey.
    events, state = act(state, ROB, m.EndTurn())
    assert events[:2] == [m.TurnEnded(seat=ROB),
                          m.EndgameBegan(king=ROB, challengers=(RICH, RAYA, CASEY), levels=(3, 2, 1),
                                         random_tiebreak=())]
    assert state.endgame.king == ROB and RULES.to_act(state) == {ROB}

    # "He decides to use the Lady of Secrets, Knight of Secrets, and Knight of Hate": the Knight of
    # Hate, not part of his set, may be used; the Knave of Secrets, used for the set, need not be.
    assert m.PlaceVassal("Knight of Hate") in RULES.legal_commands(state, ROB)
    for vassal in ("Lady of Secrets", "Knight of Secrets", "Knight of Hate"):
        _, state = act(state, ROB, m.PlaceVassal(vassal))
    assert RULES.legal_commands(state, ROB) == [m.FinishPlacing()]
    assert state.hero(ROB).vassals == ("Knave of Secrets",)

    # "All players refresh their activated cards and discard all wounds and exhaustion from their
    #  Heroes and Allies."
    state = RULES.replay([m.Bought(seat=RICH, card="Hired Archer", gold=0),
                          m.Bought(seat=RAYA, card="Healing Draught", gold=0),
                          m.Suffered(seat=RICH, wounds=4, exhaustion=2, ally="Hired Archer", ally_wounds=1),
                          m.Suffered(seat=RAYA, wounds=3, exhaustion=1),
                          m.ItemUsed(seat=RAYA, item="Healing Draught", healed=1),
                          m.Suffered(seat=ROB, wounds=2, exhaustion=3)], state)
    events, state = act(state, ROB, m.FinishPlacing())
    assert events == [m.VassalsPlaced(seat=ROB), m.ConfrontationBegan(seat=RICH),
                      m.CombatBegan(seat=RICH, enemy="Lady of Secrets", opponent=None,
                                    allies=("Hired Archer",), opponent_allies=())]
    for hero in state.heroes:
        assert (hero.wounds, hero.exhaustion, hero.exhausted) == (0, 0, ())
    assert state.hero(RICH).allies[0].wounds == 0

    # "Rich then enters combat with Rob's Vassals, one after the other. Rich defeats the Lady of
    #  Secrets, discards that card, and moves on to the Knight of Secrets."
    log, state = rb.fight_until(state, RICH, lambda s: s.combat.enemy != "Lady of Secrets", Dice(10))
    assert log[-2:] == [m.VassalDefeated(seat=RICH, vassal="Lady of Secrets"),
                        m.CombatBegan(seat=RICH, enemy="Knight of Secrets", opponent=None, allies=(),
                                      opponent_allies=())]
    assert "Lady of Secrets" in state.discards and [v for v, _ in state.endgame.line] == [
        "Knight of Secrets", "Knight of Hate"]

    # "Unfortunately, his luck doesn't hold; he is knocked out while facing the Knight of Secrets."
    _, state = act(state, RICH, m.Attack(), Dice(10))
    assert dict(state.endgame.line)["Knight of Secrets"] == 1  # a wound Rich dealt
    log, state = rb.fight_until(state, RICH, lambda s: s.hero(RICH).eliminated, Dice(1))
    assert m.HeroEliminated(seat=RICH) in log and state.endgame.eliminated == (RICH,)

    # "Then Raya, the player with the next highest-level Hero, attempts the Confrontation. Rob
    #  discards the wounds that the Knight of Secrets suffered during combat with Rich, then Raya
    #  enters combat with that Vassal (she doesn't need to face the Lady of Secrets)."
    assert log[-2:] == [m.ConfrontationBegan(seat=RAYA),
                        m.CombatBegan(seat=RAYA, enemy="Knight of Secrets", opponent=None, allies=(),
                                      opponent_allies=())]
    assert state.endgame.line == (("Knight of Secrets", 0), ("Knight of Hate", 0))
    assert state.combat.enemy_wounds == 0

    # "Raya wins her way all the way to Rob's Hero card, engages in combat with him using the rules
    #  for combat between Heroes, and wins!"
    log, state = rb.fight_until(state, RAYA, lambda s: s.combat.opponent == ROB, Dice(10))
    assert [e.vassal for e in log if isinstance(e, m.VassalDefeated)] == ["Knight of Secrets", "Knight of Hate"]
    assert state.combat.enemy is None and state.endgame.line == ()
    for _ in range(50):
        if state.hero(ROB).eliminated:
            break
        events, state = act(state, RAYA, m.Attack())
        assert events == [m.ActionDeclared(seat=RAYA, action="attack")] and RULES.to_act(state) == {ROB}
        events, state = act(state, ROB, m.Attack(), Dice(10, 10, 1, 1))
    # "Now Raya discards her Dragon Lord cards (of which she had one)": she is the new Elder King.
    assert events[-2:] == [m.HeroEliminated(seat=ROB), m.ElderKingCrowned(seat=RAYA, discarded=("Dragon Lord Sarkis",))]
    assert not state.hero(RAYA).eliminated and state.endgame.king == RAYA
    assert state.hero(RAYA).dragon_lords == () and "Dragon Lord Sarkis" in state.discards

    # "and places up to three Vassals in front of her (she has only the Knight of Blood)."
    assert RULES.legal_commands(state, RAYA) == [m.PlaceVassal("Knight of Blood"), m.FinishPlacing()]
    _, state = act(state, RAYA, m.PlaceVassal("Knight of Blood"))
    assert RULES.legal_commands(state, RAYA) == [m.FinishPlacing()]

    # "Casey is the last player still in the game, so he then begins the Endgame Confrontation.
    #  Raya hopes that her single Vassal will weaken his Hero enough that she can defeat him."
    events, state = act(state, RAYA, m.FinishPlacing())
    assert events == [m.VassalsPlaced(seat=RAYA), m.ConfrontationBegan(seat=CASEY),
                      m.CombatBegan(seat=CASEY, enemy="Knight of Blood", opponent=None, allies=(), opponent_allies=())]
    assert state.endgame.king == RAYA and state.endgame.challengers == (CASEY,)
    assert state.in_play == (RAYA, CASEY) and state.endgame.eliminated == (RICH, ROB)
    assert state.hero(RAYA).wounds == 0  # refreshed as Casey begins

    # Played on: if Casey is knocked out too, all other players are eliminated and the current
    # Elder King, Raya, wins.
    log, state = rb.fight_until(state, CASEY, lambda s: s.result is not None, Dice(1))
    assert log[-2:] == [m.HeroEliminated(seat=CASEY), m.GameWon(seat=RAYA)]
    assert RULES.outcome(state) == "p3 wins as the last Elder King"
    assert [(s.seat, s.rank) for s in RULES.score(state)] == [(ROB, 3), (RICH, 4), (RAYA, 1), (CASEY, 2)]
