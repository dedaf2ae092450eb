-- Table talk (api/service/talk.py): each channel of a game is a stream of
-- its own, ``talk-<game id>/<channel>``, in ``events``; these tables only
-- find those streams and keep each player's read marks and mutes.
create table talk_channels (
    stream_id text primary key,
    game_id uuid not null,
    channel text not null
);
create index talk_channels_by_game on talk_channels (game_id);

-- The last version of a channel's stream a player has read, and how many
-- messages told to him came after it (kept by each send, so that the inbox
-- counts without reading messages).
create table talk_reads (
    player_id uuid not null references players (id),
    stream_id text not null references talk_channels (stream_id),
    read_version bigint not null,
    unread integer not null default 0,
    primary key (player_id, stream_id)
);

-- Messages of ``muted_id`` that ``player_id`` does not want in a game: for himself only.
create table talk_mutes (
    player_id uuid not null references players (id),
    game_id uuid not null,
    muted_id uuid not null,
    primary key (player_id, game_id, muted_id)
);
