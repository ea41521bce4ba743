"""The subscribers of bench/live.py's figure: one process holding every match stream through one selector, so that a
thousand subscribers cost the host one light process beside the server they measure.

    python -m bench.subscribers SPEC OUT

SPEC is JSON: {"port": P, "streams": [[match id, a seat's token or null for a spectator], ...]}. The process opens
every stream (from version 0; one refused fails the process), prints "ready" once each has told its backlog, then
reads its deadline (a time.monotonic() reading) from stdin. At the deadline it resets them all, prints "closed" and
writes OUT as JSON: {"received": each stream's [version, time.time()] at each message's arrival, in SPEC's order,
"ended": how many streams the server closed first}.
"""
from __future__ import annotations

import json
import resource
import selectors
import socket
import struct
import sys
import time

READY_SECONDS = 60.0  # for every stream to tell its backlog


class Stream:
    """One open stream: its socket, and each message's version and arrival time as its lines come in."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.pending = b""  # a line not yet whole
        self.version = None  # the id line of the message being read
        self.received: list[tuple[int, float]] = []
        self.ended = False  # closed by the server

    def read(self, data: bytes, now: float) -> None:
        """Note each whole message (its data line) with its version. The response is chunked, a message a chunk: the
        chunk sizes are lines of their own, and the JSON of a data line holds no raw newline."""
        lines = (self.pending + data).split(b"\n")
        self.pending = lines.pop()
        for line in lines:
            if line.startswith(b"id: "):
                self.version = int(line[4:])
            elif line.startswith(b"data: "):
                self.received.append((self.version, now))


def open_stream(port: int, match_id: str, token: str | None) -> socket.socket:
    """A connected socket whose stream request is sent, non-blocking from then on."""
    head = f"GET /matches/{match_id}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"{head}\r\n".encode())
    sock.setblocking(False)
    return sock


def read_ready(selector: selectors.BaseSelector, timeout: float) -> None:
    """Read every stream that has something within `timeout` seconds, noting those the server closed."""
    for key, _ in selector.select(timeout=timeout):
        stream = key.data
        try:
            data = stream.sock.recv(262144)
        except OSError:
            data = b""
        if data:
            stream.read(data, time.time())
        else:
            stream.ended = True
            selector.unregister(stream.sock)


def hold(spec: dict) -> dict:
    """Open every stream, say when all have told their backlog, read them until the deadline given on stdin."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:  # a descriptor a stream (as bench/slow_clients.py raises it)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    streams = []
    with selectors.DefaultSelector() as selector:
        for match_id, token in spec["streams"]:
            stream = Stream(open_stream(spec["port"], match_id, token))
            streams.append(stream)
            selector.register(stream.sock, selectors.EVENT_READ, stream)
        until = time.monotonic() + READY_SECONDS
        while any(not s.received for s in streams) and time.monotonic() < until:
            read_ready(selector, 0.2)
        print("ready" if all(s.received for s in streams) else "not ready", flush=True)
        deadline = float(sys.stdin.readline() or 0)
        while (now := time.monotonic()) < deadline:
            read_ready(selector, min(0.2, deadline - now))
        for stream in streams:  # reset, not closed: the server's next write to the stream fails and ends it
            stream.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            stream.sock.close()
        print("closed", flush=True)
    return {"received": [s.received for s in streams], "ended": sum(s.ended for s in streams)}


def main() -> None:
    spec_path, out_path = sys.argv[1:3]
    with open(spec_path) as spec:
        held = hold(json.load(spec))
    with open(out_path, "w") as out:
        json.dump(held, out)


if __name__ == "__main__":
    main()
