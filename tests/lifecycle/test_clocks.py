"""Time banks and per-seat deadlines (domain.lifecycle.clocks)."""

from __future__ import annotations

import datetime as dt

from domain.lifecycle import clocks
from domain.lifecycle.decide import create

from .support import Game

T0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
HOUR, DAY = 3600, 86400


def at(hours: float) -> dt.datetime:
    return T0 + dt.timedelta(hours=hours)


BANK = clocks.resolve_clock_options({"time_bank_seconds": 3 * DAY, "time_increment_seconds": DAY,
                                     "time_cap_seconds": 4 * DAY})
SEATS = ("p1", "p2", "p3")


def test_a_bank_runs_only_while_its_seat_is_to_act_and_gains_the_increment_up_to_the_cap():
    start = clocks.tick(BANK, None, SEATS, frozenset(), frozenset({"p1"}), None, at(0))
    assert start.banks == {"p1": 3 * DAY, "p2": 3 * DAY, "p3": 3 * DAY} and start.since == {"p1": at(0).isoformat()}
    # p1 moves after 10 hours: pays 10 hours, gains a day (capped at 4 days); p2 is to act from now.
    after = clocks.tick(BANK, start, SEATS, frozenset({"p1"}), frozenset({"p2"}), "p1", at(10))
    assert after.banks["p1"] == 3 * DAY - 10 * HOUR + DAY
    assert after.banks["p2"] == after.banks["p3"] == 3 * DAY
    assert after.since == {"p2": at(10).isoformat()}
    second = clocks.tick(BANK, after, SEATS, frozenset({"p2"}), frozenset({"p1"}), "p2", at(10.5))
    assert second.banks["p2"] == 4 * DAY - HOUR / 2
    assert second.banks["p1"] == after.banks["p1"]  # it did not run while p2 was to act
    capped = clocks.tick(BANK, second, SEATS, frozenset({"p1"}), frozenset({"p3"}), "p1", at(11.5))
    assert capped.banks["p1"] == 4 * DAY  # 3 days 14 hours - 1 hour + 1 day, capped at 4 days


def test_in_a_simultaneous_phase_each_seat_s_own_bank_runs_and_a_timeout_or_bot_move_gains_nothing():
    start = clocks.tick(BANK, None, SEATS, frozenset(), frozenset(SEATS), None, at(0))
    # p2 moves after 5 hours; p1 and p3 are still to act, since hour 0.
    one = clocks.tick(BANK, start, SEATS, frozenset(SEATS), frozenset({"p1", "p3"}), "p2", at(5))
    assert one.since == {"p1": at(0).isoformat(), "p3": at(0).isoformat()}
    assert one.banks == {"p1": 3 * DAY - 5 * HOUR, "p2": 3 * DAY - 5 * HOUR + DAY, "p3": 3 * DAY - 5 * HOUR}
    # p3 is timed out 2 hours later (mover None): it pays, gains nothing.
    two = clocks.tick(BANK, one, SEATS, frozenset({"p1", "p3"}), frozenset({"p1"}), None, at(7))
    assert two.banks["p3"] == 3 * DAY - 7 * HOUR and two.banks["p2"] == one.banks["p2"]


def test_an_empty_bank_stays_empty_and_its_deadline_is_now():
    small = clocks.resolve_clock_options({"time_bank_seconds": HOUR})
    start = clocks.tick(small, None, SEATS, frozenset(), frozenset({"p1"}), None, at(0))
    late = clocks.tick(small, start, SEATS, frozenset({"p1"}), frozenset({"p1"}), None, at(5))
    assert late.banks["p1"] == 0
    assert clocks.seat_deadlines(small, late, frozenset({"p1"}), at(5)) == {"p1": at(5)}


def test_per_seat_deadlines_count_from_when_each_seat_became_one_to_act():
    options = {"turn_seconds": DAY, **clocks.resolve_clock_options({"deadline_per_seat": True})}
    start = clocks.tick(options, None, SEATS, frozenset(), frozenset(SEATS), None, at(0))
    one = clocks.tick(options, start, SEATS, frozenset(SEATS), frozenset({"p1", "p3"}), "p2", at(20))
    deadlines = clocks.seat_deadlines(options, one, frozenset({"p1", "p3"}), at(20))
    assert deadlines == {"p1": at(24), "p3": at(24)}  # not hour 20 + a day


def test_a_new_game_counts_each_seat_s_deadline_from_when_it_became_one_to_act_unless_asked_otherwise():
    assert clocks.resolve_clock_options({})["deadline_per_seat"] is True
    assert clocks.clocked({"turn_seconds": DAY, **clocks.resolve_clock_options({})})


def test_a_game_stored_before_the_option_existed_keeps_its_deadline_from_the_last_commit():
    options = {"turn_seconds": DAY}  # as its GameCreated recorded them then
    assert not clocks.clocked(options)
    assert clocks.seat_deadlines(options, None, frozenset({"p1", "p3"}), at(20)) == {"p1": at(44), "p3": at(44)}


