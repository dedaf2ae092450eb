"""A long game's table is drawn from its current view without its history:
a game of more than 5,000 events (a lobby joined and left 2,500 times, real
events every load must get past) is opened in Chromium, and the page reads
only the log's last 30 events and the first (whose GameCreated names the data
files), never the rest."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from api.service.games import GameService
from api.service.players import Players
from eventstore import PostgresEventStore, migrate
from eventstore.servers import temporary_database

from .conftest import _served, api

EVENTS = 5_000
LOG_TAIL = 30  # api/web/static/table.js


@pytest.fixture(scope="module")
def long_game(database_url, redis_url, tmp_path_factory):
    """``boardlog serve`` on a database of its own holding one started
    Cronberg game of more than EVENTS events: (its URL, the game's id)."""
    with temporary_database(database_url, prefix="boardlog_web_long") as own:
        migrate(own)
        store = PostgresEventStore.connect(own, min_size=1, max_size=2)
        try:
            service, players = GameService(store), Players(store.pool)
            (host, _), (guest, _), (churner, _) = (players.register(name) for name in ("host", "guest", "churner"))
            game_id = service.create(host, "cronberg", {"players": 2}, None)
            while store.stream_version(f"game-{game_id}") < EVENTS:
                service.join(game_id, churner, None)
                service.leave(game_id, churner)
            service.join(game_id, guest, None)
            service.start(game_id, host)
        finally:
            store.close()
        for url in _served(own, redis_url, tmp_path_factory):
            yield url, str(game_id)


@pytest.fixture(scope="module")
def base_url(long_game):
    return long_game[0]


def test_a_table_of_a_game_of_5000_events_reads_only_the_logs_tail_and_the_first_event(long_game, person):
    base_url, game_id = long_game
    _, summary = api(base_url, "GET", f"/v1/games/{game_id}")
    assert summary["version"] > EVENTS
    watched = person()
    page = watched.open(f"/#/watch/{game_id}")
    page.wait_for_selector('#board svg[data-drawn-from="data"]')
    page.wait_for_selector(f'#table[data-version="{summary["version"]}"]')
    reads = [parse_qs(urlsplit(url).query) for url in watched.requests if urlsplit(url).path.endswith("/events")]
    assert reads, "the page read no log at all"
    for query in reads:
        after, limit = int(query["after"][0]), int(query["limit"][0])
        first_event = after == 0 and limit == 1
        assert first_event or (after >= summary["version"] - LOG_TAIL and limit <= LOG_TAIL), query
    assert page.locator("#log li").count() <= LOG_TAIL
    assert not watched.console_errors
