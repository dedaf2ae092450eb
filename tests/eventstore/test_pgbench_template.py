"""bench/cycles.py runs the command's own statement under pgbench from a
template of the statement a real POST sends (bench/pgbench_command.py). The
template must follow that statement: it once stopped matching when the
statement gained a column, and the bench failed without any test saying so."""

from __future__ import annotations

from bench.pgbench_command import capture, script


def test_the_pgbench_template_is_the_statement_a_command_post_sends_with_what_varies_as_variables(
        database_url, redis_url):
    captured = capture(database_url, redis_url, moves=3)
    template = captured["template"]
    assert template.startswith("select version as bench_v, outcome as bench_outcome, now() as bench_now"
                               " from boardlog_command(")
    for variable in (":bench_game", ":bench_player", ":bench_v", ":bench_c", ":bench_e"):
        assert variable in template
    assert captured["events"] >= 1
    assert script(captured, notify=True).count(r"\gset") == 2
