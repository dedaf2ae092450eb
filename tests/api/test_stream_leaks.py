"""A stream never carries what its viewer may not see: Coronation's leak
comparison (tests/games/coronation/test_leak.py builds two games that differ
only in Lind's hidden route), run through the game stream. Both games are
stored as real games; every detective seat and a spectator stream each from
the start, and the two streams must be identical, message for message."""

from __future__ import annotations

import json
import random
import uuid

from api.http.app import create_app
from api.service.decisions import event_data
from domain import session as sessions
from domain.engine import seed_commitment
from domain.games.coronation import RULES
from domain.games.coronation import messages as m
from domain.games.coronation.legal import LIND_SEAT
from eventstore import NewEvent
from tests.games.coronation.test_leak import _alternative, _kept, _play_a, _public, _route_index
from tests.support.sse import parse


def _twin_games(options, seed):
    """The events of A and of B, setup included, up to where B can no longer
    follow A's public course (the same walk as the leak test's)."""
    playout, steps = _play_a(options, seed)
    kept = _kept(playout.state)
    rng = random.Random(seed * 7 + 1)
    setup = playout.events[: len(playout.events) - sum(len(s[2]) for s in steps)]
    a = b = RULES.replay(setup)
    a_log, b_log, differing = [(None, e) for e in setup], [(None, e) for e in setup], 0
    for index, (seat, command, a_events) in enumerate(steps[:-1]):  # not the end: then all is public
        b_command = command
        if seat == LIND_SEAT and _route_index(b, command) not in kept:
            later = {s[1].to for s in steps[index + 1:] if isinstance(s[1], m.MoveDetective)}
            b_command = _alternative(b, a_events, later | b.detective_locations, rng)
        if b_command is None or b_command not in RULES.legal_commands(b, seat):
            break
        b_events = RULES.decide(b, seat, b_command, rng)
        if [_public(e) for e in b_events] != [_public(e) for e in a_events]:
            break
        a, b = RULES.replay(a_events, a), RULES.replay(b_events, b)
        differing += a.route != b.route
        a_log += [(seat, e) for e in a_events]
        b_log += [(seat, e) for e in b_events]
    return playout, a_log, b_log, differing


def _store_game(service, seats, players, options, log) -> uuid.UUID:
    game_id = uuid.uuid4()
    host = players[seats[0]]
    frame = [sessions.GameCreated("coronation", {**options, "turn_seconds": None}, tuple(seats), host,
                                  seed_commitment(b"leak"), RULES.version, RULES.data_digests()),
             *[sessions.SeatTaken(seat, players[seat]) for seat in seats],
             sessions.PlayersSeated(dict(players))]
    records = [(None, e) for e in frame] + log
    new = [NewEvent(type=e.type_name(), data=event_data(e), metadata={"seat": seat}, schema_version=e.schema_version)
           for seat, e in records]
    service.store.append(f"game-{game_id}", new, 0)
    return game_id


def _normalised(text: str, game_id) -> list:
    messages, _, _ = parse(text.replace(str(game_id), "GAME"))
    out = []
    for message in messages:
        data = message.json
        data.pop("recorded_at", None)
        out.append((message.event, message.id, json.dumps(data, sort_keys=True)))
    return out


def test_no_detective_seat_or_spectator_can_tell_apart_the_streams_of_two_games_that_differ_in_lind_s_route(
        service, players):
    # Streams that end once they have caught up: only what they carry matters here.
    client = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 0.01}}, service=service).test_client()
    compared = differing = 0
    for seed in range(6):
        options = {"detective_seats": 1 + seed % 3, "equipment": "recommended"}
        playout, a_log, b_log, differs = _twin_games(options, seed)
        if not differs:
            continue
        differing += differs
        seats = list(playout.seats)
        people = players(len(seats))
        ids = {seat: person.id for seat, person in zip(seats, people)}
        resolved = dict(playout.options)
        a_game, b_game = (_store_game(service, seats, ids, resolved, log) for log in (a_log, b_log))
        viewers = [(seat, person.auth) for seat, person in zip(seats, people) if seat != LIND_SEAT] + [(None, {})]
        for seat, auth in viewers:
            a_text = client.get(f"/v1/games/{a_game}/stream?after=0", headers=auth).get_data(as_text=True)
            b_text = client.get(f"/v1/games/{b_game}/stream?after=0", headers=auth).get_data(as_text=True)
            a_stream, b_stream = _normalised(a_text, a_game), _normalised(b_text, b_game)
            assert len(a_stream) > len(playout.seats) + 2, a_text[:500]
            # The events' sentences are in what is compared (each is made from what its viewer may see).
            events = [json.loads(data) for event, _, data in a_stream if event == "message"]
            assert events and all(event["text"] for event in events)
            assert a_stream == b_stream, (seed, seat)
            compared += 1
        # Lind's own stream does tell them apart: the comparison can fail.
        lind = people[seats.index(LIND_SEAT)].auth
        assert _normalised(client.get(f"/v1/games/{a_game}/stream?after=0", headers=lind).get_data(as_text=True),
                           a_game) != _normalised(
            client.get(f"/v1/games/{b_game}/stream?after=0", headers=lind).get_data(as_text=True), b_game)
    assert compared >= 6 and differing >= 10, (compared, differing)


def test_an_abandoned_lind_s_player_cannot_tell_apart_the_streams_of_the_twin_games_from_the_abandonment_on(
        service, players):
    from domain.lifecycle.state import SeatAbandoned

    client = create_app({"RATE_LIMIT_PER_MINUTE": 0, "STREAMS": {"lifetime": 0.01}}, service=service).test_client()
    compared = 0
    for seed in range(6):
        options = {"detective_seats": 1 + seed % 3, "equipment": "recommended"}
        playout, a_log, b_log, differs = _twin_games(options, seed)
        setup = sum(1 for seat, _ in a_log if seat is None)
        if differs < 2 or len(a_log) - setup < 10:
            continue
        seats = list(playout.seats)
        people = players(len(seats))
        ids = {seat: person.id for seat, person in zip(seats, people)}
        cut = setup + (len(a_log) - setup) // 3  # Lind's player vanishes a third of the way in
        abandoned = (None, SeatAbandoned(LIND_SEAT, ids[LIND_SEAT], 3, "random"))
        games = [_store_game(service, seats, ids, dict(playout.options), [*log[:cut], abandoned, *log[cut:]])
                 for log in (a_log, b_log)]
        frame = len(seats) + 2  # GameCreated, a SeatTaken per seat, PlayersSeated
        since = frame + cut + 1  # the SeatAbandoned's version
        lind = people[seats.index(LIND_SEAT)].auth
        streams = [_normalised(client.get(f"/v1/games/{game}/stream?after=0", headers=lind).get_data(as_text=True),
                               game) for game in games]
        later = [[m for m in stream if m[1] is not None and int(m[1]) >= since] for stream in streams]
        assert later[0] and later[0] == later[1], seed
        assert any("SeatAbandoned" in m[2] for m in later[0])
        # Before it, his stream showed Lind's route: the two differ there.
        assert [m for m in streams[0] if m[1] is not None and int(m[1]) < since] != [
            m for m in streams[1] if m[1] is not None and int(m[1]) < since]
        compared += 1
    assert compared >= 3, compared
