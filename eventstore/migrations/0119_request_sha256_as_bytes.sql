-- The Idempotency-Key's record keeps the request's SHA-256 as its 32 bytes
-- (bytea, 33 B stored) rather than as 64 hex digits (text, 65 B): a row a
-- move (issue 37). What compares it compares bytes now (api/service/
-- idempotency.py); a repeat of a request still hashes to the same digest,
-- so a key remembered before this still answers its repeat, and refuses
-- another request, as it did.
--
-- The column is converted in place: the table holds a week of keys at most
-- (workers/sweeper.py forgets older ones), so the rewrite is bounded. Every
-- stored digest is hex (hexdigest); anything else, never a digest of a
-- request, is kept as its bytes, which no request's digest equals.
alter table idempotency_keys alter column request_sha256 type bytea using
    case when request_sha256 ~ '^[0-9a-f]{64}$' then decode(request_sha256, 'hex')
         else convert_to(request_sha256, 'UTF8') end;

-- boardlog_command (0117) as it was, but for the key's digest: p_key's
-- "sha256" is still hex in the JSON it is handed, decoded here.
create or replace function boardlog_command(
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
                p_key ->> 'key', decode(p_key ->> 'sha256', 'hex'), (p_key ->> 'status')::integer, p_key -> 'response',
                (p_key ->> 'first')::integer, (p_key ->> 'last')::integer, p_key ->> 'signed_by',
                decode(p_key ->> 'signature', 'hex'));
    end if;
end;
$$;
