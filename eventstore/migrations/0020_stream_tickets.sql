-- Short-lived, single-use tickets that authenticate a Server-Sent Events
-- stream (a browser's EventSource cannot send an Authorization header, and a
-- bearer token must not travel in a URL). Stored hashed; redeeming deletes.
create table stream_tickets (
    ticket_sha256 bytea primary key,
    player_id uuid not null references players(id),
    expires_at timestamptz not null
);
create index stream_tickets_by_expiry on stream_tickets (expires_at);
