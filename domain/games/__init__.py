"""The explicit registry of hosted games, by their API name, and of every
rules version of each.

``REGISTRY`` (and ``get``) give the newest rules of each game: what a new game
is created under, and what the catalogue shows. ``rules_for`` gives the rules
a stored game was created under, for ever, or an error naming both versions.
"""

from __future__ import annotations

from typing import Mapping

from ..engine import ChangedDataFile, Rules, UnknownRulesVersion
from ..session import GameCreated
from .coronation import RULES as coronation
from .court_of_miracles import RULES as court_of_miracles
from .cronberg import RULES as cronberg
from .runebound import RULES as runebound
from .the_coil import RULES as the_coil

_ALL: tuple[Rules, ...] = (cronberg, coronation, court_of_miracles, the_coil, runebound)

REGISTRY: dict[str, Rules] = {rules.name: rules for rules in _ALL}

# Every playable version of every game: the newest is the object above, each
# older one an instance of the same class set to that version's behaviour.
VERSIONS: dict[str, dict[int, Rules]] = {
    rules.name: {v: rules.at(v) for v in sorted(rules.versions)}
    for rules in _ALL
}


def get(name: str) -> Rules | None:
    return REGISTRY.get(name)


def versions_of(name: str) -> Mapping[int, Rules] | None:
    """Every installed version of a game (a game registered in REGISTRY alone,
    as tests do, has its one version)."""
    versions = VERSIONS.get(name)
    if versions is None and name in REGISTRY:
        versions = {REGISTRY[name].version: REGISTRY[name]}
    return versions


def rules_at(name: str, version: int) -> Rules:
    """The rules of ``name`` at ``version``; UnknownRulesVersion if not installed."""
    rules = (versions_of(name) or {}).get(version)
    if rules is None:
        raise UnknownRulesVersion(f"this installation has no {name} rules version {version}")
    return rules


def rules_for(created: GameCreated) -> Rules | None:
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


def _check_data_files(rules: Rules, recorded: Mapping[str, str]) -> None:
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
