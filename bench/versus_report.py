"""What bench/versus_boardgameio.py prints: each side's CPU a move by
process, its rate, its bytes stored a move by table, and boardlog's figures
over boardgame.io's, all from the same run."""

from __future__ import annotations

import os
import statistics

from bench.cpu_split import PARTS

REDIS = "Redis"  # its server's CPU (INFO cpu), within the rest of the machine: boardlog's rounds only

KINDS = {"boardlog-post": "boardlog, the POST alone", "boardlog-move": "boardlog, view + POST",
         "bgio": "boardgame.io, the move", "boardlog-watch": "boardlog, watched", "bgio-watch": "boardgame.io, watched",
         "boardlog-move-compare": "--compare, view + POST"}
SHOWN = {PARTS[0]: "server, user", PARTS[1]: "server, kernel", PARTS[2]: "worker + notifier (boardlog)",
         PARTS[3]: "PostgreSQL backends of the database", PARTS[4]: "PostgreSQL backends that ended",
         PARTS[5]: "PostgreSQL's own processes", PARTS[6]: "the players (node driver)",
         PARTS[7]: "the rest of the machine", REDIS: "of which Redis (boardlog's rate limits...)"}
SERVER = PARTS[:2]  # the server's user and kernel time
# The server, the worker, the database's PostgreSQL backends and Redis. Not the backends that ended nor
# PostgreSQL's own processes: on a shared machine, other databases' (other work's) as much as the bench's.
SERVER_SIDE = (*PARTS[:4], REDIS)


def _sum(cpu: dict, parts) -> float:
    return sum(cpu.get(part, 0.0) for part in parts)


def report(sides: dict, setup: dict, loads: list[float], args) -> None:
    print(f"\nload average (1 min): {loads[0]:.1f} at the start, {min(loads[1:]):.1f}-{max(loads[1:]):.1f} after the "
          f"rounds, on {os.cpu_count()} CPUs; {args.concurrent} matches at once, {args.matches} a round, "
          f"{args.pairs} rounds of each side alternately")
    cpu = {kind: side.cpu() for kind, side in sides.items()}
    print("\nms of CPU a move (median of the rounds):")
    print(f"  {'':40}" + "".join(f"{KINDS[kind]:>26}" for kind in sides))
    for part in (*PARTS, REDIS):
        print(f"  {SHOWN[part]:40}" + "".join(f"{cpu[kind].get(part, 0.0):26.3f}" for kind in sides))
    for name, parts in (("server (user + kernel)", SERVER), ("server, worker, the db's backends, Redis", SERVER_SIDE),
                        ("everything (players, the rest included)", PARTS)):
        print(f"  {name:40}" + "".join(f"{_sum(cpu[kind], parts):26.3f}" for kind in sides))
    print(f"  {'moves/s (median; each round)':40}" + "".join(
        f"{statistics.median(side.rates):6.0f} ({', '.join(f'{r:.0f}' for r in side.rates)})".rjust(26)
        for side in sides.values()))
    bgio = cpu["bgio"]
    print("\nboardlog / boardgame.io, same run:")
    for kind in ("boardlog-post", "boardlog-move", "boardlog-move-compare"):
        if kind not in sides:
            continue
        ours = cpu[kind]
        rate = statistics.median(sides[kind].rates) / statistics.median(sides["bgio"].rates)
        print(f"  {KINDS[kind]}: server CPU a move {_sum(ours, SERVER) / _sum(bgio, SERVER):.2f}x (goal <= 1.0x); "
              f"server + worker {_sum(ours, PARTS[:3]) / _sum(bgio, SERVER):.2f}x; the database's PostgreSQL "
              f"backends {_sum(ours, PARTS[3:4]) / _sum(bgio, PARTS[3:4]):.2f}x; server, worker, backends "
              f"and Redis {_sum(ours, SERVER_SIDE) / _sum(bgio, SERVER_SIDE):.2f}x; moves/s {rate:.2f}x")
    print("  (server + worker: boardgame.io's server alone, it has no worker)")
    if "boardlog-move-compare" in sides:
        ours, theirs = cpu["boardlog-move"], cpu["boardlog-move-compare"]
        print(f"\nthis checkout / {args.compare}, the whole move, same run: server CPU a move "
              f"{_sum(ours, SERVER) / _sum(theirs, SERVER):.3f}x; server, worker, backends and Redis "
              f"{_sum(ours, SERVER_SIDE) / _sum(theirs, SERVER_SIDE):.3f}x; moves/s "
              f"{statistics.median(sides['boardlog-move'].rates) / statistics.median(sides['boardlog-move-compare'].rates):.3f}x")
    if "bgio-watch" in sides:
        print_spectators(sides, cpu)
    print_bytes(sides, setup)


