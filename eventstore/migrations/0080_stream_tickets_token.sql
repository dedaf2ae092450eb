-- A stream ticket names the bearer token it was issued for: revoking that
-- token (or all of the player's) voids the ticket, and the stream it opened
-- ends. Tickets issued before this column existed have none (they live 60 s).
alter table stream_tickets add column token_id uuid references player_tokens(id);
