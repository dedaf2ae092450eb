-- Read models of the command service, written in the same transaction as the
-- events they derive from. They can always be rebuilt from the events; the
-- secrets and tokens cannot, and are the only state outside the event log.

create table players (
    id uuid primary key,
    name text not null,
    token_sha256 bytea not null unique,
    created_at timestamptz not null default now()
);

create table games (
    id uuid primary key,
    game text not null,
    status text not null,
    host uuid not null references players(id),
    options jsonb not null,
    version integer not null,
    to_act text[] not null default '{}',
    deadline timestamptz,
    outcome text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);
create index games_by_status on games (status, updated_at desc);
create index games_pending_deadline on games (deadline) where deadline is not null;
create index games_awaiting_score on games (updated_at) where status = 'scoring';

create table game_seats (
    game_id uuid not null references games(id),
    seat text not null,
    player_id uuid not null references players(id),
    primary key (game_id, seat)
);
create unique index one_seat_per_player on game_seats (game_id, player_id);
create index seats_by_player on game_seats (player_id);

-- The per-game secret seed; published in GameEnded when the game ends.
create table game_secrets (
    game_id uuid primary key references games(id),
    seed bytea not null
);

create table idempotency_keys (
    player_id uuid not null references players(id),
    key text not null,
    request_sha256 text not null,
    status integer not null,
    response jsonb not null,
    created_at timestamptz not null default now(),
    primary key (player_id, key)
);
