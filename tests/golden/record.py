"""Record golden games: real games played through the API on a real
PostgreSQL, finished, scored, and exported, with their final views and
standings written beside them.

    DATABASE_URL=postgresql://... python tests/golden/record.py GAME [NAME ...]

Golden files are only ever ADDED (tests/golden/MANIFEST.sha256 pins every
one; a changed or regenerated file fails the tests). To record games of a
released version, run this script with that release's code first on the path,
e.g. ``git archive <tag> | tar -x -C /tmp/old && PYTHONPATH=/tmp/old python
tests/golden/record.py coronation``: a golden game is worth something because
an earlier release wrote it. It uses only what every release has: the app
factory, the command service, the export endpoint.

The specs are each game's, declared in its package (domain/games/<game>/
golden.py, ``GOLDEN``). Each plays seeded random legal commands; a spec with a ``timeouts``
share lets that share of turns pass their deadline instead (the real
deadline path, ``fire_deadline``); ``accept`` picks, among seeds, a game that
ended the way the spec wants to cover.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import random
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import psycopg

HERE = Path(__file__).resolve().parent


@dataclass
class Spec:
    name: str
    game: str
    options: dict
    timeouts: float = 0.0
    accept: Callable[[str], bool] = lambda outcome: True
    seeds: range = field(default_factory=lambda: range(1, 60))
    max_commands: int = 4000

    @classmethod
    def of(cls, game: str, golden) -> "Spec":
        """The spec of a golden game a game's package declares (domain.kit.golden)."""
        return cls(golden.name, game, dict(golden.options), golden.timeouts, golden.accepts, golden.seeds)


def _specs() -> dict[str, list[Spec]]:
    """Every hosted game's golden specs, as its package declares them (golden.py)."""
    from domain import games

    return {name: [Spec.of(name, golden) for golden in rules.golden] for name, rules in games.REGISTRY.items()}


SPECS = _specs()


class Seat:
    def __init__(self, client, name: str):
        self.client = client
        answer = client.post("/v1/players", json={"name": name})
        assert answer.status_code == 201, answer.json
        self.headers = {"Authorization": f"Bearer {answer.json['token']}"}

    def get(self, path):
        return self.client.get(path, headers=self.headers)

    def post(self, path, json=None, headers=None):
        return self.client.post(path, json=json if json is not None else {}, headers={**self.headers, **(headers or {})})


class Clock:
    """The service's "now" for a recording: real time until a deadline is to
    fire, then the deadline itself (a timed golden game would otherwise wait
    out its real turn_seconds)."""

    def __init__(self):
        self.now = dt.datetime.now(dt.timezone.utc)

    def __call__(self) -> dt.datetime:
        return self.now

    def pass_to(self, deadline: str) -> None:
        self.now = max(self.now, dt.datetime.fromisoformat(deadline) + dt.timedelta(seconds=1))


def play(client, service, spec: Spec, seed: int, clock: Clock):
    """One game to its end; its id, or None if it ran past max_commands.
    Timed games run on today's defaults: a seat that times out too often is
    abandoned, and its bot then plays its turns here (no worker runs)."""
    rng = random.Random(f"{spec.game}/{spec.name}/{seed}")
    from domain import games
    from domain.engine import InvalidOption, resolve_options

    rules = games.get(spec.game)
    own = {option.name for option in rules.options}  # the engine's (turn_seconds, abandon_after...) make no seats
    options = {k: v for k, v in spec.options.items() if k in own}
    try:
        count = len(rules.seats(resolve_options(rules.options, options)))
    except InvalidOption as refused:
        raise SystemExit(f"{spec.name}: the server refused its options {spec.options}: {refused}; "
                         "fix the spec in tests/golden/record.py") from None
    seats = [Seat(client, f"golden-{spec.name}-{seed}-{i}") for i in range(count)]
    created = seats[0].post("/v1/games", json={"game": spec.game, "options": spec.options})
    if created.status_code != 201:
        raise SystemExit(f"{spec.name}: the server refused its options {spec.options}: {created.json.get('detail')}; "
                         f"fix the spec in tests/golden/record.py")
    game_id = created.json["id"]
    for seat in seats[1:]:
        assert seat.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    assert seats[0].post(f"/v1/games/{game_id}/start").status_code == 200
    for step in range(spec.max_commands):
        views = [seat.get(f"/v1/games/{game_id}/view").json for seat in seats]
        version = views[0]["version"]
        if views[0]["status"] != "active":
            break
        if spec.timeouts and rng.random() < spec.timeouts:
            deadline = client.get(f"/v1/games/{game_id}").json.get("deadline")
            if deadline is None:
                raise SystemExit(f"{spec.name} asks for timeouts but its game has no deadline: give it turn_seconds")
            clock.pass_to(deadline)
            assert service.fire_deadline(uuid.UUID(game_id), version), f"the deadline at version {version} did not fire"
            continue
        bots = views[0].get("bots") or {}
        if any(seat in bots for seat in views[0]["to_act"]):
            assert service.bots.play_bots(uuid.UUID(game_id), version), f"the bots did not move at version {version}"
            continue
        acting = [(seat, view) for seat, view in zip(seats, views) if view["seat"] in view["to_act"]]
        seat, _ = rng.choice(acting)
        commands = seat.get(f"/v1/games/{game_id}/legal-commands").json["commands"]
        answer = seat.post(f"/v1/games/{game_id}/commands", json=rng.choice(commands),
                           headers={"Idempotency-Key": f"{step}"})
        assert answer.status_code == 200, answer.json
    else:
        return None
    assert service.score(uuid.UUID(game_id))
    return game_id


