"""A game built by convention from its package's modules, so that the
wiring of ``Game``'s two dozen parts is written once, here, and a game's
``__init__.py`` says only what the game is called and what kind it is:

    RULES = assemble(__name__, name="cronberg", title="Cronberg", min_seats=2, max_seats=4,
                     traits=Traits(...))

Each part is found by its conventional name (``legal_commands``, ``VIEW``,
``COMMAND_SENTENCES``...) in whichever module of the package defines it; a
part defined twice, differently, or a required part defined nowhere, is an
error that names the part and the module it belongs in. The package's
``*.json`` files are its data files.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import Any

from .game import Game

# Game's field -> (its name in the package, the module a new game puts it in).
REQUIRED = {
    "options": ("OPTIONS", "rules.py"),
    "commands": ("COMMANDS", "messages.py"),
    "events": ("EVENTS", "messages.py"),
    "seats": ("seats", "rules.py"),
    "setup": ("setup", "rules.py"),
    "evolve": ("evolve", "state.py"),
    "decide": ("decide", "decide.py"),
    "to_act": ("to_act", "views.py"),
    "legal_commands": ("legal_commands", "rules.py"),
    "on_timeout": ("on_timeout", "rules.py"),
    "view": ("view", "views.py"),
    "visible": ("visible", "views.py"),
    "outcome": ("outcome", "views.py"),
    "score": ("score", "rules.py"),
    "view_shape": ("VIEW", "shapes.py"),
    "standing_detail": ("STANDING_DETAIL", "shapes.py"),
    "twin": ("twin", "rules.py"),
    "bots": ("BOTS", "bot.py"),
    "sentences": ("SENTENCES", "words.py"),
    "field_descriptions": ("FIELD_DESCRIPTIONS", "fields.py"),
}
# Parts a game may leave out: Game's defaults apply.
OPTIONAL = {
    "resign": ("resign", "rules.py"),
    "versions": ("VERSIONS", "rules.py"),
    "switches": ("switches", "rules.py"),
    "state_version": ("STATE_VERSION", "rules.py"),
    "upcasters": ("UPCASTERS", "rules.py"),
    "command_sentences": ("COMMAND_SENTENCES", "words.py"),
    "field_names": ("FIELD_NAMES", "fields.py"),
    "hand": ("HAND", "shapes.py"),
    "board": ("BOARD_DRAWING", "shapes.py"),
    "redacted": ("REDACTED", "redactions.py"),
    "data_files": ("DATA_FILES", "datafiles.py"),
    "golden": ("GOLDEN", "golden.py"),
}


class AssemblyError(ValueError):
    """A game package that lacks a part, or defines one twice; the message says where it goes."""


def assemble(package: str, **catalogue: Any) -> Game:
    """The Game of ``package`` (a game's ``__name__``): ``catalogue`` gives
    name, title, min_seats, max_seats and traits (and may set any other
    field outright); every other part is found in the package's modules."""
    modules = _modules(package)
    folder = Path(importlib.import_module(package).__file__).parent
    where = f"domain/games/{folder.name}" if folder.parent.name == "games" else str(folder)
    parts: dict[str, Any] = {}
    for field, (name, home) in {**REQUIRED, **OPTIONAL}.items():
        if field in catalogue:
            continue
        found = _defined(modules, package, name, f"{where}/{home}")
        if found is not None:
            parts[field] = found
        elif field in REQUIRED:
            raise AssemblyError(f"{catalogue.get('name', package)} declares no {name}: put it in {where}/{home} "
                                f"(README, \"Adding a game\")")
    data = folder if any(folder.glob("*.json")) else None
    return Game(**{"data": data, **parts, **catalogue})


def _modules(package: str) -> list[ModuleType]:
    root = importlib.import_module(package)
    return [importlib.import_module(f"{package}.{info.name}")
            for info in pkgutil.iter_modules(root.__path__) if not info.ispkg]


def _defined(modules: list[ModuleType], package: str, name: str, home: str) -> Any:
    """The one object the package's modules call ``name`` (a function only
    where the package defines it, not one it imports from elsewhere)."""
    found: dict[int, tuple[Any, str]] = {}
    for module in modules:
        value = getattr(module, name, None)
        if value is None:
            continue
        if callable(value) and not getattr(value, "__module__", "").startswith(package + "."):
            continue  # a function imported from outside the package: not the game's
        found.setdefault(id(value), (value, module.__name__.rsplit(".", 1)[1] + ".py"))
    if len(found) > 1:
        raise AssemblyError(f"{package} defines {name} differently in {', '.join(sorted(m for _, m in found.values()))}"
                            f": keep one (by convention in {home}) and import it in the others")
    return next(iter(found.values()))[0] if found else None
