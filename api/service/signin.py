"""Signing in from a mail: the sign-in codes of the links "your turn" and
digest mails carry, and their exchange for a bearer token.

A code is made when its mail is built, bound to the player and the game the
link opens, random, mailed once and stored only as its sha256
(``mail_signin_codes``). It works once and for ``BOARDLOG_SIGNIN_CODE_HOURS``
(72 by default: a play-by-mail player may read his mail a day or two late).
Spending one is one UPDATE that also checks it is unused and unexpired, in
the transaction that makes the token, so a code signs in once even when two
requests race, and a refused exchange changes nothing.

The link carries the code in its URL fragment (``#/games/{id}?signin=CODE``),
which browsers send to no server: no request log, proxy or Referer sees it.
The page posts it to ``POST /v1/sign-in`` and keeps the token it gets.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import uuid

from . import readmodels
from .errors import Conflict, NotFound, TooManyTokens
from .players import MAX_LIVE_TOKENS, hash_token, new_token

# Problem kinds of this module: sign-in-code-unknown (404), sign-in-code-used,
# sign-in-code-expired (409), too-many-tokens (409).
TOKEN_LABEL = "mail link"  # the label of the tokens mail links make (GET /v1/players/me/tokens shows it)
MAX_CODE_LENGTH = 200
KEPT_AFTER_EXPIRY = dt.timedelta(days=7)  # an expired code says "expired" this long, then "unknown"


def _sha(code: str) -> bytes:
    return hashlib.sha256(code.encode()).digest()


def new_code(conn, player, game_id, hours: float) -> str:
    """A code for one mail's link (committed by the caller before the mail leaves)."""
    code = secrets.token_urlsafe(32)
    conn.execute("insert into mail_signin_codes (code_sha256, player_id, game_id, expires_at)"
                 " values (%s, %s, %s, now() + %s)", (_sha(code), player, game_id, dt.timedelta(hours=hours)))
    # Lapsed codes go as new ones come (cheap, by index): no sweeper needed.
    conn.execute("delete from mail_signin_codes where expires_at < now() - %s", (KEPT_AFTER_EXPIRY,))
    return code


def mail_link(conn, player, game_id, config) -> str:
    """The link a mail carries to a game: this server's web client signing the
    player in, or the operator's BOARDLOG_PLAY_URL (with a code only where its
    template asks for one, ``{code}``)."""
    template = config.play_url
    if template is None:
        code = new_code(conn, player, game_id, config.signin_hours)
        return f"{config.public_url}/#/games/{game_id}?signin={code}"
    if "{code}" not in template:
        return template.replace("{game_id}", str(game_id))
    code = new_code(conn, player, game_id, config.signin_hours)
    return template.replace("{game_id}", str(game_id)).replace("{code}", code)


def _refused(conn, code: str) -> Exception:
    known = conn.execute("select used_at, expires_at <= now() from mail_signin_codes where code_sha256 = %s",
                         (_sha(code),)).fetchone()
    if known is None:
        return NotFound("this sign-in link is not one boardlog mailed: it may be cut short or mistyped",
                        kind="sign-in-code-unknown")
    if known[0] is not None:
        return Conflict("this sign-in link was used already: each mail link signs in once, on one device",
                        kind="sign-in-code-used")
    return Conflict("this sign-in link has expired: a mail's link signs in for a limited time",
                    kind="sign-in-code-expired")


def exchange(pool, code: str) -> tuple[dict, list[str]]:
    """Spend a code: the new token's answer (player, game, token), and the
    ids of the tokens revoked to make room for it. A player who holds the
    most tokens gives up the oldest one a mail link made; holding none such,
    he is refused (too-many-tokens) and the code stays unspent."""
    if not isinstance(code, str) or not 1 <= len(code) <= MAX_CODE_LENGTH:
        raise NotFound("this sign-in link is not one boardlog mailed", kind="sign-in-code-unknown")
    token = new_token()
    with pool.connection() as conn, conn.transaction():
        spent = conn.execute(
            "update mail_signin_codes set used_at = now() where code_sha256 = %s and used_at is null"
            " and expires_at > now() returning player_id, game_id", (_sha(code),)).fetchone()
        if spent is None:
            raise _refused(conn, code)
        player, game_id = spent
        live = readmodels.live_tokens(conn, player, lock=True)
        revoked: list[str] = []
        if len(live) >= MAX_LIVE_TOKENS:
            from_mail = [row for row in live if row["label"] == TOKEN_LABEL]
            if not from_mail:
                raise TooManyTokens(f"you hold {MAX_LIVE_TOKENS} tokens, the most a player may; revoke one "
                                    "(in the lobby of a device you are signed in on), then open the link again")
            revoked = readmodels.revoke_tokens(conn, player, from_mail[0]["id"])
        row = readmodels.insert_token(conn, uuid.uuid4(), player, hash_token(token), TOKEN_LABEL)
        name = readmodels.player_name(conn, player)
    answer = {"player_id": player, "name": name, "game_id": game_id,
              "token": {**row, "token": token, "current": False}}
    return answer, revoked
