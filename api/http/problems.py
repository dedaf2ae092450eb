"""The registry of problem types: one per cause of an error, each with a
stable ``type`` URI, its status and what a client should do about it.

Adding a kind of error is one line in ``REGISTRY`` below; a service error
names it with ``kind=`` (or a subclass's ``kind`` attribute) and
``api.http.errors.problem(..., kind=...)`` sends it. A test fails when code raises
a kind that is not registered here. The list is served as ``GET
/v1/problems`` and each operation's declared error responses name the types
they may carry (``x-problem-types``).
"""

from __future__ import annotations

from dataclasses import dataclass

BASE = "https://boardlog.dev/problems/"


@dataclass(frozen=True)
class ProblemType:
    slug: str
    status: int
    title: str
    description: str

    @property
    def uri(self) -> str:
        return BASE + self.slug

    def to_json(self) -> dict:
        return {"type": self.uri, "slug": self.slug, "status": self.status, "title": self.title,
                "description": self.description}


REGISTRY: dict[str, ProblemType] = {p.slug: p for p in (
    ProblemType("bad-request", 400, "Malformed request", "The body is not JSON, is empty where a body is needed, or nests deeper than 32 levels."),
    ProblemType("token-missing", 401, "Token missing", "The operation needs a player token: register with POST /v1/players and send `Authorization: Bearer <token>`."),
    ProblemType("token-malformed", 401, "Token malformed", "The Authorization header is not `Bearer <token>`."),
    ProblemType("token-unknown", 401, "Token unknown", "The token is unknown or revoked."),
    ProblemType("seat-required", 403, "No seat in this game", "Only a player holding a seat in the game may do this; spectators may only look."),
    ProblemType("not-found", 404, "Not found", "No such path."),
    ProblemType("game-not-found", 404, "Game not found", "No game has this id, or none you may see: a private game is its players' alone, and answers others as no game does."),
    ProblemType("unknown-game", 404, "Unknown game", "No hosted game has this name; GET /v1/rules lists them."),
    ProblemType("data-file-not-found", 404, "Data file not found", "The game has no data file with this sha256; `files` names those it has (GET /v1/rules/{game}/data)."),
    ProblemType("method-not-allowed", 405, "Method not allowed", "The path does not take this method; the Allow header lists those it takes."),
    ProblemType("not-your-turn", 409, "Not your turn", "Your seat is not to act now; the detail names who is."),
    ProblemType("game-moved", 409, "Game moved", "The game moved twice while your command was decided; send it again."),
    ProblemType("game-not-over", 409, "Game not over", "Only a finished game can be exported."),
    ProblemType("receipt-invalid", 422, "Receipt invalid", "A receipt given to the audit is malformed, is not this game's, or is not signed by one of this server's keys (GET /v1/keys); the detail names it."),
    ProblemType("receipts-not-shown", 409, "Receipts not shown yet", "The game was recorded before receipts (chain version 1): its chain heads are not hiding, so none is shown or compared until it is over."),
    ProblemType("precondition-failed", 412, "Stale If-Match", "If-Match named a version the game has moved past; `version` holds the current one."),
    ProblemType("body-too-large", 413, "Body too large", "The request body is larger than BOARDLOG_MAX_BODY bytes."),
    ProblemType("uri-too-long", 414, "URI too long", "The request line (method, path and query) is longer than the server reads (8,190 bytes): no URL of boardlog's is that long."),
    ProblemType("headers-too-large", 431, "Header fields too large", "A request header is longer than 8,190 bytes, or there are more than 100 of them."),
    ProblemType("unsupported-media-type", 415, "Unsupported media type", "Send the body as application/json."),
    ProblemType("invalid-request", 422, "Invalid request", "Well-formed JSON, a query or a header that does not match its schema; `errors` holds field-level messages."),
    ProblemType("invalid-option", 422, "Invalid option", "An option of the new game is unknown (misspelled?), of the wrong type, out of bounds or at odds with another; `option` names it (a path such as `bots.p2`) and the detail lists every option the game takes (GET /v1/rules/{game}, or the game's `{Game}Options` schema)."),
    ProblemType("unknown-command-type", 422, "Unknown command type", "The command's `type` is not one of this game's commands; the detail lists them."),
    ProblemType("illegal-command", 422, "Illegal command", "The rules refuse this command now; the detail says why. GET legal-commands lists those you may send."),
    ProblemType("lobby-refused", 422, "Lobby action refused", "The game's status or seats forbid this lobby action (seat taken, not the host, seats empty, game started)."),
    ProblemType("not-seated", 422, "Not seated", "You hold no seat (or not that seat) in this game."),
    ProblemType("idempotency-key-reused", 422, "Idempotency-Key reused", "This Idempotency-Key was already used by you with another request (another endpoint or body): a key answers one request, scoped to (player, game) for a game's commands and lifecycle, to (player, operation) elsewhere."),
    ProblemType("idempotency-answer-forgotten", 410, "Idempotency-Key answer forgotten", "The first answer under this Idempotency-Key held a new secret (a token, a key) and is kept only minutes: it was forgotten, and the request is not carried out again. Sign in or ask anew, with a new key."),
    ProblemType("idempotency-key-busy", 409, "Idempotency-Key busy", "A request with this Idempotency-Key is still being carried out; send it again in a few seconds to get its answer."),
    ProblemType("token-not-found", 404, "Token not found", "You hold no live token with this id: it is someone else's, unknown, or revoked already."),
    ProblemType("too-many-tokens", 409, "Too many tokens", "You hold the most live tokens a player may; revoke one first (DELETE /v1/players/me/tokens/{id})."),
    ProblemType("not-permitted", 403, "Not permitted", "The game does not let you do this: only a seated player may resign, only the host may invite or rematch."),
    ProblemType("wrong-status", 409, "Wrong status", "The game's status forbids this now: abort only before every seat has acted once, resign only while it runs, rematch only once it is over."),
    ProblemType("invite-invalid", 403, "Invite invalid", "The invite code is not one of this game's: check it with the host."),
    ProblemType("invite-spent", 409, "Invite spent", "The invite code was used already or its seat is taken; ask the host for a new one."),
    ProblemType("contribution-made", 409, "Contribution made", "Your seat has contributed to this game's randomness already; a contribution is fixed once made."),
    ProblemType("nothing-to-take-back", 409, "Nothing to take back", "No decision can be taken back now, or no takeback is asked for; the detail says why (another seat acted since, the decision drew randomness or holds hidden information, the game takes no takebacks)."),
    ProblemType("game-paused", 409, "Game paused", "The game is paused by its players' agreement: nobody moves until one of them resumes it (POST /v1/games/{id}/resume)."),
    ProblemType("absence-refused", 422, "Absence refused", "The absence starts in the past, ends before it starts, overlaps another of yours, or exceeds what is left of the year's allowance (BOARDLOG_ABSENCE_DAYS_PER_YEAR); nothing was stored."),
    ProblemType("absence-not-found", 404, "Absence not found", "You declared no absence with this id."),
    ProblemType("seat-played-by-bot", 409, "Seat played by a bot", "You resigned or were abandoned: a bot plays your seat (the detail says which)."),
    ProblemType("history-damaged", 409, "History damaged", "A stored event of this game is not the one recorded (its hash chain breaks); GET /v1/games/{id}/audit names the version, and an operator must restore it."),
    ProblemType("history-unreadable", 500, "History unreadable", "A stored event whose hash chain is intact cannot be read by this server: a bug, logged."),
    ProblemType("unreadable-history", 501, "History not replayable here", "The game was recorded under rules, data or an event shape this installation lacks; it is never replayed under other rules."),
    ProblemType("rules-version-unknown", 501, "Rules version unknown", "The game was created under a rules version this installation lacks; the detail names both; upgrade boardlog."),
    ProblemType("randomness-version-unknown", 501, "Randomness version unknown", "The game draws under a randomness version this installation lacks; the detail names it; upgrade boardlog."),
    ProblemType("data-file-changed", 501, "Data file changed", "A data file of the game's rules version differs from the one it was created with (edited in place instead of versioned)."),
    ProblemType("event-schema-unknown", 501, "Event shape unknown", "A stored event has a schema version with no upcaster in this installation; the detail names the event."),
    ProblemType("event-type-unknown", 501, "Event type unknown", "A stored event's type is not an event of the game's rules version; the detail names it."),
    ProblemType("ticket-invalid", 401, "Stream ticket invalid", "The stream ticket is unknown, already used, expired (tickets last 60 s and open one stream) or its token was revoked; get a new one with POST /v1/stream-tickets."),
    ProblemType("token-revoked", 401, "Token revoked", "The token an open stream was opened with has been revoked: the stream's last message is this problem, then it closes. Sign in again (a new token) and open the stream again."),
    ProblemType("resume-point-invalid", 422, "Resume point invalid", "Last-Event-ID or ?after= is not a whole number, or lies beyond what this stream has sent; resume from an id the stream sent."),
    ProblemType("too-many-streams", 429, "Too many streams", "You hold the most open streams one player may at once; close one first (another tab or device), or wait Retry-After seconds."),
    ProblemType("too-many-waiters", 429, "Too many waiting requests", "One client may hold only so many waiting requests in one server process: long-polls per token, or long-polls and streams without a token per address; wait for one to answer (or close one), or wait Retry-After seconds."),
    ProblemType("server-busy", 503, "Server busy", "This server holds the most waiting requests and streams it may; connect again after Retry-After seconds."),
    ProblemType("shutting-down", 503, "Shutting down", "This server process is stopping; connect again (another process will answer)."),
    ProblemType("too-many-webhooks", 409, "Too many webhooks", "You hold the most webhooks a player may; delete one first."),
    ProblemType("webhook-not-found", 404, "Webhook not found", "You hold no webhook with this id."),
    ProblemType("delivery-not-found", 404, "Delivery not found", "No delivery with this id belongs to you (or to this webhook)."),
    ProblemType("delivery-pending", 409, "Delivery pending", "The delivery is queued or being tried already; it needs no redelivery now."),
    ProblemType("webhook-disabled", 409, "Webhook disabled", "The webhook was disabled after failing again and again (GET it to see why); enable it first."),
    ProblemType("too-many-push-subscriptions", 409, "Too many devices", "You hold the most push subscriptions (devices with notifications) a player may; remove one first."),
    ProblemType("push-renewal-key-unknown", 404, "Renewal key unknown", "No device holds this renewal key: it was removed, or notifications were turned on again since, which gave it a new key."),
    ProblemType("push-subscription-not-found", 404, "Push subscription not found", "You hold no push subscription with this id (removed already, or its push service said it was gone)."),
    ProblemType("mail-unavailable", 503, "Mail unavailable", "This server sends no mail (BOARDLOG_SMTP_URL is unset), so an address cannot be confirmed."),
    ProblemType("link-unknown", 404, "Link unknown", "The confirmation or unsubscribe link is not one boardlog sent."),
    ProblemType("link-used", 409, "Link used", "The link was used already; each link works once."),
    ProblemType("link-expired", 409, "Link expired", "The link has expired; set your address again for a new confirmation link."),
    ProblemType("link-for-old-address", 409, "Link for an old address", "The link confirms an address you have changed since; use the link sent to your current address."),
    ProblemType("sign-in-code-unknown", 404, "Sign-in code unknown", "The sign-in code is not one boardlog mailed (mistyped, cut short or forged); sign in another way: register, or paste a token you hold."),
    ProblemType("sign-in-code-used", 409, "Sign-in code used", "The sign-in code was used already: each mail link signs in once, on one device. Sign in another way, or open the link of a newer mail."),
    ProblemType("sign-in-code-expired", 409, "Sign-in code expired", "The sign-in code has expired (BOARDLOG_SIGNIN_CODE_HOURS after its mail was sent); sign in another way, or open the link of a newer mail."),
    ProblemType("message-refused", 422, "Message refused", "The message is empty, too long (over 2,000 characters) or holds control characters, or you may not write there; the detail says which. Nothing was stored."),
    ProblemType("no-such-channel", 422, "No such channel", "The game has no such channel; the detail lists its channels (the table, a team, two players privately)."),
    ProblemType("not-in-channel", 422, "Not in that channel", "You do not read or write that channel: it is a team's or two other players' channel, or the host did not let spectators read the table."),
    ProblemType("too-many-messages", 429, "Too many messages", "At most 10 messages per player per game in a minute; wait Retry-After seconds."),
    ProblemType("rate-limited", 429, "Too many requests", "More requests in a minute than allowed; wait Retry-After seconds."),
    ProblemType("internal-error", 500, "Internal error", "The server failed; this is a bug and has been logged."),
    ProblemType("database-unavailable", 503, "Database unavailable", "PostgreSQL is unreachable or busy; retry after Retry-After seconds."),
)}


def get(slug: str) -> ProblemType | None:
    return REGISTRY.get(slug)


def for_status(status: int) -> ProblemType | None:
    """The generic type of an HTTP error raised outside the service (werkzeug, webargs)."""
    return REGISTRY.get(_HTTP.get(status, ""))


_HTTP = {400: "bad-request", 404: "not-found", 405: "method-not-allowed", 413: "body-too-large",
         414: "uri-too-long", 431: "headers-too-large", 415: "unsupported-media-type", 422: "invalid-request", 429: "rate-limited", 500: "internal-error",
         503: "database-unavailable"}