def test_with_the_option_off_a_deadline_counts_from_the_last_commit_as_before():
    options = {"turn_seconds": DAY, **clocks.resolve_clock_options({"deadline_per_seat": False})}
    assert not clocks.clocked(options)
    assert clocks.seat_deadlines(options, None, frozenset({"p1", "p3"}), at(20)) == {"p1": at(44), "p3": at(44)}


def test_the_deadline_is_the_earlier_of_the_turn_and_the_bank():
    options = {"turn_seconds": DAY, **clocks.resolve_clock_options({"time_bank_seconds": 2 * HOUR,
                                                                     "deadline_per_seat": True})}
    start = clocks.tick(options, None, SEATS, frozenset(), frozenset({"p1"}), None, at(0))
    assert clocks.seat_deadlines(options, start, frozenset({"p1"}), at(0)) == {"p1": at(2)}


def test_views_show_each_bank_and_when_it_was_computed():
    start = clocks.tick(BANK, None, SEATS, frozenset(), frozenset({"p1"}), None, at(0))
    shown = clocks.shown(BANK, start)
    assert shown["computed_at"] == at(0).isoformat()
    assert shown["seats"]["p1"] == {"bank_seconds": 3 * DAY, "running": True, "to_act_since": at(0).isoformat(),
                                    "turn_deadline": None}
    assert shown["seats"]["p2"]["running"] is False


def test_clock_options_are_kept_in_the_game_s_options_with_defaults_filled_in():
    table = Game("cronberg", {"players": 2, "time_bank_seconds": DAY})
    options = table.session.options
    assert (options["time_bank_seconds"], options["time_increment_seconds"], options["time_cap_seconds"],
            options["deadline_per_seat"]) == (DAY, 0, DAY, True)
    assert create  # the options pass through the lifecycle's create, as the API's do


def test_a_seat_timed_out_and_to_act_again_runs_from_then_with_a_fresh_deadline():
    options = {"turn_seconds": DAY, **clocks.resolve_clock_options({})}
    start = clocks.tick(options, None, SEATS, frozenset(), frozenset({"p1", "p2"}), None, at(0))
    # p2 moved at hour 1; p1's deadline passed at hour 24 and its timed-out turn ended
    # a phase, after which both are to act again.
    one = clocks.tick(options, start, SEATS, frozenset({"p1", "p2"}), frozenset({"p1"}), "p2", at(1))
    timed_out = clocks.tick(options, one, SEATS, frozenset({"p1"}), frozenset({"p1", "p2"}), None, at(25),
                            timed_out=frozenset({"p1"}))
    assert clocks.seat_deadlines(options, timed_out, frozenset({"p1", "p2"}), at(25)) == {"p1": at(49), "p2": at(49)}


def test_a_turn_goes_on_while_its_seat_alone_stays_to_act_and_ends_when_a_new_round_or_phase_begins():
    assert clocks.turn_goes_on("p1", frozenset({"p1"}), frozenset({"p1"}))  # drew, now lays
    assert not clocks.turn_goes_on("p1", frozenset({"p1"}), frozenset({"p2"}))
    assert not clocks.turn_goes_on("p1", frozenset({"p1"}), frozenset({"p1", "p2"}))  # a new simultaneous phase
    assert not clocks.turn_goes_on("p1", frozenset({"p1", "p2"}), frozenset({"p2"}))


def test_a_turn_of_several_commands_earns_one_increment_when_its_seat_stops_being_to_act():
    """Runebound: p1 moves three times, then ends its turn; only the end earns."""
    clock = clocks.tick(BANK, None, SEATS, frozenset(), frozenset({"p1"}), None, at(0))
    for hour in (1, 2, 3):
        clock = clocks.tick(BANK, clock, SEATS, frozenset({"p1"}), frozenset({"p1"}), "p1", at(hour))
        assert clock.banks["p1"] == 3 * DAY - hour * HOUR
    clock = clocks.tick(BANK, clock, SEATS, frozenset({"p1"}), frozenset({"p2"}), "p1", at(4))
    assert clock.banks["p1"] == 3 * DAY - 4 * HOUR + DAY


def test_the_last_command_of_a_simultaneous_phase_ends_its_seat_s_turn_though_it_is_to_act_again():
    clock = clocks.tick(BANK, None, SEATS, frozenset(), frozenset({"p1"}), None, at(0))
    clock = clocks.tick(BANK, clock, SEATS, frozenset({"p1"}), frozenset(SEATS), "p1", at(1))
    assert clock.banks["p1"] == 3 * DAY - HOUR + DAY


def test_only_the_later_steps_of_a_timed_out_turn_continue_its_missed_turn():
    assert not clocks.continues_missed_turn({"timeout": True})  # the first step, or a timeout stored before
    assert clocks.continues_missed_turn({"timeout": True, "timeout_step": 2})
    assert not clocks.continues_missed_turn({"timeout_step": 2})  # not a timeout at all
