"""The one way boardlog connects to Redis: ``redis_client(REDIS_URL)``, used
by the API (rate limits, stream leases, tickets, the scheduler it enqueues
with), the worker, its work horses, its RQ scheduler and its sweeper.

REDIS_URL is either a URL redis-py reads (``redis://``, ``rediss://``,
``unix://``: ``Redis.from_url``, exactly as before), or names Sentinels:

    redis+sentinel://[[user]:password@]host1:26379[,host2:26379...]/master-name[/db][?sentinel_password=...]

Then the client is redis-py's ``Sentinel(hosts).master_for(master-name)``:
each new connection asks the Sentinels where the master is, and a connection
that finds the old master gone (refused, or answering read-only once it came
back as a replica) is dropped, so that the next command goes to the new one.
The user and password are the master's (and its replicas'); the Sentinels'
own password, if they have one, is ``sentinel_password``.

``check_redis`` is what a process runs once as it starts: Sentinels that
answer but watch no master of that name stop it with a sentence (a setting
that will not mend itself); no Sentinel answering is an outage, said in one
sentence, which the process rides out as it rides out a plain Redis that is
down.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .settings import SettingError

SENTINEL_SCHEME = "redis+sentinel"
DEFAULT_SENTINEL_PORT = 26379
# A Sentinel is asked one short question; one that hangs must not hold a
# request or a worker longer than a Redis that hangs would.
SENTINEL_TIMEOUT = 2.0
FORM = f"{SENTINEL_SCHEME}://host:26379[,host:26379...]/master-name[/db]"


@dataclass(frozen=True)
class SentinelAddress:
    sentinels: tuple[tuple[str, int], ...]
    master_name: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_password: str | None = None

    def hosts(self) -> str:
        return ", ".join(f"{host}:{port}" for host, port in self.sentinels)


def _refuse(url: str, why: str) -> SettingError:
    shown = url.split("?", 1)[0]  # never echo a password: not the query's, nor the userinfo's
    if "@" in shown:
        shown = f"{SENTINEL_SCHEME}://…@{shown.rsplit('@', 1)[1]}"
    return SettingError(f"REDIS_URL must be {FORM}, not {shown[:80]!r}: {why}")


def sentinel_address(url: str | None) -> SentinelAddress | None:
    """The Sentinels a REDIS_URL names, or None for any other URL (left to redis-py)."""
    scheme = (url or "").partition("://")[0].lower()
    if scheme.endswith("+sentinel") and scheme != SENTINEL_SCHEME:
        raise _refuse(url, f"{scheme}:// is not supported (no TLS to the Sentinels or the master)")
    if scheme != SENTINEL_SCHEME:
        return None
    parts = urlsplit(url)
    userinfo, _, hostlist = parts.netloc.rpartition("@")
    username, _, password = userinfo.partition(":")
    sentinels = []
    for each in hostlist.split(","):
        host, port = _host_port(each.strip())
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise _refuse(url, f"{each.strip() or 'an empty host'!r} is not host:port")
        sentinels.append((host, int(port)))
    path = [unquote(piece) for piece in parts.path.split("/")[1:]]
    if not path or not path[0]:
        raise _refuse(url, "the path names no master (the name the Sentinels monitor, as in sentinel.conf)")
    if len(path) > 2 or (len(path) == 2 and not path[1].isdigit()):
        raise _refuse(url, "after the master's name comes at most the database number")
    query = parse_qs(parts.query)
    unknown = sorted(set(query) - {"sentinel_password"})
    if unknown:
        raise _refuse(url, f"unknown parameter {unknown[0]!r} (the only one is sentinel_password)")
    return SentinelAddress(
        sentinels=tuple(sentinels), master_name=path[0], db=int(path[1]) if len(path) == 2 and path[1] else 0,
        username=unquote(username) or None, password=unquote(password) or None,
        sentinel_password=query.get("sentinel_password", [None])[0])


def _host_port(text: str) -> tuple[str, str]:
    """``host:port``, ``host`` (port 26379) or ``[ipv6]:port``."""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        return host, rest[1:] if rest.startswith(":") else (rest or str(DEFAULT_SENTINEL_PORT))
    host, colon, port = text.partition(":")
    return host, port if colon else str(DEFAULT_SENTINEL_PORT)


# Connections a client keeps to Redis at most. A command that finds them all
# in use waits for one (up to its socket timeout, else FREE_CONNECTION_WAIT
# seconds) instead of failing: redis-py 8 caps a pool at 100 connections by
# default and raises "Too many connections" past them, which a herd of
# reconnecting browsers reached (greenlets descheduled mid-command hold
# theirs), and each such failure refused a stream ticket (401).
MAX_CONNECTIONS = 200
FREE_CONNECTION_WAIT = 20.0


def redis_client(url: str, **options) -> Redis:
    """A client of the Redis REDIS_URL names: its master, wherever the
    Sentinels say it is now, when it names Sentinels. ``options`` are
    redis-py's (socket_timeout, socket_connect_timeout...), for the master's
    connections; the Sentinels' own time out as quickly, or after
    SENTINEL_TIMEOUT. Either way at most MAX_CONNECTIONS connections, and a
    command waits for a free one rather than failing."""
    from redis import BlockingConnectionPool

    wait = options.get("socket_timeout") or FREE_CONNECTION_WAIT
    address = sentinel_address(url)
    if address is None:
        pool = BlockingConnectionPool.from_url(url, max_connections=MAX_CONNECTIONS, timeout=wait, **options)
        client = Redis(connection_pool=pool)
        client.auto_close_connection_pool = True  # as from_url's: closing the client closes its pool
        return client
    from redis.sentinel import Sentinel

    sentinels = Sentinel(list(address.sentinels), sentinel_kwargs=_sentinel_options(address, options))
    return sentinels.master_for(address.master_name, db=address.db, username=address.username,
                                password=address.password, connection_pool_class=_blocking_sentinel_pool(),
                                max_connections=MAX_CONNECTIONS, timeout=wait, **options)


def _blocking_sentinel_pool():
    """redis-py's pool of a Sentinels' master, waiting for a free connection as BlockingConnectionPool does."""
    from redis import BlockingConnectionPool
    from redis.sentinel import SentinelConnectionPool

    class BlockingSentinelConnectionPool(SentinelConnectionPool, BlockingConnectionPool):
        pass

    return BlockingSentinelConnectionPool


def _sentinel_options(address: SentinelAddress, options: dict) -> dict:
    return {"socket_timeout": options.get("socket_timeout") or SENTINEL_TIMEOUT,
            "socket_connect_timeout": options.get("socket_connect_timeout") or SENTINEL_TIMEOUT,
            "password": address.sentinel_password}


def check_redis(url: str | None) -> str | None:
    """Once, as a process starts. Nothing for a plain URL (its Redis may be
    down: that is an outage, ridden out). For Sentinels: a SettingError when
    those that answer watch no master of that name; else the sentence saying
    why there is no master to use now (no Sentinel answers, or they hold it
    down), or None when there is one."""
    address = sentinel_address(url)
    if address is None:
        return None
    watched: set[str] = set()
    answered, errors = [], []
    options = _sentinel_options(address, {})
    for host, port in address.sentinels:
        try:
            with Redis(host, port, **options) as sentinel:
                masters = sentinel.sentinel_masters()
        except (RedisConnectionError, RedisTimeoutError, ResponseError, OSError) as error:
            errors.append(f"{host}:{port} ({_reason(error)})")
            continue
        answered.append(f"{host}:{port}")
        watched.update(masters)
        state = masters.get(address.master_name)
        if state and state["is_master"] and not state["is_sdown"] and not state["is_odown"]:
            return None
    if not answered:
        return f"no Sentinel of REDIS_URL answers ({'; '.join(errors)}): Redis is unreachable until one does"
    if address.master_name not in watched:
        names = ", ".join(sorted(watched)) or "none at all"
        raise SettingError(f"REDIS_URL names the master {address.master_name!r}, which the Sentinels at "
                           f"{', '.join(answered)} do not monitor (they monitor: {names}); give the name of a "
                           f"'sentinel monitor' line of their sentinel.conf")
    return (f"the Sentinels at {', '.join(answered)} hold the master {address.master_name!r} down: Redis is "
            f"unreachable until they promote a replica or it comes back")


def why_unreachable(error: Exception) -> str:
    """A Redis error as a log line may say it: redis-py's "no master" error
    spells out every Sentinel client's repr; this names the master only."""
    from redis.sentinel import MasterNotFoundError

    if isinstance(error, MasterNotFoundError):
        name = str(error).partition(" : ")[0].removeprefix("No master found for ")
        return f"no Sentinel of REDIS_URL names a master for {name} now"
    return _reason(error)


def _reason(error: Exception) -> str:
    text = str(error).strip() or type(error).__name__
    return text.rstrip(".")
