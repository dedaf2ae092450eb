"""The conformance checks, one function each, over any game (hosted or not):
each raises an AssertionError naming the game and what is wrong. The test
module runs them over the registry and the example game."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

from domain import notices, words
from domain.engine import EVERYONE, IllegalCommand, resolve_options
from domain.kit.game import unused_descriptions
from domain.kit.shape import Obj
from domain.kit.standing import standing_shape
from domain.lifecycle.bots import RANDOM, RandomBot, decide_for
from domain.lifecycle.standings import ranked

from tests.games.seat_life import SCENARIOS, compare_every_scenario

from .composing import check_command_sentences, check_field_names, check_hand  # noqa: F401 - the suite's checks
from .playouts import (GOLDEN, MAX_STEPS, Played, dump, hook, options_for, play, playouts, round_trips,
                       sample as _sample, seat_counts)
STATES_PER_PLAYOUT = 4  # sampled rest points for the command-space check
VIEWS_PER_PLAYOUT = 12  # sampled rest points for the view declaration check
LEAK_VIEWS_PER_PLAYOUT = 100  # rest points whose views and legal commands the twins compare (events: all)
REFUSALS_PER_SEAT = 20
SEAT_LIFE_POSITIONS = 10  # positions compared after a seat's player left, per scenario (the example game is short)


def said(game, visible: dict) -> str:
    """``visible`` in words, as domain.words.tell says it, from the game's own
    sentences (so a game not in the registry is told as a hosted one is)."""
    kind = visible["type"]
    sentence = words.ENGINE.get(kind) or hook(game, "sentences")[kind]
    return sentence(visible)


def viewers(played: Played) -> tuple:
    return (*played.seats, None)


# Playouts: an end, replay equality and JSON round trips

def check_playouts(game) -> None:
    for played in playouts(game):
        again = None
        for n, event in enumerate(played.events):
            assert round_trips(game.decode_event, event), f"{played}: {event!r} does not come back from JSON"
            for viewer in (*viewers(played), EVERYONE):
                dump(game.visible(event, viewer))  # each viewer's form of it is JSON
            again = game.evolve(again, game.decode_event(event.to_json()))
            assert again == played.states[n], f"{played}: replaying event {n} ({type(event).__name__}) gives another state"
        for step in played.steps:
            assert round_trips(game.decode_command, step.command), \
                f"{played}: {step.command!r} does not come back from JSON"
        assert game.to_act(played.final) == frozenset(), f"{played}: seats are to act in a finished game"
        standings = game.score(played.final)
        assert sorted(s.seat for s in standings) == sorted(played.seats), \
            f"{played}: the standings do not rank every seat once"


# The view declaration

def declared(game, name: str, top: str, what: str, why: str) -> Obj:
    """The game's declaration ``name``: an ``Obj(top, ...)``, every object and field described."""
    shape = hook(game, name)
    assert isinstance(shape, Obj) and shape.name == top, f"{game.name}'s {what} is not Obj('{top}', ...), {why}"
    undescribed = shape.undescribed()
    assert not undescribed, f"{game.name}'s {what} does not describe {', '.join(undescribed)}"
    return shape


def check_view_declaration(game) -> None:
    shape = declared(game, "view_shape", "View", "view declaration", "the object view returns")
    for played in playouts(game):
        for n in _sample(played.boundaries(), VIEWS_PER_PLAYOUT):
            for viewer in (*viewers(played), EVERYONE):
                view = game.view(played.states[n], viewer)
                dump(view)
                problems = shape.problems(view)
                assert not problems, (f"{played}: the view of {viewer} after event {n} does not match {game.name}'s "
                                      "declaration: " + "; ".join(problems[:5]))


# The standing detail declaration

