-- The server's Ed25519 keys, which sign chain heads (receipts; see
-- openapi/verifying-a-game.md, section 6). One key is current (retired_at is
-- null) and signs; retired keys are kept so that what they signed still
-- verifies. private_key is the raw 32-byte seed of a key the server made
-- itself, null for a key the operator gives (BOARDLOG_SIGNING_KEY): that one
-- never leaves the operator's file.
create table signing_keys (
    key_id      text primary key,            -- the first 16 hex of sha256(public_key)
    public_key  bytea not null unique check (length(public_key) = 32),
    private_key bytea check (private_key is null or length(private_key) = 32),
    created_at  timestamptz not null default now(),
    retired_at  timestamptz
);

-- At most one current key, so that two processes starting at once cannot
-- both make one.
create unique index signing_keys_one_current on signing_keys ((retired_at is null)) where retired_at is null;
