-- Reminders before a deadline or an empty time bank (api/service/reminders.py).
--
-- ``seat_deadlines`` is a read model, written by the command path in the
-- transaction of each commit, for the games with a turn time or time banks:
-- one row per seat to act that a player holds (not a seat a bot plays), with
-- its deadline, null while the game is paused or the seat away (no reminder
-- then). ``turn_version`` is the game's version when the seat's turn began;
-- it stays while the same turn goes on (another seat moved, the game was
-- paused and resumed), so that a reminder is sent once per offset and turn.
create table seat_deadlines (
    game_id uuid not null references games (id),
    seat text not null,
    player_id uuid not null references players (id),
    turn_version integer not null,
    turn_began_at timestamptz not null,
    deadline timestamptz,
    clock text check (clock in ('turn', 'bank')),
    version integer not null,
    primary key (game_id, seat)
);
create index seat_deadlines_by_deadline on seat_deadlines (deadline);
create index seat_deadlines_by_player on seat_deadlines (player_id);

-- A player's choice of offsets (seconds before the deadline), per channel:
-- {"stream": [43200, 3600], "mail": [...], "webhook": [...]}; a channel left
-- out has the default, an empty list is no reminder on that channel.
create table reminder_settings (
    player_id uuid primary key references players (id),
    offsets jsonb not null,
    updated_at timestamptz not null default now()
);

-- One row per reminder sent (or passed over because a closer one went at
-- the same time): its key is what "once per offset and turn" means. Written
-- in the transaction that appends the ReminderDue event, so a job run twice
-- (a killed worker, a flushed Redis, the sweeper) sends nothing twice.
create table reminders_sent (
    game_id uuid not null,
    seat text not null,
    turn_version integer not null,
    channel text not null,
    offset_seconds integer not null,
    sent_at timestamptz not null default now(),
    primary key (game_id, seat, turn_version, channel, offset_seconds)
);
