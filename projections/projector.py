"""The projector: follows the event store's notification log and writes views to Redis.

Its position is stored in Redis and advanced by one Lua script (COMMIT), atomically with the views it wrote and only if
it is still the one the batch started from, so several projectors never apply an event twice and a crash skips none;
where it has moved, the script writes nothing and the next batch starts where it stands. The documents last folded are
kept for the next batch (dropped when the position moves back or a batch fails); `apply` skips the events a document
holds and refuses a gap.
"""
from __future__ import annotations

import json
import threading
import uuid
from collections import OrderedDict
from operator import attrgetter

import orjson

from domain import clock
from domain.registry import GAMES
from domain.tournaments.aggregate import Tournament, TournamentEvent, tournament_document

TOURNAMENT_EVENTS = (Tournament.TournamentCreated, TournamentEvent)
POSITION = "herald:position"
MATCHES = "herald:matches"
TOKENS = "herald:tokens"
TOURNAMENTS = "herald:tournaments"
TOURNAMENT_TOKENS = "herald:tournament-tokens"  # token hash -> "tournament_id:organiser" or ":player_id"
BATCH = 500
REQUEST_LIMIT = 10 * BATCH  # a request projects at most this many notifications, so that none is held long
CACHED_DOCS = 512
# sorted set: "match:<id>" by when its running clock runs out, "tournament:<id>" by when its round's time does
# (service/timekeeper.py)
DEADLINES = "herald:deadlines"
COMMITTED = "herald:committed"  # pub/sub: a worker's commit, so that `herald project` wakes at once (Projector.nudge)
LIVE = "herald:live:"  # pub/sub channels: LIVE + "match:<id>" or "tournament:<id>", each message its new version
# KEYS: the position, then one key per write; ARGV: expected position, new position, then per key either a hash's
# field count and fields, or -1, a deadline ("" for none) and its member in a sorted set, or -2 and a message
# published on the key's channel. Returns {1}, or {0, the position} without writing where the position has moved.
# Publishing here tells live streams (service/live.py) only of events committed and projected.
COMMIT = """
local at = redis.call('GET', KEYS[1]) or '0'
if at ~= ARGV[1] then return {0, at} end
local i = 3
for k = 2, #KEYS do
  local n = tonumber(ARGV[i])
  if n == -2 then
    redis.call('PUBLISH', KEYS[k], ARGV[i + 1])
    i = i + 2
  elseif n == -1 then
    if ARGV[i + 1] == '' then redis.call('ZREM', KEYS[k], ARGV[i + 2])
    else redis.call('ZADD', KEYS[k], ARGV[i + 1], ARGV[i + 2]) end
    i = i + 3
  else
    redis.call('HSET', KEYS[k], unpack(ARGV, i + 1, i + 2 * n))
    i = i + 1 + 2 * n
  end
end
redis.call('SET', KEYS[1], ARGV[2])
return {1}
"""


def dumps(document) -> bytes:
    return orjson.dumps(document, option=orjson.OPT_NON_STR_KEYS)


def tournament_key(tournament_id) -> str:
    return f"herald:tournament:{tournament_id}"


def match_key(match_id) -> str:
    return f"herald:match:{match_id}"


def view_field(viewer) -> str:
    return "view:spectator" if viewer is None else f"view:{viewer}"


