-- A command in one round trip: the events, the game's row, its seats, the
-- acting player's absence and the Idempotency-Key's record, in one statement
-- (api/service/games.py ``GameService._commit``). Sent on an autocommit
-- connection it is one transaction without BEGIN and COMMIT; sent inside a
-- caller's transaction (a command that also writes reminders or a snapshot)
-- it commits with it. Either way it is all or nothing: a stale version
-- changes nothing, and a key already taken raises unique_violation, which
-- takes the events down with it, as the separate statements did.
--
-- The events go through eventstore_append (0003) unchanged, so appends to
-- one stream are serialized exactly as before, by its streams row lock, and
-- the rows below are written only when it answers 'ok'.
--
-- p_seats: the seat changes of the events, in their order, as
--   [{"op": "take" | "leave" | "replace", "seat": ..., "player": ...}].
-- p_life: null, or {"bots": {...}, "visibility": ..., "rematch": ...} when the
--   events changed the game's life (readmodels.LIFECYCLE_EVENTS).
-- p_back_player: a player whose command was accepted; his absence running
--   at p_now ends at p_now, and one beginning at p_now is withdrawn (an
--   absence is never empty). absences_ended says how many did.
-- p_key: null, or the Idempotency-Key's record:
--   {"player", "game", "unscoped", "key", "sha256", "status", and either
--    "response" (the answer itself) or "first", "last", "signed_by",
--    "signature" (a reference: the versions the command produced and the
--    receipt's key and signature, from which the answer is rebuilt)}.
-- p_notify: pg_notify from this statement, sent when it commits (see 0003 on
--   what a NOTIFY inside a transaction costs concurrent commits).
alter table idempotency_keys alter column response drop not null;
alter table idempotency_keys add column first_version integer;
alter table idempotency_keys add column last_version integer;
alter table idempotency_keys add column signed_by text;
alter table idempotency_keys add column signature bytea;
alter table idempotency_keys add constraint idempotency_keys_answer_or_reference
    check (response is not null or (first_version is not null and last_version is not null));

create function boardlog_command(
    p_stream_id text,
    p_expected bigint,
    p_bodies text[],
    p_notify boolean,
    p_game_id uuid,
    p_status text,
    p_host uuid,
    p_to_act text[],
    p_deadline timestamptz,
    p_outcome text,
    p_seats jsonb,
    p_life jsonb,
    p_back_player uuid,
    p_now timestamptz,
    p_key jsonb,
    out outcome text, out version bigint, out detail text, out absences_ended integer
)
language plpgsql as $$
declare
    v_seat jsonb;
    v_version bigint;
    v_withdrawn integer;
begin
    absences_ended := 0;
    select a.outcome, a.version, a.detail into outcome, version, detail
        from eventstore_append(p_stream_id, p_expected, p_bodies, p_notify) a;
    if outcome <> 'ok' then
        return;
    end if;
    v_version := version;
    if p_seats is not null then
        for v_seat in select * from jsonb_array_elements(p_seats) loop
            if v_seat ->> 'op' = 'take' then
                insert into game_seats (game_id, seat, player_id)
                    values (p_game_id, v_seat ->> 'seat', (v_seat ->> 'player')::uuid);
            elsif v_seat ->> 'op' = 'leave' then
                delete from game_seats where game_id = p_game_id and seat = v_seat ->> 'seat';
            else
                insert into game_seats (game_id, seat, player_id)
                    values (p_game_id, v_seat ->> 'seat', (v_seat ->> 'player')::uuid)
                    on conflict (game_id, seat) do update set player_id = excluded.player_id;
            end if;
        end loop;
    end if;
    if p_life is not null then
        update games set bots = p_life -> 'bots', visibility = p_life ->> 'visibility',
                         rematch = (p_life ->> 'rematch')::uuid
            where id = p_game_id;
    end if;
    update games set status = p_status, host = p_host, version = v_version, to_act = p_to_act,
                     deadline = p_deadline, outcome = p_outcome, updated_at = now()
        where id = p_game_id;
    if p_back_player is not null then
        update absences set ends_at = p_now
            where player_id = p_back_player and starts_at < p_now and ends_at > p_now;
        get diagnostics absences_ended = row_count;
        -- One that begins at this very instant (spent at a timeout of the same instant) was never used: gone.
        delete from absences where player_id = p_back_player and starts_at = p_now;
        get diagnostics v_withdrawn = row_count;
        absences_ended := absences_ended + v_withdrawn;
    end if;
    if p_key is not null then
        insert into idempotency_keys (player_id, game_id, key, request_sha256, status, response,
                                      first_version, last_version, signed_by, signature)
        values ((p_key ->> 'player')::uuid,
                case when exists (select 1 from idempotency_keys k where k.player_id = (p_key ->> 'player')::uuid
                                  and k.game_id = (p_key ->> 'unscoped')::uuid and k.key = p_key ->> 'key')
                     then (p_key ->> 'unscoped')::uuid else (p_key ->> 'game')::uuid end,
                p_key ->> 'key', p_key ->> 'sha256', (p_key ->> 'status')::integer, p_key -> 'response',
                (p_key ->> 'first')::integer, (p_key ->> 'last')::integer, p_key ->> 'signed_by',
                decode(p_key ->> 'signature', 'hex'));
    end if;
end;
$$;
