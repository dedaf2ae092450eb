"""Resign, abort and abandonment, decided in the domain: given a session,
when a seat leaves, then these events (or a refusal that says why)."""

from __future__ import annotations

import dataclasses

import pytest

from domain import session as sessions
from domain.engine import IllegalCommand
from domain.lifecycle import decide as lifecycle
from domain.lifecycle.state import GameAborted, SeatAbandoned, SeatResigned

from tests.support.hosted import WITHOUT_SIDES, seating, short

from .support import Game, started


def scored(table: Game) -> list[dict]:
    table.apply(lifecycle.scored(table.rules, table.session))
    return list(table.session.standings)


# Coronation: two-sided


@pytest.mark.parametrize("detective_seats", [1, 2])
def test_coronation_lind_resigning_ends_the_game_and_the_detectives_win(detective_seats):
    table = started("coronation", {"detective_seats": detective_seats})
    events = table.apply(lifecycle.resign(table.rules, table.session, table.player("lind"), table.seed))
    assert [type(e).__name__ for e in events] == ["SeatResigned", "LindResigned", "GameOver"]
    assert table.session.status == sessions.SCORING
    assert "detectives win" in table.session.outcome
    ranks = {s["seat"]: s["rank"] for s in scored(table)}
    assert ranks == {**{f"detective-{n}": 1 for n in range(1, detective_seats + 1)}, "lind": detective_seats + 1}


def test_coronation_a_detective_seat_resigning_hands_its_detectives_to_the_other_detective_seats():
    table = started("coronation", {"detective_seats": 3})
    mine = [d.id for d in table.session.state.detectives if d.seat == "detective-2"]
    events = table.apply(lifecycle.resign(table.rules, table.session, table.player("detective-2"), table.seed))
    assert events[0] == SeatResigned("detective-2", table.player("detective-2"), None)
    assert type(events[1]).__name__ == "DetectivesHandedOver"
    seats = {d.id: d.seat for d in table.session.state.detectives}
    assert all(seats[d] in ("detective-1", "detective-3") for d in mine)
    assert "detective-2" not in table.to_act
    assert "detective-2" not in table.session.life.bots
    assert table.session.status == sessions.ACTIVE


@pytest.mark.parametrize("detective_seats", [1, 2])
def test_coronation_the_last_detective_seat_resigning_makes_lind_win_at_once(detective_seats):
    table = started("coronation", {"detective_seats": detective_seats})
    for n in range(1, detective_seats):
        table.apply(lifecycle.resign(table.rules, table.session, table.player(f"detective-{n}"), table.seed))
    last = f"detective-{detective_seats}"
    events = table.apply(lifecycle.resign(table.rules, table.session, table.player(last), table.seed))
    assert events[0] == SeatResigned(last, table.player(last), None)
    assert isinstance(events[-1], sessions.GameOver) and "lind wins" in events[-1].outcome
    assert table.session.status == sessions.SCORING and not table.session.life.bots
    standings = scored(table)
    assert standings[0]["seat"] == "lind" and standings[0]["rank"] == 1
    assert [s["seat"] for s in standings[1:]] == [f"detective-{n}" for n in range(detective_seats, 0, -1)]


def test_coronation_a_resigned_detective_seat_ranks_last_when_the_detectives_win():
    table = started("coronation", {"detective_seats": 2})
    table.apply(lifecycle.resign(table.rules, table.session, table.player("detective-1"), table.seed))
    table.apply(lifecycle.resign(table.rules, table.session, table.player("lind"), table.seed))
    assert {s["seat"]: s["rank"] for s in scored(table)} == {"detective-2": 1, "lind": 2, "detective-1": 3}


# Multiplayer


