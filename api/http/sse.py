"""The text of one Server-Sent Events message (WHATWG HTML, "Server-sent events")."""

from __future__ import annotations


def message(event: str | None, data: str, id: int | None = None) -> str:
    head = (f"id: {id}\n" if id is not None else "") + (f"event: {event}\n" if event else "")
    return f"{head}data: {data}\n\n"
