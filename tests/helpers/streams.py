"""Live streams read in tests: server-sent events parsed, and a stream read message by message while it runs."""
from __future__ import annotations

import json

from tests.helpers.api import auth


def messages(chunks) -> list[dict]:
    """The data of each server-sent event in a stream's text (chunks of str or bytes)."""
    text = "".join(chunk.decode() if isinstance(chunk, bytes) else chunk for chunk in chunks)
    return [json.loads(line[len("data: "):]) for block in text.split("\n\n") for line in block.split("\n")
            if line.startswith("data: ")]


class Reader:
    """A holder's stream (`path`, with its token or none) read in the test client, message by message, while what
    it follows runs; `headers`, e.g. Last-Event-ID."""

    def __init__(self, client, path: str, token: str | None = None, headers: dict | None = None):
        self.response = client.get(path, buffered=False, headers={**(auth(token) if token else {}), **(headers or {})})
        assert self.response.status_code == 200 and self.response.mimetype == "text/event-stream"
        self.chunks = (chunk.decode() for chunk in self.response.response)
        self.text = ""  # everything read, heartbeats too
        self.got: list[dict] = []

    def read(self, chunks) -> None:
        for chunk in chunks:
            self.text += chunk
            self.got += messages([chunk])

    def upto(self, version: int) -> list[dict]:
        """Every message up to this version (the stream waits for new ones past it: read no further)."""
        while not self.got or self.got[-1]["version"] < version:
            self.read([next(self.chunks)])
        return self.got

    def to_the_end(self) -> list[dict]:
        """Every message until the stream ends (with its match or tournament)."""
        self.read(self.chunks)
        return self.got
