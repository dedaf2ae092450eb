-- An absence day spent instead of a timeout (api/service/absences.py).
--
-- A player who has not opted out (``spend_absence_days``, true by default)
-- and has a day of the year's allowance left is away for a day when one of
-- his seats would time out: the absence is written, in the transaction of
-- the game's SeatAway, as any declared one, marked ``instead_of_timeout``
-- so that his list says why it is there.
alter table players add column spend_absence_days boolean not null default true;
alter table absences add column instead_of_timeout boolean not null default false;