def check_standing_declaration(game) -> None:
    """Every standing of every playout's end, as the game scores it and as the
    engine marks it (a seat resigned, another abandoned; a game ended by
    resignation), matches the game's declared detail."""
    declared(game, "standing_detail", "StandingDetail", "standing detail declaration", "the detail score gives")
    for played in playouts(game):
        standings = game.score(played.final)
        seats = played.seats
        marked = ranked(standings, seats, resigned=seats[-1:], abandoned=seats[:1])
        unscored = ranked(None, seats, resigned=seats[-1:], abandoned=seats[:1])
        for where, given in (("as scored", standings), ("with a seat resigned and one abandoned", marked),
                             ("ended by a resignation", unscored)):
            check_standings(game, given, f"{played}, {where}")


def check_standings(game, standings, where: str) -> None:
    shape = standing_shape(hook(game, "standing_detail"), game.title)
    for standing in standings:
        problems = shape.problems(json.loads(dump(standing.to_json())))  # as a client reads it
        assert not problems, (f"{where}: the standing of {standing.seat} does not match {game.name}'s standing "
                              "declaration: " + "; ".join(problems[:5]))


# The leak comparison of every door

def check_twins_tell_nothing(game) -> None:
    """For every viewer, the game's twin of each playout (a history with what
    the viewer may not know drawn again) shows the viewer the same thing
    through every door at every version: view, to_act, legal commands, each
    event's visible form, its words and its notices."""
    twin = hook(game, "twin")
    differed = 0
    for played in playouts(game):
        events = played.events
        same = twin(played.setup, played.steps, EVERYONE, random.Random(played.seed))
        assert list(same) == events, f"{played}: the twin for * (the referee, who knows everything) is another history"
        for viewer in viewers(played):
            twinned = list(twin(played.setup, played.steps, viewer, random.Random(f"{played.seed}/{viewer}")))
            assert len(twinned) == len(events), \
                f"{played}: the twin for {viewer} has {len(twinned)} events, the game {len(events)}"
            differed += twinned != events
            _compare(game, played, viewer, twinned)
    if hook(game, "traits").hidden_information:
        assert differed, (f"{game.name} declares hidden information, but its twin never changed a history: "
                          "it must draw again what a viewer may not know")


def _compare(game, played: Played, viewer, twinned) -> None:
    """Every event's visible form, words and notices; at every rest point
    (after setup, after each decision) to_act, and at up to
    LEAK_VIEWS_PER_PLAYOUT of them, spread over the game, the view and the
    legal commands."""
    where = f"{played}, viewer {viewer}"
    player = {seat: f"player-{seat}" for seat in played.seats}
    rests = set(played.boundaries())
    looked = set(_sample(played.boundaries(), LEAK_VIEWS_PER_PLAYOUT))
    steps = {n + 1: step for n, step in zip(played.boundaries(), played.steps)}  # a step's first event
    state, twin_state, before = None, None, frozenset()
    for n, (event, other) in enumerate(zip(played.events, twinned)):
        step = steps.get(n)
        if step is not None and step.events:
            # The twin is a history the rules allow: the same seat acts; the
            # viewer's own command is the one he sent (others' may differ, as
            # what they hold does: a rogue of another kind discarded).
            assert step.seat in game.to_act(twin_state), f"{where}: in the twin, {step.seat} is not to act at event {n}"
            if step.seat == viewer:
                assert step.command in game.legal_commands(twin_state, step.seat), \
                    f"{where}: in the twin, {step.command!r} is not legal for {step.seat} at event {n}"
        state, twin_state = played.states[n], game.evolve(twin_state, other)
        told = [game.visible(event, viewer), game.visible(other, viewer)]
        assert told[0] == told[1], f"{where}: event {n} ({type(event).__name__}) is told differently in the twin" + _diff(*told)
        words_ = [said(game, {"type": type(e).__name__, **t}) for e, t in zip((event, other), told)]
        assert words_[0] == words_[1], f"{where}: event {n} is said differently in the twin: {words_}"
        if n not in rests:
            assert _notices(game, event, n, player, viewer) == _notices(game, other, n, player, viewer), \
                f"{where}: event {n}'s notices differ in the twin"
            continue
        acting = [game.to_act(state), game.to_act(twin_state)]
        assert acting[0] == acting[1], f"{where}: after event {n}, {sorted(acting[0])} are to act, in the twin {sorted(acting[1])}"
        told_notices = [_notices(game, e, n, player, viewer, before, acting[0]) for e in (event, other)]
        assert told_notices[0] == told_notices[1], f"{where}: event {n}'s notices differ in the twin"
        before = acting[0]
        if n not in looked:
            continue
        views = [game.view(state, viewer), game.view(twin_state, viewer)]
        assert views[0] == views[1], f"{where}: after event {n} the view differs in the twin" + _diff(*views)
        if viewer is not None:
            legal = [game.legal_commands(state, viewer), game.legal_commands(twin_state, viewer)]
            assert legal[0] == legal[1], f"{where}: after event {n} the legal commands differ in the twin"


