"""The live figure of `make bench` (issue 43): bench's HTTP load with and without match streams (server-sent events)
held by many subscribers, all in one process of their own (bench/subscribers.py) so that reading costs the host little.

In both runs the watched matches are moved every MOVE_EVERY seconds. A message's delivery is timed from its event's
recorded moment (taken before the commit, so the figure errs long) and from the move's answer to its arrival; memory
per subscriber is the server's resident memory with the idle streams open, less before. Method: bench/README.md."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import psutil

from bench.figures import ROOT, figure, sqlite_app
from bench.http_load import Client, http_load

MOVE_EVERY = 0.5  # seconds between moves on each watched match
SEATS = 3  # streams of each watched match held with a seat's token; the others are spectators'
LAST_MOVE = 1.0  # seconds before the deadline the watched matches stop moving
GRACE = 1.0  # a move answered this long before the deadline must have reached every stream of its match (else lost)
SETTLE = 1.0  # seconds the idle streams stand before the server's memory is read
P99_TARGET_MS, KB_TARGET, RATE_TARGET = 50, 50, 0.8  # issue 43


def resident(pids: list[int]) -> int:
    """The processes' resident memory together, in bytes."""
    return sum(psutil.Process(pid).memory_info().rss for pid in pids)


def percentile(values: list[float], share: float) -> float:
    """The value `share` of the way up the sorted values (0.0 for none: the caller reports why)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


class Tables:
    """The watched matches, each moved every MOVE_EVERY seconds beside the HTTP load, with `per_match` streams each, or
    none (the reference run: the same moves, no stream). http_load calls `ready`, then `beside`; `delivery` reads the
    outcome once it returns."""

    def __init__(self, tmp: Path, count: int, per_match: int):
        self.tmp, self.count, self.per_match = tmp, count, per_match
        self.matches: list[dict] = []
        self.answered: dict[tuple[str, int], tuple[float, float]] = {}  # (match, version): answer's time(), monotonic()
        self.subscribers = None  # the process holding the streams
        self.deadline = 0.0
        self.rss: tuple[int, int] = (0, 0)  # the server's, before the streams and with them idle
        self.closed = threading.Event()  # the streams are closed (the reference run: the deadline has come)
        self.failures: list[str] = []

    def ready(self, port: int, pids: list[int]) -> None:
        """Create the watched matches; open their streams and read the server's memory before and after."""
        client = Client(port, seed=-1)
        self.matches = [client.new_match() for _ in range(self.count)]
        if not self.per_match:
            return
        before = resident(pids)
        spec = self.tmp / "streams.json"
        spec.write_text(json.dumps({"port": port, "streams": [[m["id"], m["seats"][n] if n < SEATS else None]
                                                              for m in self.matches for n in range(self.per_match)]}))
        self.subscribers = subprocess.Popen([sys.executable, "-m", "bench.subscribers", str(spec),
                                             str(self.tmp / "received.json")], cwd=ROOT.parent, text=True,
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        said = self.subscribers.stdout.readline().strip()
        if said != "ready":
            self.failures.append(f"the subscribers' streams did not all open ({said or 'the process failed'})")
        time.sleep(SETTLE)
        self.rss = (before, resident(pids))

    def beside(self, port: int, deadline: float) -> list[threading.Thread]:
        """Tell the subscribers the deadline; a thread a watched match, their moves spread over MOVE_EVERY."""
        self.deadline = deadline
        if self.subscribers is not None:
            self.subscribers.stdin.write(f"{deadline}\n")
            self.subscribers.stdin.flush()
        start = time.monotonic()
        return [threading.Thread(target=self.watch), *(
            threading.Thread(target=self.play, args=(Client(port, seed=-2 - n), match,
                                                     start + MOVE_EVERY * n / len(self.matches)))
            for n, match in enumerate(self.matches))]

    def watch(self) -> None:
        """Until the subscribers have closed their streams (the reference run: until the deadline), then let the
        movers make their last move."""
        if self.subscribers is not None:
            self.subscribers.stdout.readline()
        else:
            time.sleep(max(0.0, self.deadline - time.monotonic()))
        self.closed.set()

    def play(self, client: Client, match: dict, due: float) -> None:
        """Move the match every MOVE_EVERY seconds from `due` until LAST_MOVE before the deadline, noting when each
        version's answer came; then once more when the streams are closed, in both runs: it wakes the match's streams
        on the server, which find their clients gone and end (an idle stream would notice only at its next heartbeat,
        and hold up the server's graceful stop until then)."""
        try:
            while match["seat"] is not None and due < self.deadline - LAST_MOVE:
                time.sleep(max(0.0, due - time.monotonic()))
                played = client.move(match)
                at = (time.time(), time.monotonic())
                for event in played.get("events", ()):
                    self.answered[(match["id"], event["version"])] = at
                due += MOVE_EVERY
            self.closed.wait()
            if match["seat"] is not None:
                client.move(match)
        except (OSError, ValueError) as error:
            self.failures.append(f"a watched match's mover failed ({error})")

    def committed(self) -> dict[tuple[str, int], float]:
        """Each moved version's recorded moment (time()), read from the event store once the server has stopped."""
        app = sqlite_app(self.tmp / "http.sqlite")
        return {(m["id"], e.originator_version): e.timestamp.timestamp()
                for m in self.matches for e in app.events.get(uuid.UUID(m["id"]))
                if (m["id"], e.originator_version) in self.answered}

    def delivery(self) -> dict:
        """Each moved version's delivery to each stream of its match, in ms from its commit and from its answer;
        the messages that never came and those that came twice."""
        self.subscribers.wait(timeout=30)
        received = json.loads((self.tmp / "received.json").read_text())
        committed = self.committed()
        expected: dict[str, set] = {m["id"]: set() for m in self.matches}  # each match's versions every stream owes
        for (match_id, version), (_, answered) in self.answered.items():
            if answered <= self.deadline - GRACE:
                expected[match_id].add(version)
        from_commit, from_answer, lost, repeated = [], [], 0, 0
        for n, messages in enumerate(received["received"]):
            match_id = self.matches[n // self.per_match]["id"]
            seen = set()
            for version, at in messages:
                repeated += version in seen
                seen.add(version)
                if (match_id, version) in self.answered:
                    from_commit.append((at - committed[(match_id, version)]) * 1000)
                    from_answer.append((at - self.answered[(match_id, version)][0]) * 1000)
            lost += len(expected[match_id] - seen)
        failures = [f"{count} {what}" for count, what in ((lost, f"messages not there {GRACE} s after their answer"),
                                                           (repeated, "messages arrived twice"),
                                                           (received["ended"], "streams ended early")) if count]
        if not from_commit:
            failures.append("no message of a move arrived")
        return {"from_commit": from_commit, "from_answer": from_answer, "failures": failures}


def live_streams(tmp: Path, clients: int, seconds: float, matches: int, per_match: int) -> list[dict]:
    """bench's HTTP load beside `matches` watched matches, without streams, then with `per_match` streams each: the
    delivery's p50 and p99, the memory of an idle subscriber, and the moves a second with them against without."""
    alone_tables, tables = Tables(tmp / "live-alone", matches, 0), Tables(tmp / "live", matches, per_match)
    alone = http_load(alone_tables.tmp, clients, seconds, beside=alone_tables.beside, ready=alone_tables.ready)
    loaded = http_load(tables.tmp, clients, seconds, beside=tables.beside, ready=tables.ready)
    delivered = tables.delivery()
    subscribers = matches * per_match
    watched = f"{subscribers:,} subscribers on {matches} matches"
    p50, p99 = percentile(delivered["from_commit"], 0.5), percentile(delivered["from_commit"], 0.99)
    per_subscriber_kb = (tables.rss[1] - tables.rss[0]) / 1024 / subscribers
    moving = alone_tables.failures + tables.failures + alone["failures"] + loaded["failures"]
    return [figure(f"live streams: a move's message from its commit to each client, p99, {watched} beside the HTTP "
                   "load", p99, "ms", P99_TARGET_MS, p99 / P99_TARGET_MS, 1.0, higher_is_better=False,
                   p50_ms=round(p50, 1), p99_ms=round(p99, 1), p99_target_ms=P99_TARGET_MS,
                   from_answer_p50_ms=round(percentile(delivered["from_answer"], 0.5), 1),
                   from_answer_p99_ms=round(percentile(delivered["from_answer"], 0.99), 1),
                   messages=len(delivered["from_commit"]), failures=(delivered["failures"] + moving)[:5]),
            figure(f"live streams: the server's memory a subscriber, {subscribers:,} idle streams, vs the target",
                   per_subscriber_kb, "KB", KB_TARGET, per_subscriber_kb / KB_TARGET, 1.0, higher_is_better=False,
                   rss_before_mb=round(tables.rss[0] / 2**20, 1), rss_with_streams_mb=round(tables.rss[1] / 2**20, 1),
                   failures=tables.failures[:5]),
            figure(f"live streams: HTTP moves/s with {watched} vs without", loaded["value"], "moves/s",
                   alone["value"], loaded["value"] / alone["value"], RATE_TARGET, load_p99_ms=loaded["p99_ms"],
                   load_p99_alone_ms=alone["p99_ms"], failures=moving[:5])]
