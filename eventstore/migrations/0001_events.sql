-- Streams and their immutable events.
create table streams (
    stream_id   text primary key,
    version     bigint not null check (version >= 0),
    last_hash   bytea,
    created_at  timestamptz not null default now(),
    updated_at  timestamptz not null default now()
);

create table events (
    global_position bigint generated always as identity primary key,
    tx_id           xid8 not null default pg_current_xact_id(),
    stream_id       text not null,
    version         bigint not null check (version >= 1),
    event_id        uuid not null unique,
    type            text not null,
    schema_version  integer not null,
    data            jsonb not null,
    metadata        jsonb not null default '{}'::jsonb,
    recorded_at     timestamptz not null default now(),
    hash            bytea not null,
    unique (stream_id, version)
);

-- The global feed reads in (tx_id, global_position) order below the snapshot xmin.
create index events_feed on events (tx_id, global_position);

create function eventstore_reject_change() returns trigger
language plpgsql as $$
begin
    raise exception 'events are immutable: % on events is not allowed', tg_op
        using errcode = 'restrict_violation';
end;
$$;

create trigger events_reject_update_delete
    before update or delete on events
    for each row execute function eventstore_reject_change();

create trigger events_reject_truncate
    before truncate on events
    for each statement execute function eventstore_reject_change();
