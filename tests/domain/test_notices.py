"""Notices: what one stored event tells which players, without a replay."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain import notices as n

GAME = "0b7e3a1c-5f8d-4f5e-9a51-2a9d2c1c9e11"
STREAM = f"game-{GAME}"
ADA, BOB, CY = "ada-id", "bob-id", "cy-id"


@dataclass
class Record:
    stream_id: str
    version: int
    type: str
    data: dict
    metadata: dict = field(default_factory=dict)
    global_position: int = 0


def test_a_turn_notice_tells_the_players_whose_turn_came_and_nobody_else():
    meta = {"actor": ADA, "seat": "p1", "seated": {"p1": ADA, "p2": BOB, "p3": CY},
            "to_act": ["p2", "p3"], "turn_came": ["p2"]}
    [notice] = n.notices(STREAM, 12, "BuildingDrawn", {"secret": "x"}, meta, position=99)
    assert (notice.kind, notice.version, notice.position) == ("turn", 12, 99)
    assert notice.seats == ("p2",) and notice.players == (BOB,)
    assert notice.data == {"to_act": ["p2", "p3"]}
    assert notice.concerns(BOB) and not notice.concerns(CY)


def test_a_game_event_reveals_nothing_of_its_data_in_a_notice():
    meta = {"seated": {"p1": ADA, "p2": BOB}, "to_act": ["p2"], "turn_came": ["p2"]}
    [notice] = n.notices(STREAM, 5, "CardDrawn", {"card": "the secret card"}, meta)
    assert "secret" not in repr(notice.to_json())


def test_an_event_inside_a_move_with_no_recorded_turn_tells_nobody():
    assert n.notices(STREAM, 7, "CardDrawn", {"card": 3}, {"actor": ADA, "seat": "p1"}) == []


def test_someone_joining_a_lobby_tells_the_players_already_seated_but_not_the_joiner():
    meta = {"actor": CY, "seated": {"p1": ADA, "p2": BOB, "p3": CY}}
    [notice] = n.notices(STREAM, 4, "SeatTaken", {"seat": "p3", "player": CY}, meta)
    assert notice.kind == "joined" and notice.seats == ("p3",) and notice.players == (ADA, BOB)
    assert notice.data == {"seat": "p3", "player": CY}


def test_the_host_taking_the_first_seat_of_a_new_game_tells_nobody():
    meta = {"actor": ADA, "seated": {"p1": ADA}}
    assert n.notices(STREAM, 2, "SeatTaken", {"seat": "p1", "player": ADA}, meta) == []


def test_someone_leaving_tells_those_who_stay_and_names_a_new_host():
    meta = {"actor": ADA, "seated": {"p2": BOB}}
    [notice] = n.notices(STREAM, 5, "SeatLeft", {"seat": "p1", "player": ADA, "new_host": BOB}, meta)
    assert (notice.kind, notice.players, notice.data["new_host"]) == ("left", (BOB,), BOB)


def test_a_start_tells_every_seated_player_even_without_recorded_metadata():
    [notice] = n.notices(STREAM, 6, "PlayersSeated", {"players": {"p1": ADA, "p2": BOB}}, {})
    assert notice.kind == "started" and notice.players == (ADA, BOB) and notice.seats == ("p1", "p2")


def test_a_timeout_tells_everyone_in_the_game_which_seat_timed_out():
    meta = {"seated": {"p1": ADA, "p2": BOB}, "timeout": True}
    [notice] = n.notices(STREAM, 30, "TurnTimedOut", {"seat": "p1", "deadline_version": 29}, meta)
    assert (notice.kind, notice.seats, notice.players) == ("timed-out", ("p1",), (ADA, BOB))


def test_a_turn_of_two_steps_played_out_by_one_deadline_is_told_as_one_timeout():
    first = {"seated": {"p1": ADA, "p2": BOB}, "timeout": True}
    later = {**first, "timeout_step": 2}
    assert len(n.notices(STREAM, 30, "TurnTimedOut", {"seat": "p1", "deadline_version": 29}, first)) == 1
    assert n.notices(STREAM, 32, "TurnTimedOut", {"seat": "p1", "deadline_version": 31}, later) == []


def test_the_end_and_the_score_tell_everyone_with_the_public_outcome_and_standings():
    meta = {"seated": {"p1": ADA, "p2": BOB}, "to_act": [], "turn_came": []}
    [ended] = n.notices(STREAM, 40, "GameOver", {"outcome": "p2 wins", "seed": "ab"}, meta)
    assert ended.kind == "ended" and ended.data == {"outcome": "p2 wins"} and ended.players == (ADA, BOB)
    standings = [{"seat": "p2", "rank": 1}, {"seat": "p1", "rank": 2}]
    [scored] = n.notices(STREAM, 41, "GameScored", {"standings": standings}, meta)
    assert scored.kind == "scored" and scored.data == {"standings": standings}


def test_a_start_and_the_first_turn_are_two_notices_at_their_own_versions():
    seated = {"p1": ADA, "p2": BOB}
    started = n.notices(STREAM, 3, "PlayersSeated", {"players": seated}, {"seated": seated})
    turn = n.notices(STREAM, 9, "BoardDealt", {}, {"seated": seated, "to_act": ["p1"], "turn_came": ["p1"]})
    assert [x.kind for x in started + turn] == ["started", "turn"]
    assert len({x.id for x in started + turn}) == 2


def test_a_cancelled_lobby_tells_those_left_but_not_who_cancelled_it():
    meta = {"actor": ADA, "seated": {}}
    assert n.notices(STREAM, 5, "GameCancelled", {"reason": "the host left an empty lobby"}, meta) == []


def test_streams_that_are_not_games_give_no_notices():
    assert n.game_id_of("player-1") is None
    assert n.notices("orders-1", 1, "PlayersSeated", {"players": {"p1": ADA}}, {}) == []


def test_a_record_gives_its_global_position_and_a_stable_id():
    record = Record(STREAM, 6, "PlayersSeated", {"players": {"p1": ADA, "p2": BOB}}, {}, 1234)
    [notice] = n.notices_of(record)
    assert notice.position == 1234 and notice.id == f"{GAME}:6:started"
    assert notice.to_json()["game_id"] == GAME and notice.kind in n.KINDS


def test_a_resignation_tells_the_other_players_which_seat_left_and_which_bot_plays_it():
    meta = {"actor": ADA, "seat": "p1", "seated": {"p1": ADA, "p2": BOB, "p3": CY}}
    [notice] = n.notices(STREAM, 20, "SeatResigned", {"seat": "p1", "player": ADA, "bot": "heuristic"}, meta)
    assert (notice.kind, notice.seats, notice.players) == ("resigned", ("p1",), (BOB, CY))
    assert notice.data == {"seat": "p1", "player": ADA, "bot": "heuristic"}


def test_a_resignation_that_needs_no_bot_says_so():
    meta = {"actor": ADA, "seated": {"p1": ADA, "p2": BOB}}
    [notice] = n.notices(STREAM, 20, "SeatResigned", {"seat": "p1", "player": ADA, "bot": None}, meta)
    assert notice.players == (BOB,) and notice.data["bot"] is None


def test_an_abandoned_seat_tells_everyone_its_absent_player_included_which_bot_took_it():
    meta = {"actor": "system", "seated": {"p1": ADA, "p2": BOB}}
    data = {"seat": "p2", "player": BOB, "timeouts": 3, "bot": "random"}
    [notice] = n.notices(STREAM, 33, "SeatAbandoned", data, meta)
    assert (notice.kind, notice.seats, notice.players) == ("abandoned", ("p2",), (ADA, BOB))
    assert notice.data == data


def test_a_replacement_tells_the_players_the_new_holder_and_the_one_who_left():
    meta = {"actor": CY, "seat": "p2", "seated": {"p1": ADA, "p2": CY}}
    data = {"seat": "p2", "player_before": BOB, "player": CY}
    [notice] = n.notices(STREAM, 40, "SeatReplaced", data, meta)
    assert (notice.kind, notice.seats, notice.players) == ("replaced", ("p2",), (ADA, BOB, CY))
    assert notice.data == data


def test_a_replacement_of_a_seat_nobody_held_names_nobody_before():
    meta = {"actor": CY, "seated": {"p1": ADA, "p2": CY}}
    [notice] = n.notices(STREAM, 40, "SeatReplaced", {"seat": "p2", "player_before": None, "player": CY}, meta)
    assert notice.players == (ADA, CY) and notice.data["player_before"] is None


def test_an_abort_tells_the_others_that_the_game_ends_without_a_result():
    meta = {"actor": BOB, "seated": {"p1": ADA, "p2": BOB, "p3": CY}}
    [notice] = n.notices(STREAM, 8, "GameAborted", {"seat": "p2", "player": BOB}, meta)
    assert (notice.kind, notice.players, notice.data) == ("aborted", (ADA, CY), {"seat": "p2", "player": BOB})


def test_a_game_cancelled_by_agreement_tells_the_others_why_and_one_ended_as_it_stands_tells_nobody_twice():
    meta = {"actor": BOB, "seated": {"p1": ADA, "p2": BOB, "p3": CY}}
    [notice] = n.notices(STREAM, 9, "EndAgreed", {"ending": "cancelled"}, meta)
    assert (notice.kind, notice.players) == ("cancelled", (ADA, CY))
    assert notice.data == {"reason": "Ended by agreement of its players: cancelled, with no result",
                           "ending": "cancelled"}
    assert n.notices(STREAM, 9, "EndAgreed", {"ending": "as-it-stands"}, meta) == [], "its GameOver tells them"


def test_a_proposal_to_end_tells_every_other_player_who_proposed_which_ending_and_nothing_else():
    meta = {"actor": BOB, "seated": {"p1": ADA, "p2": BOB, "p3": CY}}
    [notice] = n.notices(STREAM, 7, "EndProposed", {"seat": "p2", "player": BOB, "ending": "as-it-stands"}, meta)
    assert (notice.kind, notice.seats, notice.players) == ("end-proposed", ("p2",), (ADA, CY))
    assert notice.data == {"seat": "p2", "player": BOB, "ending": "as-it-stands"}
    assert n.notices(STREAM, 8, "EndAccepted", {"seat": "p1", "player": ADA}, meta) == [], "an answer tells nobody"
    assert n.proposal_sentence("Bob", "cronberg", "cancelled", "https://b.example/#/games/g") == (
        "Bob proposes to end your game of cronberg cancelled, with no result: accept or decline at "
        "https://b.example/#/games/g")


def test_a_rematch_tells_the_old_games_other_players_the_new_games_id():
    meta = {"actor": ADA, "seated": {"p1": ADA, "p2": BOB}}
    [notice] = n.notices(STREAM, 50, "RematchCreated", {"game_id": "new-game-id"}, meta)
    assert (notice.kind, notice.game_id, notice.players) == ("rematch", GAME, (BOB,))
    assert notice.data == {"rematch_id": "new-game-id"}


def test_the_lifecycle_events_that_concern_nobody_else_give_no_notices():
    meta = {"actor": ADA, "seated": {"p1": ADA, "p2": BOB}}
    assert n.notices(STREAM, 9, "InviteIssued", {"seat": "p2", "code_sha256": "ab"}, meta) == []
    assert n.notices(STREAM, 9, "ClocksComputed", {"at": "t", "banks": {}, "since": {}}, meta) == []


def test_every_seat_life_kind_is_a_kind():
    assert {"resigned", "abandoned", "replaced", "aborted", "rematch"} <= set(n.KINDS)
    assert len(set(n.KINDS)) == len(n.KINDS)
