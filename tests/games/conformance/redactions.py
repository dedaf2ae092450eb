"""The check that a game's declared redactions (``Game.redacted``, in its
package's redactions.py) are what its ``visible`` does, so that the API's
document types every event as a viewer really gets it: a field some viewer
gets as null, with nulls in it, or not at all is declared hidden, every key ``visible`` adds is
declared added, and nothing is declared hidden that no viewer ever lacks."""

from __future__ import annotations

import dataclasses

from .playouts import playouts


def check_redactions_are_what_visible_does(game) -> None:
    declared = game.redacted
    hidden_seen: dict[str, set[str]] = {}
    met: set[str] = set()
    where = f"domain/games/{game.name.replace('-', '_')}/redactions.py"
    for played in playouts(game):
        for n, event in enumerate(played.events):
            kind = type(event).type_name()
            met.add(kind)
            whole = event.to_json()
            redaction = declared.get(kind)
            for viewer in (*played.seats, None):  # each seat, and a spectator
                shown = game.visible(event, viewer)
                for name in (f.name for f in dataclasses.fields(event)):
                    if whole.get(name) is not None and shown.get(name) != whole[name]:  # gone, nulled or nulls in it
                        hidden_seen.setdefault(kind, set()).add(name)
                        assert redaction is not None and redaction.hides(name), (
                            f"{played}: visible hides {kind}.{name} from {viewer or 'a spectator'} (event {n}), "
                            f"but {game.name} does not declare it: add {kind!r}: Redacted(hidden=(..., {name!r})) "
                            f"to REDACTED in {where}")
                extra = sorted(set(shown) - set(whole) - {"type"})
                undeclared = [key for key in extra if redaction is None or key not in redaction.added]
                assert not undeclared, (
                    f"{played}: visible adds {', '.join(undeclared)} to {kind} for {viewer or 'a spectator'} "
                    f"(event {n}), which {game.name} does not declare: add them to that type's Redacted(added=...) "
                    f"in {where}")
    for kind, redaction in declared.items():
        if kind not in met or redaction.hidden == "*":
            continue
        never = sorted(set(redaction.hidden) - hidden_seen.get(kind, set()))
        assert not never, (f"{game.name} declares {kind}'s {', '.join(never)} hidden, but visible never hid them "
                           f"from any viewer in its playouts: remove them from {where}")
