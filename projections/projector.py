"""The projector: follows the event store's notification log and writes views to Redis.

Its position is stored in Redis and advanced in the same MULTI/EXEC transaction as the views it
wrote, under WATCH, so several projectors never apply an event twice and a crash skips none.
"""
from __future__ import annotations

import json

import redis

from domain.events import evolve_state
from domain.games import GAMES

POSITION = "herald:position"
MATCHES = "herald:matches"
TOKENS = "herald:tokens"
BATCH = 500


def match_key(match_id) -> str:
    return f"herald:match:{match_id}"


def viewers(doc: dict) -> list:
    return ["referee", None, *range(len(doc["created"]["players"]))]


def view_field(viewer) -> str:
    return "view:spectator" if viewer is None else f"view:{viewer}"


class Projector:
    """Folds events into per-match documents and renders every viewer's view."""

    def __init__(self, app, client: redis.Redis):
        self.app = app
        self.redis = client

    def position(self) -> int:
        return int(self.redis.get(POSITION) or 0)

    def catch_up(self, limit: int | None = None, progress=None) -> int:
        """Apply every notification after the stored position; returns how many were applied."""
        applied = 0
        while limit is None or applied < limit:
            size = BATCH if limit is None else min(BATCH, limit - applied)
            count = self._apply_batch(size)
            if progress and count:
                progress(count)
            applied += count
            if count < size:
                return applied
        return applied

    def _apply_batch(self, size: int) -> int:
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(POSITION)
                    start = int(pipe.get(POSITION) or 0)
                    notifications = self.app.recorder.select_notifications(start=start + 1, limit=size)
                    if not notifications:
                        pipe.unwatch()
                        return 0
                    docs = self._fold(pipe, notifications)
                    pipe.multi()
                    for match_id, doc in docs.items():
                        self._write(pipe, match_id, doc)
                    pipe.set(POSITION, notifications[-1].id)
                    pipe.execute()
                    return len(notifications)
                except redis.WatchError:
                    continue

    def _fold(self, pipe, notifications) -> dict:
        docs: dict[str, dict] = {}
        for notification in notifications:
            event = self.app.mapper.to_domain_event(notification)
            if not hasattr(event, "payload"):
                continue
            match_id = str(event.originator_id)
            if match_id not in docs:
                stored = pipe.hget(match_key(match_id), "doc")
                docs[match_id] = json.loads(stored) if stored else None
            docs[match_id] = apply(docs[match_id], event)
        return docs

    def _write(self, pipe, match_id: str, doc: dict) -> None:
        game = GAMES[doc["created"]["game"]]
        tokens = doc.pop("tokens", None)
        fields = {"doc": json.dumps(doc)}
        for viewer in viewers(doc):
            shown = {**game.view(doc["state"], viewer), "version": doc["version"], "chain_head": doc["chain"]}
            fields[view_field(viewer)] = json.dumps(shown)
        pipe.hset(match_key(match_id), mapping=fields)
        pipe.hset(MATCHES, match_id, json.dumps(summary(doc)))
        for digest, role in (tokens or {}).items():
            pipe.hset(TOKENS, digest, f"{match_id}:{role}")

    def rebuild(self, progress=None) -> int:
        """Drop every view and replay the whole log into Redis."""
        for key in self.redis.scan_iter("herald:*"):
            self.redis.delete(key)
        return self.catch_up(progress=progress)

    def view(self, match_id, viewer) -> dict | None:
        raw = self.redis.hget(match_key(match_id), view_field(viewer))
        return json.loads(raw) if raw else None

    def list(self, status: str | None = None) -> list[dict]:
        rows = [json.loads(v) for v in self.redis.hvals(MATCHES)]
        rows.sort(key=lambda r: r["created_on"])
        return [r for r in rows if status is None or r["status"] == status]

    def summary(self, match_id) -> dict | None:
        raw = self.redis.hget(MATCHES, str(match_id))
        return json.loads(raw) if raw else None

    def token_owner(self, digest: str) -> str | None:
        raw = self.redis.hget(TOKENS, digest)
        return raw.decode() if raw else None


def apply(doc: dict | None, event) -> dict:
    """Fold one stored event into a match document; an event the document already holds is skipped."""
    type_ = type(event).__name__
    if doc is not None and event.originator_version <= doc["version"]:
        return doc
    if doc is None:
        game = GAMES[event.payload["game"]]
        tokens = {"referee": event.secret["tokens"]["referee"]}
        tokens.update({str(i): h for i, h in enumerate(event.secret["tokens"]["seats"])})
        return {"created": event.payload, "state": game.new_state(event.payload), "version": 1,
                "chain": event.chain, "created_on": event.timestamp.isoformat(),
                "tokens": {h: role for role, h in tokens.items()}}
    if type_ == "SeedRevealed":
        doc["revealed"] = True
    doc["state"] = evolve_state(GAMES[doc["created"]["game"]], doc["state"], type_, event.payload)
    doc["version"] = event.originator_version
    doc["chain"] = event.chain
    return doc


def summary(doc: dict) -> dict:
    created = doc["created"]
    game = GAMES[created["game"]]
    return {"match_id": created["match_id"], "game": created["game"], "version": doc["version"],
            "created_on": doc["created_on"], "seed_commitment": created["seed_commitment"],
            **game.summary(doc["state"])}