@pytest.mark.parametrize("game", [game for game in WITHOUT_SIDES if game in seating(3)])
def test_multiplayer_a_resigned_seat_is_played_by_a_bot_and_ranked_last(game):
    table = started(game, short(game, 3))
    events = table.apply(lifecycle.resign(table.rules, table.session, table.player("p1"), table.seed))
    assert events == [SeatResigned("p1", table.player("p1"), events[0].bot)] and events[0].bot
    assert table.session.life.plays("p1") == events[0].bot
    assert table.session.status == sessions.ACTIVE
    # Played to the end by whoever is to act (the bot's seat too), then scored.
    while table.session.status == sessions.ACTIVE:
        table.move()
    standings = scored(table)
    assert standings[-1] == {"seat": "p1", "rank": 3, "score": None, "detail": {"resigned": True}}
    assert {s["rank"] for s in standings[:2]} <= {1, 2}


def test_multiplayer_when_every_seat_but_one_has_resigned_that_seat_wins_at_once():
    table = started("court-of-miracles", {"players": 3})
    table.apply(lifecycle.resign(table.rules, table.session, table.player("p3"), table.seed))
    events = table.apply(lifecycle.resign(table.rules, table.session, table.player("p1"), table.seed))
    assert isinstance(events[-1], sessions.GameOver) and "p2 wins" in events[-1].outcome
    assert events[-1].seed == table.seed.hex()
    assert [(s["seat"], s["rank"]) for s in scored(table)] == [("p2", 1), ("p1", 2), ("p3", 3)]


@pytest.mark.parametrize("game", WITHOUT_SIDES)
def test_two_player_multiplayer_games_end_when_one_side_resigns_unless_the_game_hands_the_seat_to_a_bot(game):
    table = started(game, short(game, 2))
    handed = not table.rules.resign(table.session.state, "p2").last_standing_wins  # a game for two alone
    table.apply(lifecycle.resign(table.rules, table.session, table.player("p2"), table.seed))
    if handed:
        assert table.session.status == sessions.ACTIVE and "p2" in table.session.life.bots, "a bot plays on"
        return
    assert table.session.status == sessions.SCORING
    assert [(s["seat"], s["rank"]) for s in scored(table)] == [("p1", 1), ("p2", 2)]


def test_resigning_twice_before_the_start_or_without_a_seat_is_refused():
    table = Game("cronberg", {"players": 2})
    with pytest.raises(lifecycle.NotNow, match="has not started"):
        lifecycle.resign(table.rules, table.session, "player-1", table.seed)
    table.fill_and_start()
    with pytest.raises(lifecycle.NotAllowed, match="no seat"):
        lifecycle.resign(table.rules, table.session, "stranger", table.seed)
    table = started("cronberg", {"players": 3})
    table.apply(lifecycle.resign(table.rules, table.session, table.player("p2"), table.seed))
    with pytest.raises(lifecycle.NotNow, match="resigned from this game already"):
        lifecycle.resign(table.rules, table.session, table.player("p2"), table.seed)


# Abort


def test_any_seat_may_abort_before_every_seat_has_acted_and_the_game_ends_with_no_result():
    table = started("cronberg", {"players": 3})
    events = table.apply(lifecycle.abort(table.rules, table.session, table.player("p3"), acted={"p1"}))
    assert events == [GameAborted("p3", table.player("p3"))]
    assert table.session.status == sessions.CANCELLED
    assert "aborted by p3" in table.session.outcome and table.session.standings is None


def test_abort_is_refused_once_every_seat_has_acted():
    table = started("cronberg", {"players": 2})
    with pytest.raises(lifecycle.NotNow, match="can no longer be aborted"):
        lifecycle.abort(table.rules, table.session, table.player("p1"), acted={"p1", "p2"})