def _notices(game, event, n, player, viewer, before=frozenset(), after=None) -> list[dict]:
    """The notices of one event stored as the command path stores it (the
    facts a notice reads recorded on the last event of each decision), as far
    as they concern ``viewer``'s player (a spectator: every notice)."""
    data = event.to_json()
    kind = data.pop("type")
    metadata = {}
    if after is not None:
        metadata = {"seated": player, "to_act": sorted(after), "turn_came": sorted(set(after) - set(before))}
    found = notices.notices(f"game-conformance-{game.name}", n + 1, kind, data, metadata)
    return [notice.to_json() for notice in found if viewer is None or notice.concerns(player[viewer])]


def _diff(one: dict, other: dict) -> str:
    if not isinstance(one, dict) or not isinstance(other, dict):
        return ""
    keys = sorted(k for k in {*one, *other} if dump(one.get(k)) != dump(other.get(k)))
    return f" (in {', '.join(keys)})"


# Legal commands are exactly the accepted ones

def check_former_holders_see_what_spectators_see(game) -> None:
    """A seat's player who resigned, was abandoned to a bot or was replaced
    is shown what a spectator is shown (tests/games/seat_life.py), at three
    seats or the game's fewest if more, so that the game goes on without him."""
    seats = min(game.max_seats, max(3, game.min_seats))
    options = options_for(game, seats)
    seat = game.seats(resolve_options(game.options, options))[1]
    compared = compare_every_scenario(game, options, seat, seeds=range(2), before=2)
    thin = {scenario: n for scenario, n in compared.items() if n < SEAT_LIFE_POSITIONS}
    assert not thin, (f"{game.name}: too few positions after {seat}'s player left to compare "
                      f"(at least {SEAT_LIFE_POSITIONS} each of {SCENARIOS}): {thin}")


def check_legal_commands_are_exactly_the_accepted_ones(game) -> None:
    for played in playouts(game):
        pool = [step.command for step in played.steps]
        rests = played.boundaries()
        rng = random.Random(played.seed)
        for n in _sample(rests, STATES_PER_PLAYOUT):
            state = played.states[n]
            legal = {seat: game.legal_commands(state, seat) for seat in played.seats}
            for seat in played.seats:
                where = f"{played}, after event {n}, seat {seat}"
                listed = [dump(command.to_json()) for command in legal[seat]]
                assert len(listed) == len(set(listed)), f"{where}: legal_commands lists a command twice"
                for command in legal[seat]:
                    try:
                        game.decide(state, seat, command, random.Random(0))
                    except IllegalCommand as refusal:
                        raise AssertionError(f"{where}: {command!r} is listed, yet refused: {refusal.message}")
                others = [c for other in played.seats if other != seat for c in legal[other]]
                known = [*legal[seat], *others, *pool]
                bases = rng.sample(known, min(REFUSALS_PER_SEAT, len(known)))
                candidates = _unlisted([*others, *_mutations(bases, known)], legal[seat])
                for command in rng.sample(candidates, min(REFUSALS_PER_SEAT, len(candidates))):
                    _refused(game, state, seat, command, where)