def record(client, service, spec: Spec, clock: Clock, into: Path = HERE) -> Path:
    """The first of the spec's seeds that ends as it wants, exported into ``into``/<game>/."""
    for seed in spec.seeds:
        game_id = play(client, service, spec, seed, clock)
        if game_id is None:
            continue
        final = client.get(f"/v1/games/{game_id}/view").json
        # The game's own outcome, as a replay of the log gives it: the view's says it with the players' names.
        outcome = service.load(uuid.UUID(game_id))[1].outcome
        if not spec.accept(outcome):
            continue
        folder = into / spec.game
        folder.mkdir(exist_ok=True)
        export = client.get(f"/v1/games/{game_id}/export")
        assert export.status_code == 200
        target = folder / f"{spec.name}.jsonl"
        if target.exists():
            raise SystemExit(f"{target} exists: golden files are only ever added, never regenerated")
        target.write_bytes(export.get_data())
        expected = {
            "game": spec.game,
            "options": spec.options,
            "seed_of_the_bot": seed,
            "version": final["version"],
            "status": final["status"],
            "outcome": outcome,
            "standings": final["standings"],
            "final_view": final["view"],
        }
        (folder / f"{spec.name}.expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
        print(f"{target}: seed {seed}, {final['version']} events, {outcome}")
        return target
    raise SystemExit(f"no seed of {spec.name} gave an accepted ending")


@contextlib.contextmanager
def recorder(url: str):
    """A migrated database at ``url`` and an app on it with a recording's
    clock: (client, service, clock) for ``record``."""
    from api.http.app import create_app
    from api.service.games import GameService
    from eventstore import PostgresEventStore, migrate

    migrate(url)
    store = PostgresEventStore.connect(url, min_size=1, max_size=4)
    clock = Clock()
    try:
        service = GameService(store, clock=clock)
        app = create_app({"RATE_LIMIT_PER_MINUTE": 0}, service=service)
        yield app.test_client(), service, clock
    finally:
        store.close()


def chosen_specs(argv: list[str]) -> list[Spec]:
    """The specs ``argv`` names (GAME [NAME ...]), or SystemExit saying what may be named."""
    if not argv or argv[0] not in SPECS:
        raise SystemExit("usage: python tests/golden/record.py GAME [NAME ...], GAME one of "
                         + ", ".join(sorted(SPECS)))
    specs, names = SPECS[argv[0]], set(argv[1:])
    unknown = names - {spec.name for spec in specs}
    if unknown:
        raise SystemExit(f"{argv[0]} has no golden spec {', '.join(sorted(unknown))}; its specs are "
                         + ", ".join(spec.name for spec in specs))
    return [spec for spec in specs if not names or spec.name in names]


def main(argv: list[str]) -> int:
    specs = chosen_specs(argv)
    base = os.environ.get("DATABASE_URL")
    if not base:
        raise SystemExit("set DATABASE_URL to a PostgreSQL server where a scratch database may be created")
    database = f"golden_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'create database "{database}"')
    url = base.rsplit("/", 1)[0] + f"/{database}"
    try:
        with recorder(url) as (client, service, clock):
            for spec in specs:
                record(client, service, spec, clock)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'drop database if exists "{database}" with (force)')
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