def test_coronation_a_detective_seat_that_resigned_before_acting_counts_as_having_acted():
    table = started("coronation", {"detective_seats": 2})
    table.apply(lifecycle.resign(table.rules, table.session, table.player("detective-1"), table.seed))
    # detective-1's detectives went to detective-2: that seat can never act again.
    with pytest.raises(lifecycle.NotNow, match="can no longer be aborted"):
        lifecycle.abort(table.rules, table.session, table.player("lind"), acted={"lind", "detective-2"})
    # Lind hides from the start: in a game stored before no_abort_once_dealt only.
    old = created_before_the_deal_rule(table)
    assert lifecycle.abort(old.rules, old.session, old.player("lind"), acted={"lind"}) == [
        GameAborted("lind", old.player("lind"))]


def created_before_the_deal_rule(table: Game) -> Game:
    """The same game as stored before every GameCreated recorded no_abort_once_dealt."""
    options = {k: v for k, v in table.events[0].options.items() if k != lifecycle.NO_ABORT_ONCE_DEALT}
    table.events[0] = dataclasses.replace(table.events[0], options=options)
    table.session = sessions.replay(table.rules, table.events)
    return table


@pytest.mark.parametrize(("game", "options", "dealt"), [
    ("court-of-miracles", {}, "p1, p2, p3, p4 see"), ("the-coil", {}, "p1, p2, p3, p4 see"),
    ("coronation", {"detective_seats": 2}, "lind sees")])
def test_once_private_information_is_dealt_no_seat_may_abort_and_each_is_told_to_resign_or_propose_a_cancel(
        game, options, dealt):
    table = started(game, options)
    assert table.session.options[lifecycle.NO_ABORT_ONCE_DEALT] is True
    for seat in table.session.seats:  # the seat that saw its hand, and the one that saw nothing (a friend's)
        with pytest.raises(lifecycle.NotNow, match="private information is dealt") as refused:
            lifecycle.abort(table.rules, table.session, table.player(seat), acted=set())
        assert f"({dealt} what the others do not)" in str(refused.value)
        assert "resign instead, or propose to cancel it, which every player must accept" in str(refused.value)


@pytest.mark.parametrize(("game", "options"), [("cronberg", {"players": 3}), ("runebound", {})])
def test_a_game_with_nothing_private_dealt_may_still_be_aborted_before_every_seat_has_acted(game, options):
    table = started(game, options)
    table.move()
    last = table.session.seats[-1]
    assert table.apply(lifecycle.abort(table.rules, table.session, table.player(last), acted={table.session.seats[0]})) == [
        GameAborted(last, table.player(last))]


def test_a_court_of_miracles_game_stored_before_the_rule_is_aborted_as_it_was_then():
    table = created_before_the_deal_rule(started("court-of-miracles"))
    assert table.apply(lifecycle.abort(table.rules, table.session, table.player("p2"), acted=set())) == [
        GameAborted("p2", table.player("p2"))]


def test_history_counts_acting_seats_and_runs_of_timeouts_that_a_replacement_restarts():
    acted, streak = lifecycle.history([
        (None, False, False), ("p1", False, False), ("p2", True, False), ("p2", True, False),
        ("p1", True, False), ("p1", False, False), ("p2", True, False), ("p2", False, True), ("p2", True, False),
    ])
    assert acted == {"p1", "p2"}
    assert streak == {"p1": 0, "p2": 1}


# Abandonment


def test_a_seat_is_abandoned_to_a_bot_after_the_option_s_consecutive_timeouts():
    table = started("cronberg", {"players": 2, "abandon_after": 2})
    assert lifecycle.abandon(table.rules, table.session, "p1", 1) == []
    events = lifecycle.abandon(table.rules, table.session, "p1", 2)
    assert events == [SeatAbandoned("p1", table.player("p1"), 2, events[0].bot)]
    table.apply(events)
    assert table.session.life.plays("p1") and table.session.life.abandoned == ("p1",)
    assert lifecycle.abandon(table.rules, table.session, "p1", 3) == []  # a bot is never abandoned


