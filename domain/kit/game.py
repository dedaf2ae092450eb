"""A game, declared: its catalogue, its declared properties, and its pure
functions, which the engine calls directly.

Every hosted game is one ``Game`` assembled in its package's ``__init__.py``
from the parts its modules define (``RULES = assemble(__name__, ...)``,
domain.kit.assemble), and listed in ``domain.games.REGISTRY``. The
functions are the game's own; nothing forwards them:

    seats(options)                      -> (seat, ...)  the seats these options make
    setup(seats, options, rng)          -> [Event]      first events (deals, shuffles)
    evolve(state, event)                -> state        state is None before the first event
    decide(state, seat, command, rng)   -> [Event]      or raise IllegalCommand("why"), at the point of decision
    to_act(state)                       -> frozenset of seats that may act now
    legal_commands(state, seat)         -> [Command]    exact: each is accepted, nothing else is
    on_timeout(state, seat, rng)        -> Command      what happens when the seat's deadline passes
    view(state, viewer)                 -> dict         JSON-ready; viewer is a seat, None or EVERYONE
    visible(event, viewer)              -> dict         JSON-ready per-viewer form of one event
    outcome(state)                      -> str | None   None while the game runs; a sentence once over
    score(state)                        -> [Standing]   final standings (run by the scoring worker)
    resign(state, seat)                 -> Resignation  what a resignation sets off (default: a bot plays on)
    twin(setup, steps, viewer, rng)     -> [Event]      a history the viewer cannot tell from this one

and its declarations: ``traits`` (simultaneous moves, chance, hidden
information, teams), ``view_shape`` (the shape of every view, see
``domain.kit.shape``), ``standing_detail`` (the shape of what ``score`` puts in
a standing's ``detail``, see ``domain.kit.standing``), ``bots`` (at least a heuristic one), ``sentences``
(an event in words) and the data files beside it. The conformance suite
(tests/games/test_conformance.py) checks each declaration against what the
functions do.
"""

from __future__ import annotations

import dataclasses
import hashlib
import pathlib
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..engine import (Codec, Command, Event, Option, Resignation, Standing, UnknownRulesVersion)
from .datafile import Described
from .golden import Golden
from .names import Board, Hand, Names, names_of
from .redaction import Redacted
from .shape import Obj


@dataclass(frozen=True)
class Traits:
    """What kind of game it is (OpenSpiel's GameType, in the words of our games)."""

    simultaneous: bool  # more than one seat may be to act at the same moment
    chance: bool  # setup or decide draws from the random source
    hidden_information: bool  # some seat's view lacks what the referee's shows
    teams: bool  # seats share a side and a result (Coronation's detectives)


@dataclass(frozen=True)
class Step:
    """One decided command of a played game, as the conformance suite and
    ``twin`` see it: who sent what at which version, and the events it gave."""

    seat: str
    command: Command
    version: int
    events: tuple[Event, ...]


def default_resign(state: Any, seat: str) -> Resignation:
    """A multiplayer game's default: the seat leaves the standings ranked
    last (domain.lifecycle sees to that) and a bot plays its turns."""
    return Resignation()


RANKING = "The highest score ranks first; seats with equal scores share the place."

Twin = Callable[[Sequence[Event], Sequence[Step], "str | None", random.Random], list[Event]]


