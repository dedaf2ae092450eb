-- Every POST that creates something takes an Idempotency-Key
-- (api/http/idempotency.py). Registration and sign-in have no player yet:
-- their keys are kept under the nil uuid, which no player has, so the
-- column no longer refers to players. A key of those operations is held
-- while its request is carried out: status 0, no answer yet.
alter table idempotency_keys drop constraint if exists idempotency_keys_player_id_fkey;
