"""Log lines written in batches: the request log costs a write(2) per batch,
not one per request.

With a line per request, each poll paid for its own write to standard
error, and a log collector that reads the pipe slowly made every request
wait on it: profiled under the production command with many players polling,
the request log was a third of the workers' busy time. Lines now collect in
memory and are written together every ``interval`` seconds (0.2 by default),
or at once when ``max_bytes`` have gathered, when a line is a warning or
worse (a person watching the log sees a failure when it happens, and it is
not lost with a crashing process), and when the process exits.

What that costs: an INFO line may appear up to ``interval`` late, and lines
of a process killed with SIGKILL in the last ``interval`` are lost.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time


class BatchedLineHandler(logging.Handler):
    def __init__(self, stream=None, interval: float = 0.2, max_bytes: int = 64 * 1024):
        super().__init__()
        self.stream = stream
        self.interval = interval
        self.max_bytes = max_bytes
        self._lines: list[str] = []
        self._size = 0
        self._writer_pid: int | None = None  # the process whose writer thread runs (none yet after a fork)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record) + "\n"
        except Exception:
            self.handleError(record)
            return
        self._lines.append(line)  # emit runs under the handler's lock (logging.Handler.handle)
        self._size += len(line)
        if record.levelno >= logging.WARNING or self._size >= self.max_bytes:
            self._write()
        elif self._writer_pid != os.getpid():
            self._start_writer()

    def flush(self) -> None:
        with self.lock:
            self._write()

    def _write(self) -> None:
        if not self._lines:
            return
        text, self._lines, self._size = "".join(self._lines), [], 0
        stream = self.stream or sys.stderr
        try:
            stream.write(text)
            stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: the log is lost, the request is not
            pass

    def _start_writer(self) -> None:
        self._writer_pid = os.getpid()
        threading.Thread(target=self._every_interval, name="log-writer", daemon=True).start()

    def _every_interval(self) -> None:
        pid = os.getpid()
        while self._writer_pid == pid:
            time.sleep(self.interval)
            self.flush()


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class LineFormatter(logging.Formatter):
    """LOG_FORMAT, with each second's date written once rather than once a
    line (strftime was a third of what a request log line cost)."""

    def __init__(self, fmt: str = LOG_FORMAT):
        super().__init__(fmt)
        self._second: tuple[int, str] | None = None

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        if datefmt is not None:
            return super().formatTime(record, datefmt)
        second = int(record.created)
        known = self._second
        if known is None or known[0] != second:
            known = self._second = (second, time.strftime(self.default_time_format, self.converter(second)))
        return self.default_msec_format % (known[1], record.msecs)


def configure_logging(level: int = logging.INFO) -> None:
    # Fields no line prints, which the logging module would otherwise gather
    # for every record (the logging HOWTO's "Optimization"): the caller's
    # frame, thread and task. Not the process id: gunicorn's own lines print
    # it (%(process)d), and without it every worker's exit logged a
    # "--- Logging error ---" traceback.
    logging._srcfile = None
    logging.logThreads = logging.logMultiprocessing = False
    if hasattr(logging, "logAsyncioTasks"):
        logging.logAsyncioTasks = False
    root = logging.getLogger()
    if not root.handlers:
        handler = BatchedLineHandler(sys.stderr)
        handler.setFormatter(LineFormatter())
        root.addHandler(handler)
    root.setLevel(level)
