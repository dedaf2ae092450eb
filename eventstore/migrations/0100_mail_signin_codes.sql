-- The sign-in codes of the links "your turn" and digest mails carry: opening
-- one signs its player in on that device (POST /v1/sign-in exchanges it for
-- a bearer token of the player's own). A code is random, mailed once and
-- stored only as its sha256; it works once (used_at) and until expires_at.
-- It is bound to its player and to the game whose link carries it.
create table mail_signin_codes (
    code_sha256 bytea primary key,
    player_id   uuid not null references players(id),
    game_id     uuid not null,
    created_at  timestamptz not null default now(),
    expires_at  timestamptz not null,
    used_at     timestamptz
);

-- The sweep of lapsed codes (unused ones a throttled mail never carried, used ones) reads by expiry.
create index mail_signin_codes_expiry on mail_signin_codes (expires_at);
