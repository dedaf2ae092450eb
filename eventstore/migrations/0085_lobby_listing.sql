-- The lobby lists public games most recently moved first, optionally of one
-- game or in one status: each of those reads an index in the listing's order
-- and stops after one page, whatever the number of games ever stored
-- (api/service/readmodels.py list_games, bench/scale.py).
create index games_public_by_recency on games (updated_at desc, id) where visibility = 'public';
create index games_public_by_game on games (game, updated_at desc, id) where visibility = 'public';
create index games_public_by_status on games (status, updated_at desc, id) where visibility = 'public';
drop index if exists games_listed;
