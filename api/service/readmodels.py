"""Inline projections and the queries over them.

Every write here runs on the connection of the transaction that appends the
events it derives from, so the game list, the seats to act and the deadlines
are never behind or ahead of the event log.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any, Iterable

from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from domain.lifecycle.state import LIFECYCLE_EVENTS, SeatReplaced
from domain.session import SeatLeft, SeatTaken, Session

from .token_cache import REVOKED_CHANNEL


def insert_player(conn, player_id: uuid.UUID, name: str) -> None:
    conn.execute("insert into players (id, name) values (%s, %s)", (player_id, name))


def insert_token(conn, token_id: uuid.UUID, player_id, token_sha256: bytes, label: str) -> dict:
    return conn.cursor(row_factory=dict_row).execute(
        "insert into player_tokens (id, player_id, token_sha256, label) values (%s, %s, %s, %s)"
        " returning id, label, created_at",
        (token_id, player_id, token_sha256, label),
    ).fetchone()


def player_by_token(conn, token_sha256: bytes) -> dict | None:
    """The live token with this hash: its id, its player and the hash."""
    return conn.cursor(row_factory=dict_row).execute(
        "select player_id as id, id as token_id, token_sha256 from player_tokens"
        " where token_sha256 = %s and revoked_at is null", (token_sha256,)
    ).fetchone()


def live_tokens(conn, player_id, lock: bool = False) -> list[dict]:
    return conn.cursor(row_factory=dict_row).execute(
        "select id, label, created_at from player_tokens where player_id = %s and revoked_at is null"
        " order by created_at, id" + (" for update" if lock else ""), (player_id,)
    ).fetchall()


def revoke_tokens(conn, player_id, token_id: uuid.UUID | None = None) -> list[str]:
    """Revoke one of the player's live tokens, or all of them; the ids of the
    tokens revoked. (Stream tickets name their token, which must be live.)"""
    query = "update player_tokens set revoked_at = now() where player_id = %s and revoked_at is null"
    params: tuple = (player_id,)
    if token_id is not None:
        query += " and id = %s"
        params += (token_id,)
    revoked = [str(row[0]) for row in conn.execute(query + " returning id", params).fetchall()]
    if token_id is None:  # revoking all voids the tickets that name no token (issued before they did)
        conn.execute("delete from stream_tickets where player_id = %s and token_id is null", (player_id,))
    if revoked:  # on commit, every process's LISTEN connection hears it (api/service/token_cache.py)
        conn.execute("select pg_notify(%s, %s)", (REVOKED_CHANNEL, ",".join(revoked)))
    return revoked
def player(conn, player_id) -> dict | None:
    return conn.cursor(row_factory=dict_row).execute(
        "select id, name, created_at from players where id = %s", (player_id,)
    ).fetchone()


def player_name(conn, player_id) -> str | None:
    row = conn.execute("select name from players where id = %s", (player_id,)).fetchone()
    return row[0] if row else None


def insert_game(conn, game_id: uuid.UUID, session: Session, seed: bytes) -> None:
    conn.execute(
        """insert into games (id, game, status, host, options, version, visibility, rules_version)
           values (%s, %s, %s, %s, %s, %s, %s, %s)""",
        (game_id, session.game, session.status, session.host, Jsonb(dict(session.options)), session.version,
         session.options.get("visibility", "public"), session.rules_version),
    )
    conn.execute("insert into game_secrets (game_id, seed) values (%s, %s)", (game_id, seed))


def project(
    conn, game_id: uuid.UUID, session: Session, events: Iterable, to_act: frozenset[str], deadline: dt.datetime | None
) -> None:
    for event in events:
        if isinstance(event, SeatTaken):
            conn.execute(
                "insert into game_seats (game_id, seat, player_id) values (%s, %s, %s)",
                (game_id, event.seat, event.player),
            )
        elif isinstance(event, SeatLeft):
            conn.execute("delete from game_seats where game_id = %s and seat = %s", (game_id, event.seat))
        elif isinstance(event, SeatReplaced):
            conn.execute(
                """insert into game_seats (game_id, seat, player_id) values (%s, %s, %s)
                   on conflict (game_id, seat) do update set player_id = excluded.player_id""",
                (game_id, event.seat, event.player),
            )
    if any(isinstance(event, LIFECYCLE_EVENTS) for event in events):
        conn.execute("update games set bots = %s, visibility = %s, rematch = %s where id = %s",
                     (Jsonb(dict(session.life.bots)), session.options.get("visibility", "public"),
                      session.life.rematch, game_id))
    conn.execute(
        """update games set status = %s, host = %s, version = %s, to_act = %s, deadline = %s,
                  outcome = %s, updated_at = now()
           where id = %s""",
        (session.status, session.host, session.version, sorted(to_act), deadline, session.outcome, game_id),
    )


def seed_of(conn, game_id) -> bytes | None:
    row = conn.execute("select seed from game_secrets where game_id = %s", (game_id,)).fetchone()
    return bytes(row[0]) if row else None


_SUMMARY = """
    select g.id, g.game, g.status, g.host, g.options, g.version, g.to_act, g.deadline, g.outcome,
           g.created_at, g.updated_at, g.bots, g.visibility, g.rematch, g.rules_version,
           coalesce((select json_agg(json_build_object('seat', s.seat, 'player', s.player_id, 'name', p.name)
                                     order by s.seat)
                     from game_seats s join players p on p.id = s.player_id
                     where s.game_id = g.id), '[]') as seats
    from games g
