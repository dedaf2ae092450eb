"""One result everywhere: the final standings of a game some of whose seats
resigned, and the outcome sentence that agrees with them.

A resigned seat leaves the standings ranked last (the last to resign ranks
highest among them), whatever its bot went on to score; the seats still
standing keep the game's own order. A game that records
``outcome_follows_standings`` in its GameCreated options (every game created
since) words its GameOver from that same ranking whenever the game's own
sentence would name a resigned seat among its winners; games created before
keep the sentence their rules wrote, so that re-running their decisions gives
the events they recorded.

Standard library only, and nothing of the session: the session's ``play``
and the lifecycle's ``resign`` and ``scored`` all call it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Sequence

from ..engine import Standing

OUTCOME_FOLLOWS_STANDINGS = "outcome_follows_standings"


def ranked(ranking: Sequence[Standing] | None, seats: Iterable[str], resigned: Sequence[str],
           abandoned: Iterable[str] = ()) -> list[Standing]:
    """``ranking``: the game's own standings, or None when the rules never
    ended the game (it ended by resignation): then the seats still standing
    rank first, equal. Abandoned seats keep their place, marked."""
    if ranking is None:
        standing = [Standing(seat, 1, None) for seat in seats if seat not in resigned]
    else:
        standing = [s for s in ranking if s.seat not in resigned]
    ranks = sorted({s.rank for s in standing})
    places = {rank: 1 + sum(1 for s in standing if s.rank < rank) for rank in ranks}
    gone = set(abandoned)
    result = [replace(s, rank=places[s.rank], detail={**s.detail, **({"abandoned": True} if s.seat in gone else {})})
              for s in standing]
    place = len(result)
    for seat in reversed(resigned):
        place += 1
        result.append(Standing(seat, place, None, {"resigned": True}))
    return result


def agreeing_outcome(told: str, ranking: Sequence[Standing], resigned: Sequence[str]) -> str:
    """The game's own sentence ``told``, unless a resigned seat is among the
    winners of its ``ranking``: then who wins by the standings, and why."""
    if not any(s.seat in resigned and s.rank == 1 for s in ranking):
        return told
    first = [s.seat for s in ranked(ranking, (), resigned) if s.rank == 1]
    them = f"{_listed(list(resigned))} resigned and {'ranks' if len(resigned) == 1 else 'rank'} last"
    if len(first) == 1:
        return f"{first[0]} wins, the best placed of the seats that did not resign ({them})"
    return f"{_listed(first)} share first place, the best placed of the seats that did not resign ({them})"


def _listed(seats: Sequence[str]) -> str:
    return seats[0] if len(seats) == 1 else f"{', '.join(seats[:-1])} and {seats[-1]}"
