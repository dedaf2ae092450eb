-- One snapshot per stream and state schema version; the newest version wins.
create table snapshots (
    stream_id       text not null,
    schema_version  integer not null,
    version         bigint not null check (version >= 0),
    state           bytea not null,
    created_at      timestamptz not null default now(),
    primary key (stream_id, schema_version)
);