def _refused(game, state, seat, command, where) -> None:
    try:
        game.decide(state, seat, command, random.Random(0))
    except IllegalCommand as refusal:
        message = refusal.message
        assert isinstance(message, str) and len(message.split()) >= 2, \
            f"{where}: {command!r} is refused without a sentence: {message!r}"
    except Exception as error:  # noqa: BLE001 - any other exception is a 500 at the API
        raise AssertionError(f"{where}: {command!r} raised {type(error).__name__}: {error}, not IllegalCommand")
    else:
        raise AssertionError(f"{where}: {command!r} is accepted, though legal_commands does not list it")


def _unlisted(commands, legal) -> list:
    seen, out = {dump(c.to_json()) for c in legal}, []
    for command in commands:
        key = dump(command.to_json())
        if key not in seen:
            seen.add(key)
            out.append(command)
    return out


def _mutations(commands, known) -> list:
    """Well-formed commands of the game's types: each field of each of
    ``commands`` given another value of its kind, or a value the same field
    has in another ``known`` command (the API's schemas admit them all)."""
    values: dict[tuple, list] = {}
    for command in known:
        for f in dataclasses.fields(command):
            found = values.setdefault((type(command), f.name), [])
            if len(found) < 8 and getattr(command, f.name) not in found:
                found.append(getattr(command, f.name))
    out = []
    for command in commands:
        for f in dataclasses.fields(command):
            value = getattr(command, f.name)
            for changed in (*_nearby(value), *values[(type(command), f.name)]):
                if changed != value:
                    out.append(dataclasses.replace(command, **{f.name: changed}))
    return out


def _nearby(value) -> list:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, 0, 99]
    if isinstance(value, str):
        return [value + "x", ""]
    if isinstance(value, tuple):
        return [value[:-1], value[::-1], (*value, *value[:1]), ()]
    return []


# Traits against behaviour

# Simultaneous moves that random play does not reach (0 of 400 seeded games
# of The Court of Miracles bring several Swordsmen into one Standoff), each
# shown by a test of its game that sets the position up; the suite checks that
# the test is there. A new game needs no entry when its playouts show it.
SIMULTANEOUS_SHOWN_BY = {
    "court-of-miracles": ("tests/games/court_of_miracles/test_standoffs.py",
                          "test_swordsmen_of_several_players_are_paid_for_at_once_then_the_winner_is_known"),
}


def _shown_simultaneous(game) -> bool:
    witness = SIMULTANEOUS_SHOWN_BY.get(game.name)
    if witness is None:
        return False
    path, test = witness
    text = (Path(__file__).resolve().parents[3] / path).read_text()
    assert f"def {test}(" in text, f"{game.name}: the test {path}::{test} that shows its simultaneous moves is gone"
    return True


def check_traits(game) -> None:
    """simultaneous: more than one seat is ever to act at once; chance: setup
    or decide draws from its random source; hidden_information: some seat's
    view or told event differs from the referee's (besides the name of its
    viewer); teams: at some seat count two seats share their rank in every
    finished playout (a side and its result), and without teams no two do."""
    traits = hook(game, "traits")
    played = playouts(game)
    simultaneous = any(p.most_to_act > 1 for p in played) or _shown_simultaneous(game)
    chance = any(p.draws for p in played)
    hidden = any(_hides(game, p) for p in played)
    teams = _sides(game, played)
    found = {"simultaneous": simultaneous, "chance": chance, "hidden_information": hidden, "teams": bool(teams)}
    wrong = {name: seen for name, seen in found.items() if getattr(traits, name) != seen}
    assert not wrong, f"{game.name} declares " + "; ".join(
        f"{name}={getattr(traits, name)}, but its playouts show {name}={seen}" for name, seen in wrong.items()) + (
        f" (seats that share a rank in every game, e.g. {sorted(set(teams))[:3]})" if "teams" in wrong and teams else "")


def _hides(game, played: Played) -> bool:
    def unnamed(view):
        return dump({k: v for k, v in view.items() if k != "viewer"}) if isinstance(view, dict) else dump(view)

    looked = set(_sample(played.boundaries(), LEAK_VIEWS_PER_PLAYOUT))
    for n, event in enumerate(played.events):
        for seat in played.seats:
            if dump(game.visible(event, seat)) != dump(game.visible(event, EVERYONE)):
                return True
            if n in looked and unnamed(game.view(played.states[n], seat)) != unnamed(game.view(played.states[n], EVERYONE)):
                return True
    return False


