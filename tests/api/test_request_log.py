"""The request log is written in batches (api/service/logs.py)."""

import io
import logging
import time

from api.service.logs import BatchedLineHandler


class CountingStream(io.StringIO):
    writes = 0

    def write(self, text):
        self.writes += 1
        return super().write(text)


def _logger(handler):
    logger = logging.getLogger(f"test.batched.{id(handler)}")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    return logger


def test_many_info_lines_are_written_in_one_write():
    stream = CountingStream()
    handler = BatchedLineHandler(stream, interval=60)
    logger = _logger(handler)
    for n in range(100):
        logger.info("GET /v1/games/%s/view 304", n)
    assert stream.writes == 0, "nothing is written before the interval or a flush"
    handler.flush()
    assert stream.writes == 1
    assert stream.getvalue().splitlines() == [f"GET /v1/games/{n}/view 304" for n in range(100)]


def test_info_lines_reach_the_stream_within_the_interval():
    stream = CountingStream()
    logger = _logger(BatchedLineHandler(stream, interval=0.05))
    logger.info("one")
    deadline = time.monotonic() + 10
    while "one" not in stream.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert stream.getvalue() == "one\n"


def test_a_warning_is_written_at_once_with_the_lines_before_it():
    stream = CountingStream()
    logger = _logger(BatchedLineHandler(stream, interval=60))
    logger.info("before")
    logger.warning("trouble")
    assert stream.getvalue() == "before\ntrouble\n"


def test_a_full_batch_is_written_without_waiting_for_the_interval():
    stream = CountingStream()
    logger = _logger(BatchedLineHandler(stream, interval=60, max_bytes=100))
    for _ in range(20):
        logger.info("x" * 20)
    assert stream.writes >= 3 and len(stream.getvalue().splitlines()) >= 15


def test_a_line_reads_as_the_standard_formatter_writes_it_though_each_second_is_dated_once():
    from api.service.logs import LOG_FORMAT, LineFormatter

    ours, standard = LineFormatter(), logging.Formatter(LOG_FORMAT)
    for created in (1764650000.25, 1764650000.999, 1764650001.0, 1764650061.5):
        record = logging.LogRecord("boardlog.requests", logging.INFO, __file__, 1, "GET /v1/rules 200", None, None)
        record.created, record.msecs = created, (created - int(created)) * 1000
        assert ours.format(record) == standard.format(record)
