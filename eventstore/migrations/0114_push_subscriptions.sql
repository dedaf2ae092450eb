-- Web Push (api/service/push.py, workers/notify/push.py).
--
-- The server's VAPID key pair (RFC 8292): one row, made on first use unless
-- the operator gives the key (BOARDLOG_VAPID_PRIVATE_KEY; then nothing is
-- stored here). Push services tie each subscription to the public key it
-- was made with, so the key is kept, never rotated behind the players' backs.
create table vapid_keys (
    id          boolean primary key default true check (id),
    private_key bytea not null check (length(private_key) = 32),
    public_key  bytea not null check (length(public_key) = 65),
    created_at  timestamptz not null default now()
);

-- A browser's push subscription (the Push API's PushSubscription): the push
-- service's endpoint and the keys that encrypt for it (RFC 8291). One row per
-- player and device; the same endpoint given again replaces its keys and label.
-- ``messages``: table talk is pushed too (opt-in).
create table push_subscriptions (
    id          uuid primary key,
    player_id   uuid not null references players (id),
    endpoint    text not null,
    p256dh      bytea not null check (length(p256dh) = 65),
    auth        bytea not null check (length(auth) = 16),
    label       text not null,
    messages    boolean not null default false,
    created_at  timestamptz not null default now(),
    unique (player_id, endpoint)
);
