-- A player's absences, declared for all of his games (api/service/absences.py).
-- They are the player's facts, not a game's: a game's log records only when
-- one begins and stops mattering to it (SeatAway, SeatBack). ``ends_at`` is
-- moved earlier when the player ends one early or acts during it.
create table absences (
    id uuid primary key,
    player_id uuid not null references players (id),
    starts_at timestamptz not null,
    ends_at timestamptz not null,
    declared_at timestamptz not null default now(),
    check (starts_at < ends_at)
);
create index absences_by_player on absences (player_id, ends_at);