def print_spectators(sides: dict, cpu: dict) -> None:
    """The watched rounds against the same move unwatched: CPU a move, and what
    the spectators added a move delivered (a move times the spectators who saw it)."""
    spectators = sides["bgio-watch"].spectators
    answered = {kind: sum(sides[kind].delivered) / sides[kind].moves for kind in ("boardlog-watch", "bgio-watch")}
    print(f"\nwith {spectators} spectators a match (moves they were sent a move: boardlog's streams "
          f"{answered['boardlog-watch']:.1f}, boardgame.io's pushes {answered['bgio-watch']:.1f}), ms a move:")
    for name, parts in (("server", SERVER), ("server, worker, the db's backends, Redis", SERVER_SIDE)):
        ours, theirs = _sum(cpu["boardlog-watch"], parts), _sum(cpu["bgio-watch"], parts)
        added = (ours - _sum(cpu["boardlog-move"], parts)) / spectators
        added_theirs = (theirs - _sum(cpu["bgio"], parts)) / spectators
        print(f"  {name}: {ours:.3f} against {theirs:.3f}, {ours / theirs:.2f}x; a move delivered, what the "
              f"spectators added: {added:.4f} against {added_theirs:.4f}, {added / added_theirs:.2f}x")


def print_bytes(sides: dict, setup: dict) -> None:
    """Bytes a move by table: live rows (pg_column_size) and relation size (pg_total_relation_size)."""
    played = {"boardlog": _merged([sides["boardlog-post"], sides["boardlog-move"]]), "bgio": _merged([sides["bgio"]])}
    for side, name in (("boardlog", "boardlog"), ("bgio", "boardgame.io")):
        tables, moves = played[side]
        made, made_moves = setup[side]
        print(f"\nbytes stored a move, {name} ({moves} moves played; the games' creation over the "
              f"{made_moves} moves of the games made): live rows (pg_column_size) / relation size (pg_total_relation_size)")
        print(f"  {'table':32}{'rows a move':>12}{'live B':>10}{'relation B':>12}{'creation: live B':>18}{'relation B':>12}")
        names = sorted(set(tables) | set(made), key=lambda t: -(tables.get(t, (0, 0, 0))[1] + made.get(t, (0, 0, 0))[1]))
        totals = [0.0] * 5
        for table in names:
            rows, live, total = (v / moves for v in tables.get(table, (0, 0, 0)))
            _, made_live, made_total = (v / made_moves for v in made.get(table, (0, 0, 0)))
            totals = [a + b for a, b in zip(totals, (rows, live, total, made_live, made_total))]
            print(f"  {table:32}{rows:12.2f}{live:10.0f}{total:12.0f}{made_live:18.0f}{made_total:12.0f}")
        print(f"  {'total':32}{totals[0]:12.2f}{totals[1]:10.0f}{totals[2]:12.0f}{totals[3]:18.0f}{totals[4]:12.0f}")
        played[side] = totals
    ours, theirs = played["boardlog"], played["bgio"]
    print(f"\nbytes a move, boardlog / boardgame.io: live rows, play {_ratio(ours[1], theirs[1])}, play + creation "
          f"{_ratio(ours[1] + ours[3], theirs[1] + theirs[3])}; relation size, play {_ratio(ours[2], theirs[2])}, "
          f"play + creation {_ratio(ours[2] + ours[4], theirs[2] + theirs[4])}")


def _ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.1f}x" if theirs else "(boardgame.io: none)"


def _merged(sides: list) -> tuple[dict, int]:
    tables: dict[str, list[int]] = {}
    for side in sides:
        for name, values in side.bytes.items():
            tables[name] = [a + b for a, b in zip(tables.get(name, [0, 0, 0]), values)]
    return tables, sum(side.moves for side in sides)


ANATOMY = ("events", "notifications", "idempotency_keys")


def anatomy(url: str) -> dict:
    """Where boardlog's bytes a row go: each column's mean pg_column_size in
    the tables that grow most a move, and the events by type (all rows:
    the games' creation and play, warm-up included)."""
    import psycopg
    from psycopg import sql

    out: dict = {}
    with psycopg.connect(url, autocommit=True) as conn:
        for table in ANATOMY:
            columns = [row[0] for row in conn.execute(
                "select attname from pg_attribute where attrelid = %s::regclass and attnum > 0 and not attisdropped"
                " order by attnum", (table,))]
            means = conn.execute(sql.SQL("select avg(pg_column_size(t.*)), {} from {} t").format(
                sql.SQL(", ").join(sql.SQL("avg(pg_column_size({}))").format(sql.Identifier(c)) for c in columns),
                sql.Identifier(table))).fetchone()
            out[table] = (float(means[0] or 0), {c: float(m or 0) for c, m in zip(columns, means[1:])})
        out["events by type"] = conn.execute(
            "select type, count(*), avg(pg_column_size(e.*)), avg(pg_column_size(data)), avg(pg_column_size(metadata))"
            " from events e group by type order by 2 desc").fetchall()
        out["notifications by kind"] = conn.execute(
            "select kind, count(*), avg(pg_column_size(n.*)) from notifications n group by kind order by 2 desc").fetchall()
    return out


def print_anatomy(found: dict) -> None:
    print("\nwhere boardlog's bytes go (mean bytes; pg_column_size of each column, of the row):")
    for table in ANATOMY:
        row, columns = found[table]
        biggest = sorted(columns.items(), key=lambda c: -c[1])
        print(f"  {table} row {row:.0f} B: " + ", ".join(f"{c} {m:.0f}" for c, m in biggest))
    print("  events by type (rows, row B, data B, metadata B): " + "; ".join(
        f"{t} {n} x {r:.0f}/{d:.0f}/{m:.0f}" for t, n, r, d, m in found["events by type"]))
    print("  notifications by kind (rows x row B): " + "; ".join(
        f"{kind} {n} x {r:.0f}" for kind, n, r in found["notifications by kind"]))
