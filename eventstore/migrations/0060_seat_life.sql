-- Seats bots play (seat -> bot kind) and whether a game is listed; both are
-- projected from the game's lifecycle events (domain/lifecycle), so the
-- sweeper can find the bot turns Redis lost and the lobby lists only public games.
alter table games add column bots jsonb not null default '{}';
alter table games add column visibility text not null default 'public';
create index games_with_bot_turns on games (updated_at) where status = 'active' and bots <> '{}';
create index games_listed on games (visibility, updated_at desc);
