"""The channels of each game and what a message may hold (domain.lifecycle.talk)."""

from __future__ import annotations

import pytest

from domain.lifecycle import talk
from domain.lifecycle.talk import TalkRefused
from tests.support.hosted import WITHOUT_SIDES


def test_coronation_has_the_table_and_the_detectives_team_and_no_private_channel():
    assert talk.channels("coronation", ("lind", "detective-1", "detective-2")) == ["table", "team:detectives"]
    assert talk.channel_seats("coronation", ("lind", "detective-1", "detective-2"), "team:detectives") == \
        ("detective-1", "detective-2")


@pytest.mark.parametrize("game", WITHOUT_SIDES)
def test_games_without_sides_have_a_private_channel_for_each_pair_of_seats_from_three_seats(game):
    assert talk.channels(game, ("p1", "p2")) == ["table"]
    assert talk.channels(game, ("p1", "p2", "p3")) == ["table", "private:p1+p2", "private:p1+p3", "private:p2+p3"]


def test_a_channel_the_game_lacks_is_refused_naming_the_games_channels():
    with pytest.raises(TalkRefused, match="has no channel 'private:p1\\+p2'; its channels are table") as refused:
        talk.channel_seats("cronberg", ("p1", "p2"), "private:p1+p2")
    assert refused.value.kind == "no-such-channel"


@pytest.mark.parametrize("text, reason", [
    ("", "needs some text"), (" \n ", "needs some text"), ("x" * 2001, "at most 2000"),
    ("a\x00b", "U\\+0000"), ("a\u202eb", "U\\+202E"), ("\u200b", "U\\+200B"), (7, "is a string"),
])
def test_a_message_holds_1_to_2000_characters_and_nothing_a_name_may_not_hold(text, reason):
    with pytest.raises(TalkRefused, match=reason):
        talk.checked_text(text)


def test_a_message_keeps_newlines_and_tabs_and_loses_the_spaces_around_it():
    assert talk.checked_text("  line one\n\tline two  ") == "line one\n\tline two"
