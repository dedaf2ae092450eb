"""The second verifier's tests: the API fixtures (for freshly played
games), and a table at the end of the run of every tamper case and who
caught it, printed whether or not output is captured."""

from __future__ import annotations

from tests.api.conftest import app, service  # noqa: F401  (fixtures for freshly played games)
from tests.verifier.harness import NOTES, TAMPER_TABLE, node  # noqa: F401  (node: the fixture that skips without it)


def pytest_terminal_summary(terminalreporter):
    if NOTES:
        terminalreporter.section("second verifier")
        for note in dict.fromkeys(NOTES):
            terminalreporter.write_line(note)
    if TAMPER_TABLE:
        terminalreporter.section("tamper cases: who caught them")
        rows = [("game", "case", "second verifier (node)", "boardlog audit"), *TAMPER_TABLE]
        widths = [max(len(row[i]) for row in rows) for i in range(4)]
        for n, row in enumerate(rows):
            terminalreporter.write_line("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
            if n == 0:
                terminalreporter.write_line("  ".join("-" * width for width in widths))
