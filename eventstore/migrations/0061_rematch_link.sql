-- A finished game's rematch, projected from RematchCreated, so that its
-- players' inboxes and its summary carry the invitation.
alter table games add column rematch uuid;