"""


def game_summary(conn, game_id) -> dict | None:
    return conn.cursor(row_factory=dict_row).execute(_SUMMARY + " where g.id = %s", (game_id,)).fetchone()


def game_name(conn, game_id) -> str | None:
    row = conn.execute("select game from games where id = %s", (game_id,)).fetchone()
    return row[0] if row else None


TOTAL_CAP = 1000


def _listing_sources(game: str | None, status: str | None, player, viewer) -> tuple[list, str, list]:
    filters, params = [], []
    if game:
        filters.append("g.game = %s")
        params.append(game)
    if status:
        filters.append("g.status = %s")
        params.append(status)
    narrowed = "".join(f" and {clause}" for clause in filters)
    if player:
        # The games of one player: few, found through that player's seats.
        sources = [("""select g.id, g.updated_at from game_seats s join games g on g.id = s.game_id
                       where s.player_id = %s and (g.visibility = 'public' or exists (
                           select 1 from game_seats v where v.game_id = g.id and v.player_id = %s))""",
                    [player, viewer])]
    else:
        sources = [("select g.id, g.updated_at from games g where g.visibility = 'public'", []),
                   ("""select g.id, g.updated_at from game_seats v join games g on g.id = v.game_id
                       where v.player_id = %s and g.visibility = 'private'""", [viewer])]
    return sources, narrowed, params


def count_games(conn, game: str | None, status: str | None, player, viewer=None, cap: int = TOTAL_CAP) -> int:
    """How many games ``list_games`` would list with no limit, counted up to
    ``cap``: each source is read in the order of its index and cut at
    ``cap``, so the count costs the same with a thousand games or a million
    (a ``cap`` answer means that many or more)."""
    sources, narrowed, params = _listing_sources(game, status, player, viewer)
    union = " union all ".join(f"({sql}{narrowed} order by g.updated_at desc, g.id limit %s)" for sql, _ in sources)
    union_params = [value for _, head in sources for value in (*head, *params, cap)]
    row = conn.execute(f"select least(count(*), %s) from ({union}) counted", (cap, *union_params)).fetchone()
    return int(row[0])


def list_games(conn, game: str | None, status: str | None, player, limit: int, offset: int, viewer=None) -> list[dict]:
    """Public games, and the private games ``viewer`` sits in, most recently
    moved first.

    Each source of games is read in index order and cut at ``offset + limit``
    before the two are merged, so a page costs the same with a thousand games
    stored or a million (bench/scale.py); one condition over every game ("public,
    or the viewer sits there") would make PostgreSQL sort them all."""
    sources, narrowed, params = _listing_sources(game, status, player, viewer)
    enough = limit + offset
    union = " union all ".join(f"({sql}{narrowed} order by g.updated_at desc, g.id limit %s)" for sql, _ in sources)
    union_params = [value for _, head in sources for value in (*head, *params, enough)]
    sql = (f"with listed as ({union}) " + _SUMMARY +
           " join (select id from listed order by updated_at desc, id limit %s offset %s) page on page.id = g.id"
           " order by g.updated_at desc, g.id")
    return conn.cursor(row_factory=dict_row).execute(sql, (*union_params, limit, offset)).fetchall()


def inbox(conn, player_id) -> list[dict]:
    """The player's games: those waiting on the player first, soonest deadline first."""
    sql = """
        select g.id, g.game, g.status, g.version, g.to_act, g.deadline, g.outcome, g.updated_at, s.seat, g.rematch, g.bots,
               (g.status = 'active' and s.seat = any(g.to_act) and not g.bots ? s.seat) as your_turn
        from game_seats s join games g on g.id = s.game_id
        where s.player_id = %s and g.status <> 'cancelled'
        order by your_turn desc, g.deadline asc nulls last, g.updated_at desc
    """
    return conn.cursor(row_factory=dict_row).execute(sql, (player_id,)).fetchall()


def pending_deadlines(conn) -> list[tuple[Any, int, dt.datetime]]:
    return conn.execute(
        "select id, version, deadline from games where status = 'active' and deadline is not null"
    ).fetchall()


def pending_bot_turns(conn) -> list[tuple[Any, int, dt.datetime]]:
    """Active games in which a seat that a bot plays is to act."""
    return conn.execute(
        """select id, version, updated_at from games
           where status = 'active' and to_act && array(select jsonb_object_keys(bots))"""
    ).fetchall()


def awaiting_score(conn) -> list[Any]:
    return [row[0] for row in conn.execute("select id from games where status = 'scoring'").fetchall()]


# Keys remembered before they were scoped to a game (migration 0040).
UNSCOPED = "00000000-0000-0000-0000-000000000000"


def idempotent_response(conn, player_id, game_id, key: str) -> dict | None:
    return conn.cursor(row_factory=dict_row).execute(
        """select request_sha256, status, response, first_version, last_version, signed_by, signature
           from idempotency_keys
           where player_id = %s and game_id in (%s, %s) and key = %s
           order by game_id = %s limit 1""",
        (player_id, game_id, UNSCOPED, key, UNSCOPED),
    ).fetchone()


def remember_response(conn, player_id, game_id, key: str, request_sha256: bytes, status: int, response: dict) -> None:
    """Store the answer under the key; a UniqueViolation if the key is
    taken: in this game, or by an answer remembered before keys were scoped
    to a game (UNSCOPED), which is still the key's and is then written
    under again, so that it collides too."""
    conn.execute(
        """insert into idempotency_keys (player_id, game_id, key, request_sha256, status, response)
           values (%(player)s, case when exists (select 1 from idempotency_keys where player_id = %(player)s
                                                 and game_id = %(unscoped)s and key = %(key)s)
                                    then %(unscoped)s::uuid else %(game)s::uuid end,
                   %(key)s, %(sha256)s, %(status)s, %(response)s)""",
        {"player": player_id, "game": game_id, "unscoped": UNSCOPED, "key": key, "sha256": request_sha256,
         "status": status, "response": Jsonb(response)},
    )


def forget_idempotency_keys(conn, older_than, secrets_older_than=None) -> int:
    """Keys older than ``older_than`` go; answers holding a secret older than
    ``secrets_older_than`` (by default SECRET_ANSWER_MINUTES before the
    database's now) are forgotten, their keys kept so that a repeat is told."""
    from .idempotency import FORGOTTEN, SECRET_ANSWER_MINUTES

    conn.execute(
        "update idempotency_keys set response = %s where response ? 'secret' and created_at < coalesce(%s,"
        " now() - make_interval(mins => %s))", (Jsonb(FORGOTTEN), secrets_older_than, SECRET_ANSWER_MINUTES))
    return conn.execute("delete from idempotency_keys where created_at < %s", (older_than,)).rowcount