TEAM_GAMES = 3  # finished games at each seat count in which a side must share its rank


def _sides(game, played) -> list:
    """The pairs of seats that share their rank in each of TEAM_GAMES games at
    some seat count (the suite's playouts, and more seeds where they are fewer)."""
    sides = []
    for count in seat_counts(game):
        finals = [p.final for p in played if len(p.seats) == count]
        finals += [play(game, options_for(game, count), 1000 + n).final for n in range(TEAM_GAMES - len(finals))]
        ranks = [{s.seat: s.rank for s in game.score(final)} for final in finals]
        seats = sorted(ranks[0])
        sides += [(a, b) for i, a in enumerate(seats) for b in seats[i + 1:] if all(r[a] == r[b] for r in ranks)]
    return sides


# Bots

def check_bots(game) -> None:
    bots = hook(game, "bots")
    assert "heuristic" in bots, f"{game.name} declares no heuristic bot (bots: {', '.join(sorted(bots))})"
    for kind, make in {RANDOM: RandomBot, **bots}.items():
        for count in seat_counts(game):
            bot = make()

            def choose(state, seat, rng, bot=bot, kind=kind):
                try:
                    return decide_for(game, state, seat, bot, rng)
                except ValueError as error:
                    raise AssertionError(f"{game.name}'s {kind} bot with {count} seats: {error}")

            try:
                played = play(game, options_for(game, count), 7, choose)
            except AssertionError as error:
                raise AssertionError(f"{game.name}'s {kind} bot does not finish a game of {count} seats "
                                     f"within {MAX_STEPS} steps: {error}")
            check_standings(game, game.score(played.final), f"{game.name}'s {kind} bot with {count} seats")


# Sentences

def check_sentences(game) -> None:
    sentences = hook(game, "sentences")
    types = {cls.type_name() for cls in game.events}
    assert not types - set(sentences), f"{game.name} has no sentence for {', '.join(sorted(types - set(sentences)))}"
    assert not set(sentences) - types, f"{game.name} has sentences for no event of its: {sorted(set(sentences) - types)}"
    played = playouts(game)[0]
    for event in played.events:
        for viewer in (*viewers(played), EVERYONE):
            text = said(game, {"type": type(event).__name__, **game.visible(event, viewer)})
            assert isinstance(text, str) and text.strip(), f"{game.name}: {type(event).__name__} is said as {text!r}"


def check_messages_described(game) -> None:
    """Every command and event says what it is (its docstring) and what each
    of its fields holds (the game's ``field_descriptions``): the API's
    document describes them with those texts, and a text for no field is stale."""
    messages = (*game.commands, *game.events)
    bare = [cls.__name__ for cls in messages if not _own_doc(cls)]
    assert not bare, f"{game.name}'s messages {', '.join(bare)} have no docstring"
    unexplained = [f"{cls.__name__}.{field.name}" for cls in messages for field in dataclasses.fields(cls)
                   if not game.field_description(cls, field.name)]
    assert not unexplained, f"{game.name} describes no field {', '.join(unexplained)} (field_descriptions)"
    stale = unused_descriptions(game.field_descriptions, messages)
    assert not stale, f"{game.name}'s field_descriptions name no field of its messages: {', '.join(stale)}"


def _own_doc(cls) -> bool:
    doc = cls.__dict__.get("__doc__") or ""
    return bool(doc.strip()) and not doc.startswith(f"{cls.__name__}(")  # dataclasses writes "Type(field: ...)"


# Golden games

def check_golden_games(game) -> None:
    recorded = sorted((GOLDEN / game.name).glob("*.jsonl"))
    assert len(recorded) >= 2, (f"{game.name} has {len(recorded)} golden games in tests/golden/{game.name}/, not "
                                "two or more (record them with tests/golden/record.py)")
