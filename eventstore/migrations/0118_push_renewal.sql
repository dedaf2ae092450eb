-- A push subscription's renewal key (api/service/push.py, renew): a browser
-- may replace a subscription on its own (the Push API's
-- pushsubscriptionchange), when no page and no player's token is at hand.
-- Its service worker then sends the new endpoint and keys with the renewal
-- key it was given when the device was added. Only the key's SHA-256 is
-- kept; a subscription added before this has none (turning notifications
-- on again gives it one).
alter table push_subscriptions add column renewal_hash bytea unique check (length(renewal_hash) = 32);
