-- A player may hold several bearer tokens (one per device or frontend), each
-- revocable on its own; this table is the only place a token is looked up.
-- Registration's token moves here, and players.token_sha256 is emptied so
-- that a revoked token lives nowhere else.
create table player_tokens (
    id uuid primary key,
    player_id uuid not null references players(id),
    token_sha256 bytea not null unique,
    label text not null default '',
    created_at timestamptz not null default now(),
    revoked_at timestamptz
);

create index player_tokens_live on player_tokens (player_id) where revoked_at is null;

insert into player_tokens (id, player_id, token_sha256, label, created_at)
select gen_random_uuid(), id, token_sha256, 'registration', created_at from players;

alter table players alter column token_sha256 drop not null;
update players set token_sha256 = null;