def test_abandon_after_zero_never_abandons_and_three_is_the_default():
    never = started("cronberg", {"players": 2, "abandon_after": 0})
    assert lifecycle.abandon(never.rules, never.session, "p1", 50) == []
    default = started("cronberg", {"players": 2})
    assert default.session.options["abandon_after"] == 3
    assert lifecycle.abandon(default.rules, default.session, "p1", 2) == []
    assert lifecycle.abandon(default.rules, default.session, "p1", 3)


def test_an_abandoned_seat_keeps_its_score_marked_abandoned():
    table = started("cronberg", {"players": 2})
    table.apply(lifecycle.abandon(table.rules, table.session, "p2", 3))
    while table.session.status == sessions.ACTIVE:
        table.move()
    standings = {s["seat"]: s for s in scored(table)}
    assert standings["p2"]["detail"].get("abandoned") is True
    assert standings["p2"]["score"] is not None


# Creation options


@pytest.mark.parametrize("options, words", [
    ({"bots": {"p2": "grandmaster"}}, "no bot 'grandmaster'"),
    ({"bots": {"p9": "random"}}, "no seat 'p9'"),
    ({"bots": {"p1": "random"}}, "host's"),
    ({"bots": ["p2"]}, "must map seats"),
    ({"abandon_after": -1}, "abandon_after"),
    ({"abandon_after": True}, "abandon_after"),
    ({"visibility": "secret"}, "visibility"),
    ({"time_bank_seconds": 10}, "time_bank_seconds"),
    ({"time_bank_seconds": 91 * 86400}, "time_bank_seconds"),
    ({"time_increment_seconds": 3600}, "need time_bank_seconds"),
    ({"time_bank_seconds": 86400, "time_cap_seconds": 3600}, "may not be less"),
    ({"time_bank_seconds": 86400, "time_increment_seconds": -5}, "time_increment_seconds"),
    ({"deadline_per_seat": "yes"}, "deadline_per_seat"),
])
def test_unknown_bots_and_out_of_range_lifecycle_options_are_refused_at_creation(options, words):
    with pytest.raises(Exception, match=words):
        Game("cronberg", {"players": 3, **options})


def test_a_bot_seat_counts_as_filled_at_the_start_and_cannot_be_joined():
    table = Game("cronberg", {"players": 3, "bots": {"p3": "random"}})
    table.apply(sessions.join(table.session, "player-2", None))
    with pytest.raises(sessions.LobbyRefusal, match="every seat is taken"):
        sessions.join(table.session, "player-3", None)
    table.apply(sessions.start(table.rules, table.session, "player-1", __import__("random").Random(0)))
    assert table.session.status == sessions.ACTIVE and table.session.life.plays("p3") == "random"


def test_a_private_game_s_rematch_lets_its_invited_players_in_without_a_code_and_nobody_else():
    table = started("cronberg", {"players": 3, "visibility": "private"})
    table.apply(lifecycle.resign(table.rules, table.session, table.player("p2"), table.seed))
    table.apply(lifecycle.resign(table.rules, table.session, table.player("p3"), table.seed))
    table.apply(lifecycle.scored(table.rules, table.session))
    events = lifecycle.rematch(table.rules, table.session, table.player("p3"), "old-game", b"another-seed")
    rematch = sessions.replay(table.rules, events)
    assert rematch.host == table.player("p3") and rematch.players == {"p3": table.player("p3")}
    assert rematch.options["visibility"] == "private"
    assert rematch.life.reserved == {"p1": table.player("p1"), "p2": table.player("p2")}
    with pytest.raises(lifecycle.NotAllowed, match="private"):
        lifecycle.join(rematch, "stranger", None)
    assert lifecycle.join(rematch, table.player("p1"), None) == [sessions.SeatTaken("p1", table.player("p1"))]
    with pytest.raises(lifecycle.NotAllowed, match="kept for"):
        lifecycle.join(rematch, table.player("p1"), "p2")


# One result everywhere: the outcome agrees with the standings