@dataclass(frozen=True, eq=False)
class Game:
    name: str
    title: str
    min_seats: int
    max_seats: int
    traits: Traits
    options: tuple[Option, ...]
    commands: tuple[type[Command], ...]
    events: tuple[type[Event], ...]
    seats: Callable[[Mapping[str, Any]], tuple[str, ...]]
    setup: Callable[[tuple[str, ...], Mapping[str, Any], random.Random], list[Event]]
    evolve: Callable[[Any, Event], Any]
    decide: Callable[[Any, str, Command, random.Random], list[Event]]
    to_act: Callable[[Any], frozenset[str]]
    legal_commands: Callable[[Any, str], list[Command]]
    on_timeout: Callable[[Any, str, random.Random], Command]
    view: Callable[[Any, "str | None"], dict]
    visible: Callable[[Event, "str | None"], dict]
    outcome: Callable[[Any], "str | None"]
    score: Callable[[Any], list[Standing]]
    view_shape: Obj | None
    twin: Twin | None
    bots: Mapping[str, Callable[[], Any]]
    sentences: Mapping[str, Callable[[dict], str]]
    data: pathlib.Path | None  # the game's package: its *.json files are its data files
    resign: Callable[[Any, str], Resignation] = default_resign
    # How score ranks the seats and breaks ties, in a sentence for players
    # (the rulebook's words): the end of a game says it beside equal scores
    # and shared places, so that a tie is never left unexplained.
    ranking: str = RANKING
    # Whether score means something before the game's end: a game ended by
    # agreement "as it stands" ranks by it (domain.lifecycle.agreement); a
    # game whose score only says who won (false) has all seats share first.
    score_as_it_stands: bool = True
    # What score puts in each Standing's detail: Obj("StandingDetail", ...),
    # the game's own fields only (domain.kit.standing adds the engine's). The
    # registry refuses a game without it.
    standing_detail: Obj | None = None
    # Every rules version this code can play, each with a sentence naming what
    # it changed. A game is created under the newest and played, replayed and
    # audited under the one GameCreated records, for ever (see README,
    # "Changing a game's rules"). Old behaviour is kept behind named switches:
    # ``switches(version)`` gives the state fields that version sets on the
    # game's first state, never deduced from dates.
    versions: Mapping[int, str] = field(default_factory=lambda: {1: "as first released"})
    version: int | None = None
    switches: Callable[[int], Mapping[str, Any]] | None = None
    # Bump when the shape of the state changes, so that stored snapshots of the
    # old shape are ignored and the game is replayed from its events instead.
    state_version: int = 1
    # Upcasters of this game's own events: (type, stored schema version) ->
    # function from that shape's data to the next version's.
    upcasters: Mapping[tuple[str, int], Callable[[dict], dict]] = field(default_factory=dict)
    # The evolve the game gave, before a version's switches were applied.
    given_evolve: Callable[[Any, Event], Any] | None = field(default=None, repr=False)
    # What each field of the game's commands and events means, for the API's
    # document: "field" for that name in every message of the game, or
    # "Type.field" for one message's (which wins). See ``field_description``.
    field_descriptions: Mapping[str, str] = field(default_factory=dict)
    # A legal command in words, for people ("Lay building 3 on T01 and T02,
    # turned"): one function per command type, from the command's JSON.
    # Served beside every legal command; never a null, a slug, a list or an id.
    command_sentences: Mapping[str, Callable[[dict], str]] = field(default_factory=dict)
    # What each command field's value names (domain.kit.names): "field" or
    # "Type.field", as field_descriptions. A field not named is plain data.
    field_names: Mapping[str, Names] = field(default_factory=dict)
    # Where a seat's own cards are in its view (None: the game has no hand).
    hand: Hand | None = None
    # How a client draws the board: its kind of drawing and data file (None: no board).
    board: Board | None = None
    # What ``visible`` hides of each event type, by type (domain.kit.redaction):
    # the document types events from it, the conformance suite checks it.
    redacted: Mapping[str, Redacted] = field(default_factory=dict)
    # What each data file holds, by file name (domain.kit.datafile), for people.
    data_files: Mapping[str, Described] = field(default_factory=dict)
    # The golden games the game keeps (domain.kit.golden); a hosted game has two at least.
    golden: tuple[Golden, ...] = ()

    def __post_init__(self) -> None:
        version = max(self.versions) if self.version is None else self.version
        if version not in self.versions:
            raise UnknownRulesVersion(
                f"{self.name} has rules version(s) {', '.join(map(str, sorted(self.versions)))}, not {version}")
        given = self.given_evolve or self.evolve
        set_ = object.__setattr__
        set_(self, "version", version)
        set_(self, "given_evolve", given)
        if self.switches is not None:
            set_(self, "evolve", _switched(given, dict(self.switches(version))))
        set_(self, "command_codec", Codec(self.commands))
        set_(self, "event_codec", Codec(self.events))
        set_(self, "_data_digests", None)

    def at(self, version: int) -> "Game":
        """The same game under rules ``version`` (UnknownRulesVersion if it has none such)."""
        return self if version == self.version else dataclasses.replace(self, version=version)

    def data_paths(self) -> dict[str, pathlib.Path]:
        """Each data file (JSON beside the game's package) by name: the files
        data_digests hashes, and the API serves by that hash."""
        if self.data is None:
            return {}
        return {path.name: path for path in sorted(self.data.glob("*.json"))}

    def data_digests(self) -> dict[str, str]:
        """sha256 of each data file that this installation plays the game
        with; GameCreated records them, so that a data file of a released
        version edited in place is caught, not obeyed."""
        if self._data_digests is None:
            object.__setattr__(self, "_data_digests", {
                name: hashlib.sha256(path.read_bytes()).hexdigest() for name, path in self.data_paths().items()})
        return dict(self._data_digests)

    def field_description(self, message: type, name: str) -> str | None:
        """What ``name`` of the command or event class ``message`` means, or None."""
        return field_description(self.field_descriptions, message, name)

    def command_sentence(self, command: Mapping[str, Any]) -> str:
        """The legal command ``command`` (its JSON) in words for people."""
        return self.command_sentences[command["type"]](dict(command))

    def names_of(self, message: type, name: str) -> Names | None:
        """What field ``name`` of the command class ``message`` names, or None."""
        return names_of(self.field_names, message, name)

    def replay(self, events, state: Any = None) -> Any:
        for event in events:
            state = self.evolve(state, event)
        return state

    def decode_command(self, data: Mapping[str, Any]) -> Command:
        return self.command_codec.decode(data)  # type: ignore[return-value]

    def decode_event(self, data: Mapping[str, Any]) -> Event:
        return self.event_codec.decode(data)  # type: ignore[return-value]

    def catalogue(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "options": [option.to_json() for option in self.options],
            "commands": sorted(cls.type_name() for cls in self.commands),
            "rules_version": self.version,
            "rules_versions": [{"version": v, "change": text} for v, text in sorted(self.versions.items())],
            "ranking": self.ranking,
            "traits": dataclasses.asdict(self.traits),
        }


def field_description(descriptions: Mapping[str, str], message: type, name: str) -> str | None:
    """``descriptions``' text for field ``name`` of ``message``: its own
    ("Type.field"), else the game's for every field of that name."""
    return descriptions.get(f"{message.__name__}.{name}") or descriptions.get(name)


def unused_descriptions(descriptions: Mapping[str, str], messages: Sequence[type]) -> list[str]:
    """The keys of ``descriptions`` that name no field of ``messages``: stale
    texts of renamed or removed fields."""
    names = {f.name for cls in messages for f in dataclasses.fields(cls)}
    own = {f"{cls.__name__}.{f.name}" for cls in messages for f in dataclasses.fields(cls)}
    return sorted(key for key in descriptions if key not in (own if "." in key else names))


def _switched(evolve: Callable[[Any, Event], Any], switches: dict[str, Any]) -> Callable[[Any, Event], Any]:
    """``evolve``, with the version's switches set on the first state it builds."""
    if not switches:
        return evolve

    def evolve_with_switches(state: Any, event: Event) -> Any:
        if state is None:
            first = evolve(None, event)
            return dataclasses.replace(first, **switches) if first is not None else None
        return evolve(state, event)

    return evolve_with_switches
