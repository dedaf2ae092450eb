"""The explicit registry of hosted games, by their API name, and of every
rules version of each.

``registered(games)`` builds it, refusing a game listed twice, two games of
one name (or of names the API's schema components cannot tell apart), a game
whose event or command reuses an engine event's name, and a game that lacks a
declared property of the kit (``view_shape``, ``standing_detail``, ``twin``,
``bots``, ``sentences``, ``traits``), whose view declaration is not an ``Obj``
named ``View`` (the API names its schema ``<Game>View`` after it), or whose
standing detail is not an ``Obj`` named ``StandingDetail`` of the game's own
keys (the engine's, resigned and abandoned, are the kit's to add). Each error names
the game and what is wrong (README, "Adding a game").

``REGISTRY`` (and ``get``) give the newest rules of each game: what a new game
is created under, and what the catalogue shows. ``rules_for`` gives the rules
a stored game was created under, for ever, or an error naming both versions.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from ..engine import ChangedDataFile, UnknownRulesVersion
from ..kit import Game
from ..kit.shape import Obj
from ..kit.standing import DETAIL, ENGINE_KEYS
from ..session import ENGINE_EVENT_TYPES, GameCreated
from .coronation import RULES as coronation
from .court_of_miracles import RULES as court_of_miracles
from .cronberg import RULES as cronberg
from .runebound import RULES as runebound
from .the_coil import RULES as the_coil

class RegistryError(ValueError):
    """A game that cannot be hosted as declared; the message names it and what is wrong."""


# What every kit Game declares beside its functions (domain.kit.game).
DECLARED = ("traits", "view_shape", "standing_detail", "twin", "bots", "sentences")


def registered(all_games: Iterable[Game]) -> dict[str, Game]:
    """The registry of ``all_games`` by API name, or RegistryError."""
    registry: dict[str, Game] = {}
    prefixes: dict[str, str] = {}
    for game in all_games:
        name = getattr(game, "name", None)
        if not isinstance(name, str) or not name:
            raise RegistryError(f"a game without a name was registered: {game!r}")
        if name in registry:
            what = "registered twice" if registry[name] is game else "the name of two different games"
            raise RegistryError(f"{name} is {what}: each game is listed once, under a name of its own")
        prefix = "".join(part.capitalize() for part in name.replace("_", "-").split("-"))  # as api.http.game_schemas.camel
        if prefix in prefixes:
            raise RegistryError(f"{name} and {prefixes[prefix]} clash: the API would name both games' schemas "
                                f"{prefix}...; choose names that differ by more than - and _")
        if not isinstance(game, Game):
            raise RegistryError(f"{name} is a {type(game).__name__}, not a domain.kit.Game (README, \"Adding a game\")")
        _check_messages(game)
        _check_declarations(game)
        registry[name] = game
        prefixes[prefix] = name
    return registry


def _check_messages(game: Game) -> None:
    own = {cls.type_name() for cls in (*game.events, *game.commands)}
    clashes = sorted(own & ENGINE_EVENT_TYPES)
    if clashes:
        raise RegistryError(f"{game.name} names a message {', '.join(clashes)}, which is an engine event's name: "
                            "a stored event of that type would be read as the engine's")


def _check_declarations(game: Game) -> None:
    missing = [name for name in DECLARED if getattr(game, name, None) in (None, {})]
    if missing:
        raise RegistryError(f"{game.name} does not declare {', '.join(missing)}: every game gives its traits, "
                            "a view declaration, a standing detail declaration, a twin, its bots and its sentences "
                            "(README, \"Adding a game\")")
    _check_named(game, game.view_shape, "View", "view declaration", "the view: its top object is "
                 "Obj(\"View\", ...), the object view returns")
    _check_named(game, game.standing_detail, DETAIL, "standing detail declaration",
                 f"Obj(\"{DETAIL}\", ...), the fields score puts in a standing's detail")
    taken = sorted(set(game.standing_detail.fields) & set(ENGINE_KEYS))
    if taken:
        raise RegistryError(f"{game.name}'s standing detail declares {', '.join(taken)}, which the engine adds: "
                            "a game declares only its own keys")


def _check_named(game: Game, shape, name: str, what: str, wanted: str) -> None:
    """A declaration whose top object must be ``Obj(name, ...)``: the API names its schema ``<Game><name>``."""
    if not isinstance(shape, Obj) or shape.name != name:
        found = f"an Obj named {shape.name!r}" if isinstance(shape, Obj) else type(shape).__name__
        raise RegistryError(f"{game.name}'s {what} is {found}, not {wanted}")


_ALL: tuple[Game, ...] = (cronberg, coronation, court_of_miracles, the_coil, runebound)

REGISTRY: dict[str, Game] = registered(_ALL)

# Every playable version of every game: the newest is the object above, each
# older one an instance of the same class set to that version's behaviour.
VERSIONS: dict[str, dict[int, Game]] = {
    rules.name: {v: rules.at(v) for v in sorted(rules.versions)}
    for rules in _ALL
}


def get(name: str) -> Game | None:
    return REGISTRY.get(name)


def title_of(name: str | None) -> str:
    """What a person reads for a game's API name ("The Court of Miracles" for
    "court-of-miracles"): mails, pushes and reminders say it; the name itself
    stays in what machines read (payloads' ``game``)."""
    if not name:
        return "a game"
    game = REGISTRY.get(name)
    return game.title if game is not None else name


def versions_of(name: str) -> Mapping[int, Game] | None:
    """Every installed version of a game (a game registered in REGISTRY alone,
    as tests do, has its one version)."""
    versions = VERSIONS.get(name)
    if versions is None and name in REGISTRY:
        versions = {REGISTRY[name].version: REGISTRY[name]}
    return versions


def rules_at(name: str, version: int) -> Game:
    """The rules of ``name`` at ``version``; UnknownRulesVersion if not installed."""
    rules = (versions_of(name) or {}).get(version)
    if rules is None:
        raise UnknownRulesVersion(f"this installation has no {name} rules version {version}")
    return rules


def rules_for(created: GameCreated) -> Game | None:
    """The rules a game was created under; None for a game this installation
    does not host at all. Raises UnknownRulesVersion for a version it lacks and
    ChangedDataFile when a data file the game was created with has changed."""
    versions = versions_of(created.game)
    if versions is None:
        return None
    rules = versions.get(created.rules_version)
    if rules is None:
        newest = max(versions)
        raise UnknownRulesVersion(
            f"this game was created under {created.game} rules version {created.rules_version}, but this "
            f"installation has only version{'s' if len(versions) > 1 else ''} "
            f"{', '.join(map(str, sorted(versions)))} (newest {newest}): it is not replayed under other rules; "
            "upgrade boardlog to one that has that version"
        )
    _check_data_files(rules, created.data_files)
    return rules


def _check_data_files(rules: Game, recorded: Mapping[str, str]) -> None:
    if not recorded:
        return
    installed = rules.data_digests()
    for name, digest in sorted(recorded.items()):
        now = installed.get(name)
        if now != digest:
            found = f"sha256 {now[:12]}…" if now else "no such file"
            raise ChangedDataFile(
                f"this game was created under {rules.name} rules version {rules.version} with {name} "
                f"sha256 {digest[:12]}…, but this installation has {found}: a data file of a released rules "
                "version was changed in place; restore it and put the change in a new rules version "
                "(README, \"Changing a game's rules\")"
            )
