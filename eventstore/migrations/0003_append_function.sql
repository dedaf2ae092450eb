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
    v_docs jsonb[];
    v_ids uuid[];
    v_found integer;
    v_first bigint;
    v_bad record;
    i integer;
    n integer := coalesce(array_length(p_bodies, 1), 0);
begin
    select s.version, s.last_hash into v_current, v_hash
        from streams s where s.stream_id = p_stream_id for update;
    if not found and p_expected > 0 then
        outcome := 'conflict';
        version := 0;
        return;
    end if;
    if not found then
        insert into streams (stream_id, version) values (p_stream_id, 0)
            on conflict (stream_id) do nothing;
        select s.version, s.last_hash into v_current, v_hash
            from streams s where s.stream_id = p_stream_id for update;
    end if;

    select array_agg((b || '}')::jsonb order by o) into v_docs
        from unnest(p_bodies) with ordinality as t(b, o);
    select array_agg((d ->> 'event_id')::uuid order by o) into v_ids
        from unnest(v_docs) with ordinality as t(d, o);

    -- Idempotency: are these ids stored already?
    select count(*), min(e.version) into v_found, v_first
        from events e where e.event_id = any(v_ids);
    if v_found > 0 then
        select e.event_id, e.stream_id, e.version, d.o into v_bad
            from unnest(v_docs) with ordinality as d(doc, o)
            left join events e on e.event_id = (d.doc ->> 'event_id')::uuid
            where e.event_id is null
               or e.stream_id <> p_stream_id
               or e.version <> v_first + d.o - 1
               or e.type <> d.doc ->> 'type'
               or e.schema_version <> (d.doc ->> 'schema_version')::integer
               or e.data <> d.doc -> 'data'
               or e.metadata <> d.doc -> 'metadata'
            limit 1;
        if found then
            outcome := 'id_conflict';
            version := v_current;
            detail := format('event %s is already stored %s', v_ids[v_bad.o],
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
        return;
    end if;

    if p_expected is not null and p_expected <> v_current then
        outcome := 'conflict';
        version := v_current;
        return;
    end if;

    for i in 1 .. n loop
        v_current := v_current + 1;
        v_hash := sha256(coalesce(v_hash, ''::bytea)
                  || convert_to(p_bodies[i] || ',"version":' || v_current || '}', 'UTF8'));
        insert into events (stream_id, version, event_id, type, schema_version, data, metadata, hash)
        values (p_stream_id, v_current, v_ids[i], v_docs[i] ->> 'type',
                (v_docs[i] ->> 'schema_version')::integer, v_docs[i] -> 'data',
                v_docs[i] -> 'metadata', v_hash);
    end loop;

    if n > 0 then
        update streams set version = v_current, last_hash = v_hash, updated_at = now()
            where stream_id = p_stream_id;
        if p_notify then
            perform pg_notify('boardlog_events', p_stream_id || ':' || v_current);
        end if;
    end if;
    outcome := 'ok';
    version := v_current;
end;
$$;
