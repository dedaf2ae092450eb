-- Notifications: a subscription to the global feed with its checkpoint, the
-- notifications it derived (one per event and recipient, with a stable id), the
-- outbox of deliveries to each channel with their attempts, and what players
-- configured: webhook endpoints, an e-mail address, preferences.

-- A catch-up subscription's checkpoint: the global_position of the last event
-- it finished (see eventstore read_all). Moved in the same transaction as what
-- the subscription wrote for those events, so a crash redoes a batch whole.
create table subscriptions (
    name        text primary key,
    position    bigint not null default 0,
    updated_at  timestamptz not null default now()
);

create table notifications (
    id          text primary key,          -- n<global position>-<recipient>-<kind>: stable across re-runs
    position    bigint not null,
    player_id   uuid not null,
    game_id     uuid not null,
    kind        text not null,
    version     integer not null,
    payload     jsonb not null,
    event_at    timestamptz not null,      -- when the event that caused it was recorded
    created_at  timestamptz not null default now()
);

create table webhooks (
    id                   uuid primary key,
    player_id            uuid not null references players(id),
    url                  text not null,
    kinds                text[] not null,
    secret               text not null,    -- whsec_<base64>; HMAC key, shown once
    created_at           timestamptz not null default now(),
    failing_since        timestamptz,
    consecutive_failures integer not null default 0,
    disabled_at          timestamptz,
    disabled_reason      text,
    deleted_at           timestamptz
);
create index webhooks_by_player on webhooks (player_id) where deleted_at is null;

-- The outbox: one row per notification and target ('email' or 'webhook:<id>').
-- status: pending (next_attempt_at says when), delivered, suppressed (e-mail
-- throttling decided not to send; reason says why), dead (gave up: the dead
-- letters, which may be redelivered).
create table deliveries (
    id               bigint generated always as identity primary key,
    notification_id  text not null,   -- no foreign keys here: their checks were half the cost of a batch
    target           text not null,
    webhook_id       uuid,
    player_id        uuid not null,
    status           text not null default 'pending',
    attempts         integer not null default 0,
    next_attempt_at  timestamptz not null default now(),
    last_status      integer,
    last_error       text,
    reason           text,
    delivered_at     timestamptz,
    created_at       timestamptz not null default now(),
    unique (notification_id, target)
);
create index deliveries_due on deliveries (next_attempt_at) where status = 'pending';
create index deliveries_by_webhook on deliveries (webhook_id, id desc);
create index deliveries_dead on deliveries (player_id, id desc) where status = 'dead';

create table delivery_attempts (
    id           bigint generated always as identity primary key,
    delivery_id  bigint not null references deliveries(id),
    attempt      integer not null,
    at           timestamptz not null default now(),
    status_code  integer,
    error        text,
    duration_ms  integer not null
);
create index delivery_attempts_by_delivery on delivery_attempts (delivery_id, id);

create table notification_preferences (
    player_id           uuid primary key references players(id),
    email               text,
    email_confirmed_at  timestamptz,
    email_turns         text not null default 'idle',   -- off | idle | always
    digest              boolean not null default false,
    last_digest_at      timestamptz,
    updated_at          timestamptz not null default now()
);

-- Confirmation and unsubscribe tokens, stored as sha256; single use.
create table email_tokens (
    token_sha256  bytea primary key,
    player_id     uuid not null references players(id),
    purpose       text not null,   -- confirm | unsubscribe
    email         text not null,
    expires_at    timestamptz not null,
    used_at       timestamptz
);

-- Per player and game: when they last acted (from the events' metadata) and
-- when they were last mailed (throttling).
create table notification_activity (
    player_id       uuid not null,
    game_id         uuid not null,
    last_active_at  timestamptz,
    last_mailed_at  timestamptz,
    primary key (player_id, game_id)
);
