-- A confirmation mail goes through the outbox like every other mail, so that
-- the request that sets an address does not wait on an SMTP server: it is a
-- notification that no event caused (kind 'email-confirmation', delivered to
-- the target 'confirmation'), so it has no position in the feed, no game and
-- no version.
alter table notifications
    alter column position drop not null,
    alter column game_id drop not null,
    alter column version drop not null;
