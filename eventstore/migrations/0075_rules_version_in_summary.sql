-- The rules version a game is played under, for its public summary: a
-- referee or a frontend sees which rules a game follows without opening its
-- events. Games stored before this column take it from their GameCreated
-- event, whose first schema had none: those were all version 1.
alter table games add column rules_version integer not null default 1;

update games g set rules_version = coalesce((e.data ->> 'rules_version')::integer, 1)
from events e
where e.stream_id = 'game-' || g.id::text and e.version = 1 and e.type = 'GameCreated';
