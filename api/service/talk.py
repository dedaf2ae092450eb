"""Table talk through its own write path: a message is an event of its
channel's stream (domain.lifecycle.talk says why it is not in the game's
stream), chained by the store, read only by the channel's readers.

The limits: a message of 1-2,000 characters that domain.readable allows (the
rule of player names, newline and tab allowed); at
most 10 per player per game in any minute (429 with Retry-After, counted in
the database under a lock, so racing requests of several processes cannot
pass it); a player may mute another in a game, for himself only: he no
longer gets that player's messages in reads, streams, notifications or
unread counts.
"""

from __future__ import annotations

import uuid
from typing import Any, Callable


from domain import session as sessions
from domain.lifecycle import talk as talk_rules
from domain.lifecycle.talk import TalkRefused
from eventstore.types import ANY, NewEvent

from . import decisions
from .errors import InvalidRequest, NotFound, TooMany, WrongStatus
from .games import player_channel
from .idempotency import endpoint_request

PAGE = 100
# The messages of a channel's stream told to %(player)s (its unread ones): among
# their readers, not his own, not from a player he muted in %(game)s; a message
# stored before mutes left its metadata says whom it told (``tell``).
TOLD = ("(case when metadata ? 'tell' then metadata->'tell' ? %(player)s::text"
        " else metadata->'readers' ? %(player)s::text and data->>'player' <> %(player)s::text"
        " and not exists (select 1 from talk_mutes m where m.player_id = %(player)s::uuid"
        " and m.game_id = %(game)s and m.muted_id::text = data->>'player') end)")


class MessageRefused(InvalidRequest):
    kind = "message-refused"


class TooManyMessages(TooMany):
    kind = "too-many-messages"


def _refused(error: TalkRefused) -> MessageRefused:
    return MessageRefused(error.message, kind=error.kind)


