-- append in one round trip: lock the stream, check idempotency and the expected
-- version, insert with the hash chain, move the head, notify.
--
-- p_bodies are canonical JSON texts of the events without version and without the
-- closing brace (see eventstore/types.py event_body); the hashed document of event v
-- is body || ',"version":v}', the same bytes Python's canonical_json produces.
--
-- Returns (outcome, version, detail):
--   ok          appended; version is the new stream version
--   duplicate   the same events were already there; version is the last of them
--   conflict    expected version mismatch; version is the actual one
--   id_conflict an event id exists with other content or elsewhere; detail says which
--
-- Fast path for an existing stream: lock the stream row, insert the events with
-- ON CONFLICT (event_id) DO NOTHING, move the head. For a new stream: insert the
-- stream row with its final head, insert the events. Only when the expected
-- version does not match, or the first event id is already stored, does it look
-- at the stored events to tell a harmless retry from a conflict.
--
-- NOTIFY takes a database-wide lock from pre-commit until the end of the commit,
-- WAL flush included, so notifying appends would commit one at a time. Callers in
-- autocommit therefore pass p_notify => false and send the NOTIFY afterwards, from
-- a background connection in batches (eventstore/notifier.py). An append inside a
-- caller's transaction keeps p_notify => true, so the notification goes out when
-- (and only if) that transaction commits.
create function eventstore_append(
    p_stream_id text,
    p_expected bigint,       -- null means ANY
    p_bodies text[],
    p_notify boolean default true,
    out outcome text, out version bigint, out detail text
)
language plpgsql as $$
declare
    v_current bigint;
    v_hash bytea;
    v_hashes bytea[];
    v_doc jsonb;
    v_id uuid;
    v_first bigint;
    v_bad record;
    i integer;
    n integer := coalesce(array_length(p_bodies, 1), 0);
begin
    select s.version, s.last_hash into v_current, v_hash
        from streams s where s.stream_id = p_stream_id for update;
    if not found then
        if p_expected > 0 then
            outcome := 'conflict';
            version := 0;
            return;
        end if;
        if n = 0 then
            outcome := 'ok';
            version := 0;
            return;
        end if;
        -- A new stream: claim its row with the final head at once, then insert the
        -- events. An event id stored before can only belong to another stream,
        -- so the unique violation that follows is the right answer.
        v_hash := null;
        for i in 1 .. n loop
            v_hash := sha256(coalesce(v_hash, ''::bytea)
                      || convert_to(p_bodies[i] || ',"version":' || i || '}', 'UTF8'));
            v_hashes[i] := v_hash;
        end loop;
        insert into streams (stream_id, version, last_hash) values (p_stream_id, n, v_hash)
            on conflict (stream_id) do nothing;
        if found then
            for i in 1 .. n loop
                v_doc := (p_bodies[i] || '}')::jsonb;
                insert into events (stream_id, version, event_id, type, schema_version,
                                    data, metadata, hash)
                values (p_stream_id, i, (v_doc ->> 'event_id')::uuid, v_doc ->> 'type',
                        (v_doc ->> 'schema_version')::integer, v_doc -> 'data',
                        v_doc -> 'metadata', v_hashes[i]);
            end loop;
            if p_notify then
                perform pg_notify('boardlog_events', p_stream_id || ':' || n);
            end if;
            outcome := 'ok';
            version := n;
            return;
        end if;
        -- Someone else created it meanwhile: lock it and take the general path.
        select s.version, s.last_hash into v_current, v_hash
            from streams s where s.stream_id = p_stream_id for update;
    end if;

    if p_expected is null or p_expected = v_current then
        for i in 1 .. n loop
            v_doc := (p_bodies[i] || '}')::jsonb;
            v_id := (v_doc ->> 'event_id')::uuid;
            v_hash := sha256(coalesce(v_hash, ''::bytea)
                      || convert_to(p_bodies[i] || ',"version":' || (v_current + i) || '}', 'UTF8'));
            insert into events (stream_id, version, event_id, type, schema_version, data,
                                metadata, hash)
            values (p_stream_id, v_current + i, v_id, v_doc ->> 'type',
                    (v_doc ->> 'schema_version')::integer, v_doc -> 'data',
                    v_doc -> 'metadata', v_hash)
            on conflict (event_id) do nothing;
            if not found then
                if i > 1 then
                    raise exception 'event % is already stored, but the events before it in this append are not',
                        v_id using errcode = 'unique_violation';
                end if;
                exit;  -- nothing written: see below whether this is a retry
            end if;
            if i = n then
                update streams set version = v_current + n, last_hash = v_hash, updated_at = now()
                    where stream_id = p_stream_id;
                if p_notify then
                    perform pg_notify('boardlog_events', p_stream_id || ':' || (v_current + n));
                end if;
                outcome := 'ok';
                version := v_current + n;
                return;
            end if;
        end loop;
        if n = 0 then
            outcome := 'ok';
            version := v_current;
            return;
        end if;
    end if;

    -- The expected version did not match, or the first event is stored already:
    -- a retry of the same append at the same place succeeds without writing.
    select e.version into v_first from events e
        where e.event_id = ((p_bodies[1] || '}')::jsonb ->> 'event_id')::uuid;
    if not found then
        outcome := 'conflict';
        version := v_current;
        return;
    end if;
    select e.event_id, e.stream_id, e.version, b.o into v_bad
        from unnest(p_bodies) with ordinality as b(body, o)
        cross join lateral (select (b.body || '}')::jsonb as doc) as d
        left join events e on e.event_id = (d.doc ->> 'event_id')::uuid
        where e.event_id is null
           or e.stream_id <> p_stream_id
           or e.version <> v_first + b.o - 1
           or e.type <> d.doc ->> 'type'
           or e.schema_version <> (d.doc ->> 'schema_version')::integer
           or e.data <> d.doc -> 'data'
           or e.metadata <> d.doc -> 'metadata'
        order by b.o
        limit 1;
    if found then
        outcome := 'id_conflict';
        version := v_current;
        detail := format('event %s is already stored %s',
            ((p_bodies[v_bad.o] || '}')::jsonb ->> 'event_id'),
            case when v_bad.event_id is null then 'only partly: some events of this append exist, others do not'
                 when v_bad.stream_id <> p_stream_id then format('in stream %s', v_bad.stream_id)
                 when v_bad.version <> v_first + v_bad.o - 1 then 'at another place in this stream'
                 else 'with other content' end);
        return;
    end if;
    if p_expected is not null and p_expected <> v_first - 1 then
        outcome := 'conflict';
        version := v_current;
        return;
    end if;
    outcome := 'duplicate';
    version := v_first + n - 1;
end;
$$;