def _won_by_a_resigned_seat(game, created_before_the_option=False):
    """A 3-seat game in which p2 resigned at once and its bot, played at random
    like everyone, finished first by the game's own standings."""
    import random
    from dataclasses import replace

    from domain.lifecycle.standings import OUTCOME_FOLLOWS_STANDINGS

    for attempt in range(40):
        table = Game(game, {"players": 3}, seed=b"outcome-%d" % attempt)
        if created_before_the_option:
            created = table.events[0]
            options = {k: v for k, v in created.options.items() if k != OUTCOME_FOLLOWS_STANDINGS}
            table.events[0] = replace(created, options=options)
            table.session = sessions.replay(table.rules, table.events)
        table.fill_and_start()
        table.apply(lifecycle.resign(table.rules, table.session, table.player("p2"), table.seed))
        rng = random.Random(attempt)
        while table.session.status == sessions.ACTIVE:
            table.move(rng=rng)
        if any(s.seat == "p2" and s.rank == 1 for s in table.rules.score(table.session.state)):
            return table
    raise AssertionError(f"no {game} game was won by the resigned seat's bot")


@pytest.mark.parametrize("game", WITHOUT_SIDES)
def test_when_a_resigned_seat_s_bot_finishes_first_the_outcome_names_the_winner_the_standings_rank_first(game):
    table = _won_by_a_resigned_seat(game)
    standings = scored(table)
    first = [s["seat"] for s in standings if s["rank"] == 1]
    assert standings[-1]["seat"] == "p2" and "p2" not in first
    outcome = table.session.outcome
    named = outcome.split(" wins")[0] if len(first) == 1 else outcome.split(" share first place")[0]
    assert named == (first[0] if len(first) == 1 else f"{', '.join(first[:-1])} and {first[-1]}"), outcome
    assert "p2 wins" not in outcome and "(p2 resigned and ranks last)" in outcome
    # The GameOver event says it, so the summary, the feed and the notices do.
    [over] = [e for e in table.events if isinstance(e, sessions.GameOver)]
    assert over.outcome == outcome


def test_a_game_created_before_the_outcome_followed_the_standings_keeps_its_rules_own_sentence():
    table = _won_by_a_resigned_seat("cronberg", created_before_the_option=True)
    assert table.session.outcome == table.rules.outcome(table.session.state)
    assert "p2" in table.session.outcome and "resigned" not in table.session.outcome


def test_the_outcome_follows_the_standings_in_every_new_game_and_is_no_option_a_host_can_set():
    from domain.lifecycle.standings import OUTCOME_FOLLOWS_STANDINGS

    assert Game("cronberg", {"players": 3}).session.options[OUTCOME_FOLLOWS_STANDINGS] is True
    with pytest.raises(IllegalCommand, match="unknown option"):
        Game("cronberg", {"players": 3, OUTCOME_FOLLOWS_STANDINGS: False})


def test_the_outcome_keeps_the_game_s_sentence_unless_a_resigned_seat_is_among_its_winners():
    from domain.engine import Standing
    from domain.lifecycle.standings import agreeing_outcome

    ranking = [Standing("p1", 3, 10), Standing("p2", 1, 40), Standing("p3", 1, 40), Standing("p4", 4, 5)]
    assert agreeing_outcome("p2 and p3 share the win with 40 points", ranking, ("p4",)) == (
        "p2 and p3 share the win with 40 points")
    assert agreeing_outcome("p2 and p3 share the win with 40 points", ranking, ("p2",)) == (
        "p3 wins, the best placed of the seats that did not resign (p2 resigned and ranks last)")
    everyone = [Standing(seat, 1, None) for seat in ("p1", "p2", "p3", "p4")]
    assert agreeing_outcome("nobody wins", everyone, ("p4", "p2")) == (
        "p1 and p3 share first place, the best placed of the seats that did not resign (p4 and p2 resigned and rank last)")
