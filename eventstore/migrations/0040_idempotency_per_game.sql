-- An Idempotency-Key is scoped to (player, game): a frontend that numbers its
-- keys per game (move-1, move-2...) may reuse them in its next game. Keys
-- remembered before this migration, or written by code that names no game,
-- have the nil uuid: they answer their repeats in any game, as before, until
-- the sweeper forgets them.
alter table idempotency_keys add column game_id uuid not null default '00000000-0000-0000-0000-000000000000';
alter table idempotency_keys drop constraint idempotency_keys_pkey;
alter table idempotency_keys add primary key (player_id, game_id, key);
