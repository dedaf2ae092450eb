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

from ..engine import Standing, rank_by

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


def as_it_stands(own: Sequence[Standing] | None, seats: Sequence[str], resigned: Sequence[str],
                 abandoned: Iterable[str] = ()) -> list[Standing]:
    """A game ended by agreement as it stands: the seats ranked by ``own``
    (the game's score now) alone, equal scores sharing a place; all sharing
    first place where the game keeps no score while it runs (``own`` None,
    or a score that is not a number). Resigned seats rank last and abandoned
    ones are marked, as in every ending."""
    by_seat = {s.seat: s for s in own or ()}
    standing = [seat for seat in seats if seat not in resigned]
    scores = {seat: by_seat[seat].score if seat in by_seat else None for seat in standing}
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in scores.values())
    ranks = rank_by(scores) if numbers else {seat: 1 for seat in standing}
    ranking = sorted((Standing(seat, ranks[seat], scores[seat] if numbers else None,
                               by_seat[seat].detail if seat in by_seat else {}) for seat in standing),
                     key=lambda s: (s.rank, list(seats).index(s.seat)))
    return ranked(ranking, seats, resigned, abandoned)


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