class Talk:
    """The messages of games: sent, read, marked read, muted. ``games`` is the
    GameService (to load a game's session); ``store`` its event store."""

    def __init__(self, games):
        self.games = games
        self.store = games.store
        self.pool = games.store.pool

    def _session(self, game_id: uuid.UUID):
        rules, session = self.games.load(game_id, trust_known=True)
        if session is None:
            raise NotFound(f"there is no game {game_id}")
        return rules, session

    def channels(self, game_id: uuid.UUID, player: str | None) -> list[dict]:
        """Every channel ``player`` reads in the game, with its seats, its
        length and (for a player) how many messages are unread."""
        rules, session = self._session(game_id)
        readable = talk_rules.channels_of(rules.name, session, player)
        unread = self._unread(game_id, player) if player else {}
        with self.pool.connection() as conn:
            lengths = dict(conn.execute(
                "select c.channel, (select max(version) from events e where e.stream_id = c.stream_id)"
                " from talk_channels c where c.game_id = %s", (game_id,)).fetchall())
        return [{"channel": channel, "seats": list(talk_rules.channel_seats(rules.name, session.seats, channel)),
                 "messages": lengths.get(channel) or 0, "unread": unread.get(channel, 0),
                 "writable": player is not None and self._may_write(rules.name, session, channel, player)}
                for channel in readable]

    @staticmethod
    def _may_write(game: str, session, channel: str, player: str) -> bool:
        try:
            talk_rules.send(game, session, player, channel, "x")
        except TalkRefused:
            return False
        return True

    def send(self, game_id: uuid.UUID, player: str, channel: str, text: Any, key: str | None = None,
             shape: Callable[[dict], dict] = dict) -> dict:
        """The message as ``shape`` makes it JSON-ready. With an
        Idempotency-Key, at most once: a repeat of the same text to the same
        channel answers the first message (api/service/idempotency.py)."""
        rules, session = self._session(game_id)
        if session.status == sessions.CANCELLED:
            raise WrongStatus("the game was cancelled: nobody talks at its table any more")
        try:
            message = talk_rules.send(rules.name, session, player, channel, text)
            readers = talk_rules.readers(rules.name, session, channel)
        except TalkRefused as error:
            raise _refused(error) from None
        stream = talk_rules.stream_of(game_id, channel)

        def carry_out(in_transaction):
            with self.pool.connection() as conn, conn.transaction():
                tell, version = self._append(conn, game_id, player, channel, message, readers, session.version)
                stored = self.store.read_stream(stream, version, version, conn=conn)[0]
                in_transaction(conn, self._message_json(channel, stored.version, stored.data, stored.recorded_at))
            for reader in tell:
                self.store.announce(player_channel(reader), stored.version)  # his streams follow the channel from now

        return self.games.idempotency.once(
            player, game_id, key, endpoint_request(f"channels/{channel}/messages", {"text": text}),
            carry_out, lambda conn, sent: shape(sent), status=201)

    def _append(self, conn, game_id, player: str, channel: str, message, readers, game_version: int) -> tuple:
        """The message appended to its channel's stream in ``conn``'s
        transaction, if the player has not sent too many: who is told of it,
        and its version."""
        stream = talk_rules.stream_of(game_id, channel)
        most, window = talk_rules.RATE
        # One sender at a time per game, so that the count below holds across processes.
        conn.execute("select pg_advisory_xact_lock(hashtext(%s))", (f"talk:{game_id}:{player}",))
        recent = conn.execute(
            "select count(*), extract(epoch from min(e.recorded_at) + make_interval(secs => %s) - now())"
            " from events e join talk_channels c on c.stream_id = e.stream_id"
            " where c.game_id = %s and e.data->>'player' = %s"
            " and e.recorded_at > now() - make_interval(secs => %s)",
            (window, game_id, player, window)).fetchone()
        if recent[0] >= most:
            wait = max(1, int(recent[1] or window) + 1)
            raise TooManyMessages(f"at most {most} messages per player per game in a minute: wait {wait} s",
                                  retry_after=wait)
        conn.execute("insert into talk_channels (stream_id, game_id, channel) values (%s, %s, %s)"
                     " on conflict do nothing", (stream, game_id, channel))
        muting = {str(row[0]) for row in conn.execute(
            "select player_id from talk_mutes where game_id = %s and muted_id = %s", (game_id, player))}
        tell = [reader for reader in readers if reader != player and reader not in muting]
        # Whom to tell is not recorded with the message: who muted whom is each muter's own business,
        # and the channel's export shows its metadata to every reader (domain/notices.py, muted_by).
        meta = {"readers": readers, "game_version": game_version}
        version = self.store.append(stream, [NewEvent("MessageSent", decisions.event_data(message), meta)],
                                    expected_version=ANY, conn=conn)
        conn.execute("insert into talk_reads (player_id, stream_id, read_version, unread)"
                     " select unnest(%s::uuid[]), %s, 0, 1 on conflict (player_id, stream_id)"
                     " do update set unread = talk_reads.unread + 1", (tell, stream))
        return tell, version

    def read(self, game_id: uuid.UUID, player: str | None, channel: str, after: int = 0,
             limit: int = PAGE) -> dict:
        """The channel's messages after version ``after`` that ``player`` may read (a page)."""
        rules, session = self._session(game_id)
        try:
            talk_rules.channel_seats(rules.name, session.seats, channel)
        except TalkRefused as error:
            raise _refused(error) from None
        reads_all = talk_rules.may_read(rules.name, session, channel, player)
        if not reads_all and not (player and channel != talk_rules.TABLE):
            raise MessageRefused(f"you do not read channel {channel}", kind="not-in-channel")
        muted = self.muted(game_id, player) if player else set()
        stream = talk_rules.stream_of(game_id, channel)
        shown, cursor, end = [], after, self.store.stream_version(stream)
        while len(shown) <= limit and cursor < end:  # pages of the stream until one more than a page is shown
            records = self.store.read_stream(stream, cursor + 1, min(end, cursor + limit + 1))
            shown += [record for record in records
                      if (reads_all or player in (record.metadata.get("readers") or ()))
                      and record.data.get("player") not in muted]
            cursor = records[-1].version if records else end
        if not reads_all and not shown and after == 0:
            raise MessageRefused(f"you do not read channel {channel}", kind="not-in-channel")
        page = shown[:limit]
        return {"game_id": game_id, "channel": channel,
                "messages": [self._message_json(channel, r.version, r.data, r.recorded_at) for r in page],
                "next_after": page[-1].version if len(shown) > limit else None}

    def export(self, game_id: uuid.UUID, player: str | None, channel: str) -> tuple[list, dict | None]:
        """The channel's whole stream with its links, and its signed head (as
        a game's export has them), for those who read all of the channel:
        they can check its chain and that the server signed that head."""
        rules, session = self._session(game_id)
        try:
            talk_rules.channel_seats(rules.name, session.seats, channel)
        except TalkRefused as error:
            raise _refused(error) from None
        if not talk_rules.may_read(rules.name, session, channel, player):
            raise MessageRefused(f"only those who read all of channel {channel} may export it", kind="not-in-channel")
        records = self.store.read_stream(talk_rules.stream_of(game_id, channel))
        if not records:
            return [], None
        last = records[-1]
        receipt = self.games.signer.receipt(last.stream_id, last.version, last.hash)
        return records, {**receipt, "public_key": self.games.signer.public_key(receipt["key_id"])}

    @staticmethod
    def _message_json(channel: str, version: int, data: dict, at) -> dict:
        return {"channel": channel, "version": version, "seat": data.get("seat"), "player": data["player"],
                "text": data["text"], "sent_at": at}

    def mark_read(self, game_id: uuid.UUID, player: str, channel: str, version: int | None) -> dict:
        rules, session = self._session(game_id)
        if channel not in talk_rules.channels_of(rules.name, session, player):
            raise MessageRefused(f"you do not read channel {channel}", kind="not-in-channel")
        stream = talk_rules.stream_of(game_id, channel)
        with self.pool.connection() as conn, conn.transaction():
            last = conn.execute("select coalesce(max(version), 0) from events where stream_id = %s",
                                (stream,)).fetchone()[0]
            upto = last if version is None else min(version, last)
            if last:
                conn.execute("select pg_advisory_xact_lock(hashtext(%s))", (f"talk-read:{stream}:{player}",))
                mark = conn.execute("select read_version from talk_reads where player_id = %s and stream_id = %s",
                                    (player, stream)).fetchone()
                upto = max(upto, mark[0] if mark else 0)
                left = conn.execute(
                    "select count(*) from events where stream_id = %(stream)s and version > %(upto)s and " + TOLD,
                    {"stream": stream, "upto": upto, "player": player, "game": game_id}).fetchone()[0]
                conn.execute(
                    "insert into talk_reads (player_id, stream_id, read_version, unread) values (%s, %s, %s, %s)"
                    " on conflict (player_id, stream_id) do update set read_version = excluded.read_version,"
                    " unread = excluded.unread", (player, stream, upto, left))
        return {"channel": channel, "read_version": upto, "unread": self._unread(game_id, player).get(channel, 0)}

    def _unread(self, game_id: uuid.UUID, player: str) -> dict[str, int]:
        with self.pool.connection() as conn:
            return dict(conn.execute(
                "select c.channel, r.unread from talk_reads r join talk_channels c on c.stream_id = r.stream_id"
                " where r.player_id = %s and c.game_id = %s", (player, game_id)).fetchall())

    def muted(self, game_id: uuid.UUID, player: str) -> set[str]:
        with self.pool.connection() as conn:
            return {str(row[0]) for row in conn.execute(
                "select muted_id from talk_mutes where player_id = %s and game_id = %s", (player, game_id))}

    def mute(self, game_id: uuid.UUID, player: str, other: str, muted: bool) -> dict:
        _, session = self._session(game_id)
        if other == player:
            raise MessageRefused("you cannot mute yourself", kind="message-refused")
        if not talk_rules.at_table(session, other):
            raise MessageRefused(f"{other} does not talk at this game's table", kind="message-refused")
        with self.pool.connection() as conn:
            if muted:
                conn.execute("insert into talk_mutes values (%s, %s, %s) on conflict do nothing",
                             (player, game_id, other))
            else:
                conn.execute("delete from talk_mutes where player_id = %s and game_id = %s and muted_id = %s",
                             (player, game_id, other))
        return {"game_id": game_id, "muted": sorted(self.muted(game_id, player))}


def unread_by_game(conn, player: str) -> dict[str, int]:
    """Unread messages of each of the player's games (for the inbox)."""
    rows = conn.execute("select c.game_id, sum(r.unread) from talk_reads r"
                        " join talk_channels c on c.stream_id = r.stream_id"
                        " where r.player_id = %s and r.unread > 0 group by c.game_id", (player,)).fetchall()
    return {str(game): int(count) for game, count in rows}


def mutes_of(conn, players) -> dict[tuple[str, str], set[str]]:
    """(player, game id) -> whom that player muted in that game, for ``players``
    (what domain.notices.muted_by reads)."""
    muted: dict[tuple[str, str], set[str]] = {}
    for player, game, other in conn.execute(
            "select player_id, game_id, muted_id from talk_mutes where player_id = any(%s::uuid[])",
            (list(players),)):
        muted.setdefault((str(player), str(game)), set()).add(str(other))
    return muted
