"""Players by their names in everything a person reads of a game.

The games' sentences (events and legal commands) name seats by their ids
("p1 laid building 3 on T09 and T10"), and the engine's name players by their
ids; a person reads "Ada laid building 3 on T09 and T10". ``Naming`` makes
that substitution, whole words only, for the feed's ``text``, a command
answer's ``texts``, the legal commands' ``texts`` and the streams' events;
the view's envelope carries its ``seats`` as ``names``.

A seat is named by the player who holds it now (a player who resigned or was
abandoned still, the bot that plays on for him being in ``bots``), else
"Bot" for a seat a bot was given; a seat nobody holds keeps its id. A seat
id right after the word "seat" ("took seat p1") is the seat itself, a place
at the table, and stays. A player's id is replaced by his name wherever it
stands. Names never change (nothing renames a player), so a process keeps
those it has read.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Mapping

BOT = "Bot"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass(frozen=True)
class Naming:
    """``seats``: seat -> the name a person reads for it; ``players``: player id -> name."""

    seats: Mapping[str, str]
    players: Mapping[str, str]

    def say(self, text: str) -> str:
        """``text`` with each seat id and player id, as a whole word, replaced by its name."""
        if not self.seats and not self.players:
            return text
        return self._pattern.sub(self._name, text)

    @cached_property  # made once per naming, which says every text of a page or an answer
    def _pattern(self) -> re.Pattern:
        words = sorted((*self.seats, *self.players), key=len, reverse=True)  # "p10" before "p1"
        # A seat id is a whole word: no letter, digit, _ or - touches it ("detective-1", not "detective-12").
        return re.compile(r"(?<![\w-])(seat )?(" + "|".join(map(re.escape, words)) + r")(?![\w-])")

    def _name(self, found: re.Match) -> str:
        before, word = found.group(1) or "", found.group(2)
        if before and word in self.seats:
            return found.group(0)  # "seat p1": the place at the table, not who sits there
        return before + (self.players.get(word) or self.seats.get(word) or word)


def seats_named(holders: Mapping[str, str], bots: Iterable[str]) -> Naming:
    """The naming of a game's seats from its seats' holders' names and its
    bots' seats, as a listing reads them (the seats' rows, not a session)."""
    seats = {seat: BOT for seat in bots}
    seats.update(holders)
    return Naming(seats=seats, players={})


class PlayerNames:
    """Player names read from the players table, once per process each."""

    def __init__(self, pool, capacity: int = 20_000):
        self.pool = pool
        self.capacity = capacity
        self._known: OrderedDict[str, str | None] = OrderedDict()  # None: no such player (a game's id)
        self._lock = threading.Lock()
        # One lookup at a time: a herd of streams opening on one game asks for
        # its players' names once, not once each (tests/api/test_stream_open_costs.py).
        self._looking = threading.Lock()

    def of(self, ids: Iterable[str]) -> dict[str, str]:
        """The name of each of ``ids`` that is a player's."""
        wanted = {str(player) for player in ids}
        with self._lock:
            missing = [player for player in wanted if player not in self._known]
        if missing:
            with self._looking:
                with self._lock:
                    missing = [player for player in missing if player not in self._known]  # another looked meanwhile
                if missing:
                    self._look_up(missing)
        with self._lock:
            known = {player: self._known.get(player) for player in wanted}
        return {player: name for player, name in known.items() if name is not None}

    def _look_up(self, missing: list[str]) -> None:
        with self.pool.connection() as conn:
            rows = conn.execute("select id::text, name from players where id = any(%s::uuid[])", (missing,)).fetchall()
        found = dict(rows)
        with self._lock:
            for player in missing:
                self._known[player] = found.get(player)
            while len(self._known) > self.capacity:
                self._known.popitem(last=False)

    def naming(self, session, texts: Iterable[str] = ()) -> Naming:
        """The names of ``session``'s seats, and of every player whose id one of ``texts`` holds."""
        holders = {seat: str(player) for seat, player in session.players.items()}
        mentioned = {found for text in texts for found in UUID.findall(text)}
        players = self.of({*holders.values(), *mentioned})
        seats = {seat: BOT for seat in session.life.bots}
        seats.update({seat: players[player] for seat, player in holders.items() if player in players})
        return Naming(seats={seat: seats[seat] for seat in session.seats if seat in seats},
                      players={player: name for player, name in players.items() if player in mentioned})

    def outcomes(self, conn, rows: list[dict]) -> list[dict]:
        """``rows`` (an inbox's) with each ``outcome`` said with the players'
        names, as the game's envelope says it: the seats of every game listed
        read in one query, the names once per process."""
        ended = [row["id"] for row in rows if row.get("outcome")]
        if not ended:
            return rows
        holders: dict[str, dict[str, str]] = {}
        for game_id, seat, player in conn.execute(
                "select game_id::text, seat, player_id::text from game_seats where game_id = any(%s)", (ended,)):
            holders.setdefault(game_id, {})[seat] = player
        names = self.of({player for seats in holders.values() for player in seats.values()})

        def said(row):
            holding = {seat: names[player] for seat, player in holders.get(str(row["id"]), {}).items()
                       if player in names}
            return {**row, "outcome": seats_named(holding, row.get("bots") or {}).say(row["outcome"])}

        return [said(row) if row.get("outcome") else row for row in rows]

    def say(self, session, texts: list[str]) -> list[str]:
        """Each of ``texts`` with the session's seats and the players it mentions named."""
        naming = self.naming(session, texts)
        return [naming.say(text) for text in texts]
