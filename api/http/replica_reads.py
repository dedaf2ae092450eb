"""The HTTP side of cold reads on a replica (api/service/replica.py): the
``ColdReads`` of the application, the store a cold read reads, and the
``X-Read-From`` header that says which server answered."""

from __future__ import annotations

from flask import current_app, g

from ..service.replica import READ_FROM, ColdReads, check_at_start

EXTENSION = "boardlog_cold_reads"


def attach(app, service) -> None:
    """Cold reads for ``app``: on the replica app.config names (checked now:
    a sentence and no start for a bad one), else the primary only."""
    url = app.config.get("DATABASE_REPLICA_URL")
    if url:
        check_at_start(service.store.pool.conninfo, url)
    app.extensions[EXTENSION] = ColdReads.connect(service.store, url, pool_size=app.config.get("POOL_SIZE", 4))
    if url:
        app.after_request(_tell_who_answered)


def cold_reads() -> ColdReads | None:
    return current_app.extensions.get(EXTENSION)


def cold_store(stream_id: str, version: int | None = None):
    """The store a cold read of ``version`` of the stream (None: all of it, as
    the primary has it now) reads; the answer's X-Read-From says which."""
    from .context import service

    reads = cold_reads()
    if reads is None:
        return service().store
    store, source = reads.store_for(stream_id, version)
    if source is not None:
        g.cold_read = store
        g.cold_source = source
    return store


def _tell_who_answered(response):
    source = g.get("cold_source")
    if source is not None:
        fell_back = getattr(g.get("cold_read"), "fell_back", False)
        response.headers[READ_FROM] = "primary" if fell_back else source
    return response