class Projector:
    """Folds events into per-match documents; renders a viewer's view when it is asked for."""

    def __init__(self, app, client):
        self.app = app
        self.redis = client
        self._commit = client.register_script(COMMIT)
        self._written: int | None = None
        self._docs: OrderedDict[str, dict] = OrderedDict()
        self._catching_up = threading.Lock()  # a worker's threads would only fold the same events twice

    def nudge(self) -> None:
        """Wake the `herald project` processes: a command has just committed events (workers not projecting
        inline). A live stream is told of a move as soon as a projector has projected it."""
        self.redis.publish(COMMITTED, b"")

    def commits(self):
        """A subscription woken by each nudge, for a projector that waits between catch-ups."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(COMMITTED)
        return pubsub

    def position(self) -> int:
        return int(self.redis.get(POSITION) or 0)

    def catch_up(self, limit: int | None = None, progress=None, own: bool = False) -> int:
        """Apply every notification after the stored position; returns how many were applied. `own`, after this
        process's own commands: up to the last notification its saves made, nothing once the position has passed it
        (another process's projector wrote it); where those follow the position with none between they are the batch,
        read from no store."""
        applied = 0
        with self._catching_up:
            while limit is None or applied < limit:
                size = BATCH if limit is None else min(BATCH, limit - applied)
                count = self._apply_batch(size, own)
                if progress and count:
                    progress(count)
                applied += count
                if count < size:
                    return applied
        return applied

    def _apply_batch(self, size: int, own: bool) -> int:
        while True:
            try:
                applied = self._try_batch(size, own)
            except Exception:
                self._forget()  # the commit may or may not have happened: read the position and documents again
                raise
            if applied is not None:
                return applied

    def _try_batch(self, size: int, own: bool) -> int | None:
        """Apply one batch; None where the position had moved (nothing written; the next batch starts where it
        stands)."""
        start = self.position() if self._written is None else self._written
        notifications = self._own(start, size) if own else \
            self.app.recorder.select_notifications(start=start + 1, limit=size)
        if not notifications:
            return 0
        docs, tournaments = self._fold(notifications)
        keys, args = [POSITION], [start, notifications[-1].id]
        for match_id, doc in docs.items():
            self._write(keys, args, match_id, doc)
        for tournament_id in tournaments:
            self._write_tournament(keys, args, tournament_id)
        committed, *moved = self._commit(keys=keys, args=args, client=self.redis)
        self._written = notifications[-1].id if committed else int(moved[0])
        if self._written < start:  # Redis lost data: the documents kept may be ahead of the position
            self._docs.clear()
        else:
            self._remember(docs)  # folds of the log at their versions, written or not
        return len(notifications) if committed else None

    def _own(self, start: int, size: int) -> list:
        """A batch after `start` up to the last notification this process's saves made (Matches.recorded): those
        notifications themselves where they follow `start` with none between, as the store would list them, else read
        from the store; none once `start` has passed them."""
        mine = sorted((n for n in self.app.recorded.copy() if n.id > start), key=attrgetter("id"))
        if not mine or (mine[0].id == start + 1 and mine[-1].id == start + len(mine)):
            return mine[:size]
        return self.app.recorder.select_notifications(start=start + 1, limit=size, stop=mine[-1].id)

    def _forget(self) -> None:
        self._written = None
        self._docs.clear()

    def _fold(self, notifications) -> tuple[dict, set]:
        """The match documents the notifications change, folded; the tournaments they change."""
        docs: dict[str, dict] = {}
        tournaments: set[str] = set()
        for notification in notifications:
            event = self.app.mapper.to_domain_event(notification)
            if isinstance(event, TOURNAMENT_EVENTS):
                tournaments.add(str(event.originator_id))  # projected from its aggregate, below
                continue
            if not hasattr(event, "payload"):
                continue
            match_id = str(event.originator_id)
            if match_id not in docs:
                docs[match_id] = self._doc(match_id, event)
            docs[match_id] = apply(docs[match_id], event)
        return docs, tournaments

    def _doc(self, match_id: str, first) -> dict | None:
        """The document a batch folds `first` onto, at the version just before it or past it (folded by a batch that
        lost the race; `apply` skips what it holds): ours or Redis's, brought up to that version from the event store
        when it is missing (a FLUSHALL, a rebuild under way) or behind (another projector moved it on since we wrote it,
        or re-projected part of the log after Redis came back empty)."""
        if first.originator_version == 1:
            return None
        doc = self._docs.pop(match_id, None)
        if doc is None:
            stored = self.redis.hget(match_key(match_id), "doc")
            doc = json.loads(stored) if stored else None
        before = first.originator_version - 1
        if doc is None or doc["version"] < before:
            for event in self.app.events.get(first.originator_id, gt=None if doc is None else doc["version"],
                                             lte=before):
                doc = apply(doc, event)
        return doc

    def _remember(self, docs: dict) -> None:
        self._docs.update(docs)
        while len(self._docs) > CACHED_DOCS:
            self._docs.popitem(last=False)

    def _write(self, keys: list, args: list, match_id: str, doc: dict) -> None:
        """The folded document and its version (views are rendered when asked for, see view), the match's summary in
        the list, its tokens' owners."""
        tokens = doc.pop("tokens", None)
        fields = {"doc": dumps(doc), "version": doc["version"]}
        hashes = [(match_key(match_id), fields), (MATCHES, {match_id: dumps(summary(doc))})]
        if tokens:
            hashes.append((TOKENS, {digest: f"{match_id}:{role}" for digest, role in tokens.items()}))
        for key, mapping in hashes:
            keys.append(key)
            args.append(len(mapping))
            for field, value in mapping.items():
                args += (field, value)
        if "clocks" in doc["state"]:
            _deadline(keys, args, f"match:{match_id}", clock.deadline(doc["state"]["clocks"]))
        keys.append(f"{LIVE}match:{match_id}")
        args += (-2, doc["version"])

    def _write_tournament(self, keys: list, args: list, tournament_id: str) -> None:
        """A tournament's summary in the list, and its standings and rounds, from its aggregate as stored now."""
        tournament = self.app.repository.get(uuid.UUID(tournament_id))
        document = tournament_document(tournament)
        tokens = {tournament.secret["organiser"]: f"{tournament_id}:organiser",
                  **{digest: f"{tournament_id}:{player}" for player, digest in tournament.token_hashes.items()}}
        for key, mapping in ((TOURNAMENTS, {tournament_id: dumps(document["summary"])}),
                             (tournament_key(tournament_id), {"doc": dumps(document)}), (TOURNAMENT_TOKENS, tokens)):
            keys.append(key)
            args.append(len(mapping))
            for field, value in mapping.items():
                args += (field, value)
        if "round_minutes" in tournament.created:
            _deadline(keys, args, f"tournament:{tournament_id}", tournament.deadline())
        keys.append(f"{LIVE}tournament:{tournament_id}")
        args += (-2, tournament.version)

    def tournaments(self) -> list[dict]:
        rows = [json.loads(v) for v in self.redis.hvals(TOURNAMENTS)]
        return sorted(rows, key=lambda r: r["created_on"])

    def tournament(self, tournament_id) -> dict | None:
        raw = self.redis.hget(tournament_key(tournament_id), "doc")
        return json.loads(raw) if raw else None

    def rebuild(self, progress=None) -> int:
        """Drop every view and replay the whole log into Redis."""
        for key in self.redis.scan_iter("herald:*"):
            self.redis.delete(key)
        self._forget()
        return self.catch_up(progress=progress)

    def view(self, match_id, viewer) -> dict | None:
        """A viewer's view of the projected document: rendered the first time it is asked for at a version, then
        kept beside the document until the document moves on (a view of another version is never served)."""
        key = match_key(match_id)
        cached, version = self.redis.hmget(key, view_field(viewer), "version")
        if version is None:
            return None
        if cached:
            shown = json.loads(cached)
            if shown["version"] == int(version):
                return shown
        raw = self.redis.hget(key, "doc")
        if raw is None:
            return None
        doc = json.loads(raw)
        game = GAMES[doc["created"]["game"]]
        shown = game.view_at(doc["state"], viewer, doc["version"], doc["chain"])
        self.redis.hset(key, view_field(viewer), dumps(shown))
        return shown

    def list(self, status: str | None = None) -> list[dict]:
        rows = [json.loads(v) for v in self.redis.hvals(MATCHES)]
        rows.sort(key=lambda r: r["created_on"])
        return [r for r in rows if status is None or r["status"] == status]

    def summary(self, match_id) -> dict | None:
        raw = self.redis.hget(MATCHES, str(match_id))
        return json.loads(raw) if raw else None

    def token_owner(self, digest: str, of: str = TOKENS) -> str | None:
        """Whose token this is: "match_id:role" (of=TOKENS) or "tournament_id:role" (of=TOURNAMENT_TOKENS)."""
        raw = self.redis.hget(of, digest)
        return raw.decode() if raw else None


def _deadline(keys: list, args: list, member: str, deadline) -> None:
    """A write of the commit: the member's deadline in DEADLINES, or its removal where it has none now."""
    keys.append(DEADLINES)
    args += (-1, "" if deadline is None else deadline.timestamp(), member)


class DocumentBehind(ValueError):
    """A document misses events before the one to fold: folding onto it would corrupt the views."""


def apply(doc: dict | None, event) -> dict:
    """Fold one stored event into a match document at the version just before it; an event the document already
    holds is skipped, and one that would leave a gap is refused with DocumentBehind."""
    type_ = event.name
    held = 0 if doc is None else doc["version"]
    if event.originator_version <= held:
        return doc
    if event.originator_version != held + 1:
        raise DocumentBehind(f"the document of match {event.originator_id} is at version {held}, "
                             f"not {event.originator_version - 1}")
    if doc is None:
        game = GAMES[event.payload["game"]]
        tokens = {"referee": event.secret["tokens"]["referee"]}
        tokens.update({str(i): h for i, h in enumerate(event.secret["tokens"]["seats"])})
        return {"created": event.payload, "state": game.new_state(event.payload), "version": 1,
                "chain": event.chain, "created_on": event.timestamp.isoformat(),
                "tokens": {h: role for role, h in tokens.items()}}
    if type_ == "SeedRevealed":
        doc["revealed"] = True
    doc["state"] = GAMES[doc["created"]["game"]].evolve(doc["state"], type_, event.payload)
    doc["version"] = event.originator_version
    doc["chain"] = event.chain
    return doc


def summary(doc: dict) -> dict:
    created = doc["created"]
    game = GAMES[created["game"]]
    return {"match_id": created["match_id"], "game": created["game"], "version": doc["version"],
            "created_on": doc["created_on"], "seed_commitment": created["seed_commitment"],
            **game.summary(doc["state"])}
