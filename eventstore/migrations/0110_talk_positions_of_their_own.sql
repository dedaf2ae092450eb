-- Table talk's messages (streams 'talk-<game id>/<channel>') take their global
-- positions from a sequence of their own, negative, and every other event from
-- the feed's: a reader outside a channel sees positions (a player stream's ids,
-- a notice's position, a webhook-id's number) that count nothing said in it,
-- not even how much. The feed's order is (tx_id, global_position), so the feed
-- and its cursors still run through every event once, in commit order.
-- Messages stored before this keep the positions they had.
create sequence event_positions;
select setval('event_positions',
              greatest(coalesce((select max(global_position) from events), 0),
                       (select last_value from events_global_position_seq), 1));
alter table events alter column global_position drop identity;
create sequence talk_positions;

create function eventstore_position() returns trigger
language plpgsql as $$
begin
    if starts_with(new.stream_id, 'talk-') then
        new.global_position := -nextval('talk_positions');
    else
        new.global_position := nextval('event_positions');
    end if;
    return new;
end
$$;

create trigger events_position before insert on events
    for each row execute function eventstore_position();
-- Every row needs its position, also when triggers sleep (session_replication_role = replica).
alter table events enable always trigger events_position;
