"""Standing declarations: the shape of ``Standing.detail``, declared by each
game (``Game.standing_detail``), merged here with the keys the engine adds,
so that a game declares only its own.

A game's declaration is ``Obj("StandingDetail", ...)``: what its ``score``
puts in each seat's detail, every field described (an empty ``fields`` for
a game that puts nothing there). The engine's part (domain.lifecycle.standings):

- a seat abandoned to a bot keeps the detail its game gave it, and
  ``abandoned: true`` beside it;
- a resigned seat's detail is ``{"resigned": true}`` alone, whatever the game
  would have said (it ranks last, unscored);
- a game that ended by resignation before its rules scored anyone ranks the
  seats still standing first, equal, with an empty detail (or only
  ``abandoned: true``).

``standing_shape(game)`` is the whole standing, ``Obj("Standing", ...)``,
from which the API derives the schema ``<Game>Standing`` and against which the
conformance suite checks every standing the game gives.
"""

from __future__ import annotations

from .shape import Bool, Int, Num, Obj, OneOf, Optional, Shape, Str, described, optional

DETAIL = "StandingDetail"
UNSCORED = "UnscoredStandingDetail"

ABANDONED = optional(Bool("always true when present: the seat was abandoned to a bot (it missed too many turns "
                          "in a row); it keeps its place"))
RESIGNED = optional(Bool("always true when present: the seat resigned, and ranks last, unscored"))
ENGINE_KEYS = ("resigned", "abandoned")
# What a standing's ``detail`` is, whichever of its forms the game declares.
DETAIL_TEXT = ("what the game says of the seat's result (its own fields, declared by the game), with the engine's "
               "abandoned: true for a seat abandoned to a bot; {\"resigned\": true} alone for a seat that resigned")


def detail_shape(declared: Obj) -> Shape:
    """The detail of any standing of a game that declares ``declared``: its
    own fields (with the engine's ``abandoned``) when the game scored the
    seat, else the engine's alone. A declaration without a required field
    cannot be told from the engine's part, so it is merged into one object."""
    scored_fields = {**declared.fields, "abandoned": ABANDONED}
    unscored = Obj(UNSCORED, "the detail of a seat the game did not score: {\"resigned\": true} for a seat that "
                             "resigned; {} (or {\"abandoned\": true}) when the game ended by resignation before its "
                             "rules scored anyone", {"resigned": RESIGNED, "abandoned": ABANDONED})
    if all(isinstance(shape, Optional) for shape in declared.fields.values()):
        return described(Obj(DETAIL, f"{declared.description}; the engine adds resigned (alone, for a seat that "
                                     "resigned) or abandoned", {**scored_fields, "resigned": RESIGNED}), DETAIL_TEXT)
    return OneOf(Obj(DETAIL, f"{declared.description}; the engine adds abandoned", scored_fields), unscored,
                 description="the game's own detail for a seat it scored (with the engine's abandoned), else "
                             "the engine's alone (resigned, or nothing)")


def standing_shape(standing_detail: Obj, title: str = "the game") -> Obj:
    """One seat's place in the final standings, its detail typed by ``standing_detail``."""
    return Obj("Standing", f"one seat's place in the final standings of {title}", {
        "seat": Str("the seat"),
        "rank": Int("1 for the winner; equal ranks share a place", minimum=1),
        "score": Num("the seat's score by the game's rules; null when the game gives none, or did not score the seat",
                     nullable=True),
        "detail": detail_shape(standing_detail),
    })
