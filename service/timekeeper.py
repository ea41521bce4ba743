"""The timekeeper: records what falls due with no request to bring it, a seat's clock or a round's time running out.

Every server worker runs one. They share the deadlines the projector writes to Redis (DEADLINES), look every TICK
seconds, and claim a due entry before recording it, so that it is recorded once. A deadline found stale (a move came
first) is written again from the event store."""
from __future__ import annotations

import logging
import threading
import time

from domain import clock
from domain.matches import UnknownMatch
from domain.tournaments import desk
from projections.projector import DEADLINES

log = logging.getLogger("herald")
TICK = 0.2  # seconds: a clock that runs out is recorded within about this, well inside the 1 s promised
CLAIM_MS = 5000  # a worker that dies holding a claim holds it this long
DUE_AT_ONCE = 50


class Timekeeper:
    """Records each due deadline of a Herald context (service.app.Herald)."""

    def __init__(self, context):
        self.context = context
        self.stopped = threading.Event()

    def start(self) -> Timekeeper:
        threading.Thread(target=self.run, name="herald-timekeeper", daemon=True).start()
        return self

    def run(self) -> None:
        while not self.stopped.wait(TICK):
            try:
                self.tick()
            except Exception:  # Redis down, a store error: logged, and the next tick tries again
                log.exception("timekeeper: the deadlines could not be checked; trying again")

    def tick(self) -> int:
        """Record every deadline due now; how many were recorded."""
        redis = self.context.redis
        recorded = 0
        for member in redis.zrangebyscore(DEADLINES, "-inf", time.time(), start=0, num=DUE_AT_ONCE):
            member = member.decode()
            claim = f"herald:claim:{member}"
            if not redis.set(claim, 1, nx=True, px=CLAIM_MS):
                continue  # another worker is recording it
            kind, _, key = member.partition(":")
            try:
                recorded += self.expire(key) if kind == "match" else self.call_time(key)
            finally:
                redis.delete(claim)
        return recorded

    def call_time(self, tournament_id: str) -> int:
        """A tournament whose round time is due: time called in it and in each match still playing, results and
        views brought up to date; or, if none was due, its deadline written again as the store has it."""
        matches = self.context.matches
        try:
            called = desk.call_time(matches, tournament_id)
        except desk.UnknownTournament:
            called = None
        if called is None:
            self._reschedule(f"tournament:{tournament_id}", desk.deadline_of(matches, tournament_id))
            return 0
        self.context.refresh(own=True)
        return 1

    def _reschedule(self, member: str, deadline) -> None:
        """A member's deadline as the store has it: written again, or removed where it has none."""
        if deadline is None:
            self.context.redis.zrem(DEADLINES, member)
        else:
            self.context.redis.zadd(DEADLINES, {member: deadline.timestamp()})

    def expire(self, match_id: str) -> int:
        """A match whose clock is due: its timeout recorded, its tournament told and the views (and so the next
        deadline) brought up to date; or, if none was due, its deadline written again as the store has it."""
        matches = self.context.matches
        try:
            match = matches.expire(match_id)
            stored = match or matches.load(match_id, for_reading=True)
        except UnknownMatch:  # a deadline left from a store this Redis no longer serves
            stored = match = None
        if match is None:
            self._reschedule(f"match:{match_id}", clock.deadline(stored.state.get("clocks")) if stored else None)
            return 0
        self.context.changed(match)
        return 1
