"""Reading Server-Sent Events in tests, as a browser's EventSource does."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass
class Message:
    event: str  # "message" when unnamed
    data: str
    id: str | None
    retry: int | None = None

    @property
    def json(self):
        return json.loads(self.data)


def parse(text: str) -> tuple[list[Message], list[str], list[int]]:
    """(messages, comments, retry values) of a complete event-stream text."""
    messages, comments, retries = [], [], []
    event, data, last_id = None, [], None
    for line in text.replace("\r\n", "\n").split("\n"):
        if line == "":
            if data:
                messages.append(Message(event or "message", "\n".join(data), last_id))
            event, data = None, []
            continue
        if line.startswith(":"):
            comments.append(line[1:].strip())
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
        elif field == "id":
            last_id = value
        elif field == "retry" and value.isdigit():
            retries.append(int(value))
    return messages, comments, retries


def read_until(chunks, wanted: str, text: str = "") -> str:
    """An open stream's text (after ``text``, already read) up to the first
    whole message that holds ``wanted``."""
    for chunk in chunks:
        text += chunk.decode()
        if wanted in text and text.endswith("\n\n"):
            break
    return text
