"""Table talk on a game's stream: the messages said in the channels its
viewer reads, sent as ``talk`` messages.

Opening a stream costs no query for its channels in the common case: the
version each channel starts from is what the process's LISTEN connection
knows (``store.known_version``: heard, or read once and kept up to date by
its notifications and sweeps, eventstore/versions.py), and only a channel
the process knows nothing of is read, once for all the newcomers of that
game (``SharedWork``'s one-at-a-time work). The viewer's mutes are read
when the first message arrives, not at the open: most streams never carry
one. A message said a moment before the open, whose notification the
process had not yet heard, may be sent too (clients deduplicate by the
message's channel and version, as after a reconnection).
"""

from __future__ import annotations

from domain.lifecycle import talk as talk_rules

from ..service.shared import dumps
from .sse import message


def channel_versions(shared, game_id, names: list[str]) -> dict[str, int]:
    """Each channel stream's version now, as the process knows it; the
    unknown ones read once for every newcomer that asks meanwhile."""
    store = shared.service.store
    versions = {name: store.known_version(name) for name in names}
    missing = sorted(name for name, version in versions.items() if version is None)
    if missing:
        # recent_version reads each and keeps it known (confirmed) for the next newcomers.
        read = shared.once(("channels", game_id, tuple(missing)),
                           lambda: {name: store.recent_version(name) for name in missing})
        versions.update(read)
    return versions


def follow_talk(shared, watch, game_id, rules, session, player: str | None) -> "Talk | None":
    """The channels the viewer reads, followed from their version now (the
    watch first, so that nothing said after the versions were taken is missed)."""
    readable = talk_rules.channels_of(rules.name, session, player)
    if not readable:
        return None
    streams = {talk_rules.stream_of(game_id, channel): channel for channel in readable}
    for name in streams:
        watch.follow(name)
    versions = channel_versions(shared, game_id, list(streams))
    return Talk(shared.service, game_id, player, streams, {name: versions.get(name) or 0 for name in streams},
                lambda channel, readers: talk_rules.reads_message(rules.name, session, channel, player, readers))


class Talk:
    """The messages a game stream's viewer reads (without an ``id:``: a
    stream resumes by the game's version; a client fetches what it missed
    with listMessages)."""

    def __init__(self, service, game_id, player: str | None, streams: dict[str, str], sent: dict[str, int],
                 reads):
        """``reads(channel, readers)``: whether the viewer reads a message sent to ``readers``."""
        self.service = service
        self.reads = reads
        self.game_id = game_id
        self.player = player
        self.streams = streams
        self.sent = sent
        self.muted: set[str] | None = None  # read when the first message comes

    def said(self, heard: dict[str, int]) -> str:
        parts = []
        for name in sorted(set(heard) & set(self.streams)):
            for record in self.service.store.read_stream(name, self.sent[name] + 1):
                self.sent[name] = record.version
                # Per message, not once at the open: who left a seat since hears nothing more of its channels.
                if not self.reads(self.streams[name], record.metadata.get("readers")):
                    continue
                if record.data.get("player") in self._muted():
                    continue
                data = {"channel": self.streams[name], "version": record.version, "seat": record.data.get("seat"),
                        "player": record.data.get("player"), "text": record.data.get("text"),
                        "sent_at": record.recorded_at.isoformat()}
                parts.append(message("talk", dumps(data)))
        return "".join(parts)

    def _muted(self) -> set[str]:
        if self.muted is None:
            self.muted = set() if self.player is None else self._read_mutes()
        return self.muted

    def _read_mutes(self) -> set[str]:
        with self.service.pool.connection() as conn:
            return {str(row[0]) for row in conn.execute(
                "select muted_id from talk_mutes where player_id = %s and game_id = %s", (self.player, self.game_id))}
