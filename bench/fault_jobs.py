"""Faults behind the API: a webhook receiver down for minutes while the games
it is told about go on (every notification must arrive once it is back, at
least once, counted by ``webhook-id``), and a bot's job SIGKILLed in the
middle of its move (the move must happen, once)."""

from __future__ import annotations

import signal
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import psycopg

from bench.api import free_port
from bench.fault_stack import Driver, Stack, new_game, new_games


class Receiver:
    """A webhook endpoint that counts each delivery by its ``webhook-id``;
    ``down()`` closes its socket (connections are refused) until ``up()``."""

    def __init__(self):
        self.port = free_port()
        self.ids: Counter = Counter()
        self.when: dict[str, float] = {}
        self.server: ThreadingHTTPServer | None = None
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                message = self.headers.get("webhook-id", "")
                receiver.ids[message] += 1
                receiver.when.setdefault(message, time.monotonic())
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.handler = Handler

    def up(self) -> None:
        ThreadingHTTPServer.allow_reuse_address = True
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), self.handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def down(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def webhook_receiver_down(stack: Stack, down: float, games_count: int = 4, before: float = 15,
                          after: float = 15, settle: float = 240) -> tuple[str, str, dict]:
    receiver = Receiver()
    receiver.up()
    games = new_games(stack.base, "hook", games_count)
    hooks = []
    failures: Counter = Counter()
    for _, seats in games:
        for player in seats.values():
            answer = player.call("POST", "/v1/players/me/webhooks",
                                 json={"url": f"http://127.0.0.1:{receiver.port}/hooks/{player.id}"})
            if answer.status_code != 201:
                failures[f"webhook registration {answer.status_code}"] += 1
                continue
            hooks.append(answer.json()["id"])
    driver = Driver(games, threads=2, pause=1.0)
    driver.start()
    time.sleep(before)
    receiver.down()
    time.sleep(down)
    receiver.up()
    back = time.monotonic()
    time.sleep(after)
    driver.stop()
    # Until every delivery is delivered or given up (each waits out its backoff first).
    started = time.monotonic()
    with psycopg.connect(stack.url, autocommit=True) as conn:
        while time.monotonic() - started < settle:
            open_ = conn.execute("select count(*) from deliveries where webhook_id = any(%s::uuid[])"
                                 " and status = 'pending'", (hooks,)).fetchone()[0]
            if open_ == 0:
                break
            time.sleep(1)
        time.sleep(3)  # notifications of the last moves
        expected = {row[0] for row in conn.execute(
            "select n.id from notifications n join webhooks w on w.player_id = n.player_id and n.kind = any(w.kinds)"
            " where w.id = any(%s::uuid[]) and n.created_at >= w.created_at", (hooks,))}
        statuses = Counter(dict(conn.execute(
            "select status, count(*) from deliveries where webhook_id = any(%s::uuid[]) group by 1", (hooks,))))
        refused = conn.execute(
            "select count(*) from delivery_attempts a join deliveries d on d.id = a.delivery_id"
            " where d.webhook_id = any(%s::uuid[]) and a.status_code is null", (hooks,)).fetchone()[0]
        in_a_row = _most_failures_in_a_row(conn, hooks)
        disabled = conn.execute("select count(*) from webhooks where id = any(%s::uuid[]) and disabled_at is not null",
                                (hooks,)).fetchone()[0]
    receiver.down()
    lost = expected - set(receiver.ids)
    twice = sum(1 for n in receiver.ids.values() if n > 1)
    late = [receiver.when[i] - back for i in expected if i in receiver.when and receiver.when[i] > back]
    failures += driver.failures
    measured = (f"{len(hooks)} webhooks of {games_count} games' players; receiver down {down:.0f} s "
                f"({before:.0f} s into play); {sum(driver.accepted.values())} moves; "
                f"{len(expected)} notifications, {len(expected & set(receiver.ids))} arrived ({twice} twice, as "
                f"at-least-once allows), {refused} attempts refused while down; deliveries {dict(statuses)}; "
                f"most attempts failed in a row at one endpoint {in_a_row}; {disabled} webhooks disabled; last arrival {max(late, default=0):.0f} s after it was back"
                + (f"; FAILED: {dict(failures)}" if failures else ""))
    return (f"webhook receiver down {down:.0f} s, then back", measured,
            {"lost": len(lost) + statuses.get("dead", 0), "failed": sum(failures.values()),
             "5xx_not_503": sum(n for code, n in driver.codes.items() if code >= 500)})


def _most_failures_in_a_row(conn, hooks) -> int:
    """The longest run of failed attempts at one endpoint (what disabling counts)."""
    most = 0
    for hook in hooks:
        run = 0
        for (status,) in conn.execute(
                "select a.status_code from delivery_attempts a join deliveries d on d.id = a.delivery_id"
                " where d.webhook_id = %s order by a.at, a.id", (hook,)):
            run = run + 1 if status is None or status >= 300 else 0
            most = max(most, run)
    return most


def bot_job_killed(stack: Stack, kills: int = 5) -> tuple[str, str, dict]:
    """``kills`` times: a human moves, the bench holds the game's row so that
    the bot's job waits inside its transaction, then SIGKILLs the process
    running that job and lets go; the bot's move must come (made by the job
    again) and be stored once."""
    import psutil

    failures: Counter = Counter()
    done, once, waits = 0, 0, []
    for n in range(kills):
        game, seats = new_game(stack.base, f"bot-{n}", {"bots": {"p2": "random"}})
        human = next(iter(seats.values()))
        version = _play_until_bot(human, game, seats)
        if version is None:
            failures["the bot never came to act"] += 1
            continue
        with psycopg.connect(stack.url) as blocker, psycopg.connect(stack.url, autocommit=True) as watcher:
            blocker.execute("select 1 from games where id = %s for update", (game,))
            port = _wait(lambda: (watcher.execute(
                "select client_port from pg_stat_activity where datname = current_database()"
                " and wait_event_type = 'Lock' and query ilike 'update games%%'").fetchone() or [None])[0], 60)
            victim = None
            if port is not None:
                family = [p for w in stack.workers if w.poll() is None
                          for p in psutil.Process(w.pid).children(recursive=True)]
                victim = next((p for p in family for c in p.net_connections("tcp") if c.laddr.port == port), None)
            if victim is None:
                failures["no bot job found waiting inside its move"] += 1
                blocker.rollback()
                continue
            victim.send_signal(signal.SIGKILL)
            victim.wait(10)
            blocker.rollback()
        killed = time.monotonic()
        moved = _wait(lambda: _bot_batches(stack.url, game, version) or None, 120)
        if not moved:
            failures["the bot's move never came after its job was killed"] += 1
            continue
        waits.append(time.monotonic() - killed)
        done += 1
        once += moved == 1
    died = sum(1 for w in stack.workers if w.poll() is not None)
    measured = (f"{kills} bot jobs SIGKILLed while inside their move's transaction (the game's row held); "
                f"{done} moves made afterwards, {once} of them stored once; made again within "
                f"{max(waits, default=0):.1f} s at most" + (f"; FAILED: {dict(failures)}" if failures else ""))
    return ("a bot's job SIGKILLed mid-move", measured,
            {"lost": kills - done, "duplicated": done - once, "failed": sum(failures.values()), "workers_died": died})


def _play_until_bot(human, game: str, seats: dict) -> int | None:
    """Move the human's seat until the bot's seat is to act; the version then."""
    for _ in range(20):
        summary = human.call("GET", f"/v1/games/{game}").json()
        if summary["status"] != "active":
            return None
        if summary["to_act"] and summary["to_act"][0] not in seats:
            return summary["version"]
        if not summary["to_act"]:
            time.sleep(0.2)
            continue
        command = human.call("GET", f"/v1/games/{game}/legal-commands").json()["commands"][0]
        human.call("POST", f"/v1/games/{game}/commands", json=command,
                   headers={"If-Match": f'"{summary["version"]}"'})
    return None


def _bot_batches(url: str, game: str, version: int) -> int:
    """How many transactions stored a bot's decision taken at ``version``."""
    with psycopg.connect(url) as conn:
        return conn.execute(
            "select count(distinct tx_id) from events where stream_id = %s and metadata->>'bot' is not null"
            " and (metadata->>'decided_at')::int = %s", (f"game-{game}", version)).fetchone()[0]


def _wait(probe, seconds: float):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.05)
    return None
