"""Live streams (server-sent events): each holder is told of every new version of a match as it is committed.

Whoever projects a commit publishes the new version on the match's Redis channel (projections/projector.py). Each
server process listens on one pub/sub connection (Hub) and wakes that match's streams, which read what they have not
sent from the event store, so a message lost in Redis loses nothing: the next wake-up or heartbeat finds it. A match's
Feed tells the messages of all its streams here; a client that stops reading is dropped after
HERALD_STREAM_SEND_TIMEOUT seconds (service/stream_routes.py), never holding up the others."""
from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict

from redis.exceptions import RedisError

from domain import clock
from domain.timeline import Teller
from domain.undo import retracted_flags
from projections.projector import LIVE

log = logging.getLogger("herald")
HEARTBEAT = 15  # seconds between comments on an idle stream, so that proxies keep it open
FEEDS = 256  # matches whose feed a process keeps


class Subscription:
    """A stream waiting for its channel's next message."""

    def __init__(self, channel: str):
        self.channel = channel
        self.woken = threading.Event()

    def wait(self, timeout: float) -> bool:
        """True if woken (a new version, or the hub reconnected) within `timeout` seconds."""
        woken = self.woken.wait(timeout)
        self.woken.clear()
        return woken


class Hub:
    """This process's one pub/sub connection, and the streams waiting on each channel."""

    def __init__(self, redis):
        self.redis = redis
        self.waiting: dict[str, set[Subscription]] = {}
        self.lock = threading.Lock()
        self.started = False
        self.closed = False  # the process is stopping: every stream ends, for its client to resume elsewhere

    def subscribe(self, channel: str) -> Subscription:
        with self.lock:
            if not self.started:
                self.started = True
                threading.Thread(target=self._listen, name="herald-live", daemon=True).start()
            subscription = Subscription(channel)
            self.waiting.setdefault(channel, set()).add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self.lock:
            waiting = self.waiting.get(subscription.channel, set())
            waiting.discard(subscription)
            if not waiting:
                self.waiting.pop(subscription.channel, None)

    def close(self) -> None:
        """End every stream of this process now (a graceful stop waits for open responses to end)."""
        self.closed = True
        self._wake(None)

    def _wake(self, channel: str | None) -> None:
        """Wake the streams of a channel, or all of them (None: after a reconnection, messages may have been lost)."""
        with self.lock:
            streams = [s for c, subs in self.waiting.items() if channel in (None, c) for s in subs]
        for subscription in streams:
            subscription.woken.set()

    def _listen(self) -> None:
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(f"{LIVE}*")
                self._wake(None)
                for message in pubsub.listen():
                    if message["type"] == "pmessage":
                        self._wake(message["channel"].decode()[len(LIVE):])
            except RedisError as error:
                log.debug("live: Redis unreachable, listening again shortly: %s", error)
                threading.Event().wait(1)


class Feed:
    """What the streams of one match in this process tell: each holder's timeline entries, and after each version whose
    decision is awaited and the clocks, folded once from the event store."""

    def __init__(self, match):
        self.revealed = match.revealed_seed is not None
        self.teller = Teller(match, [])
        self.after: list[tuple] = []  # (awaiting seat, clocks) after each version
        self.texts: dict[tuple, str] = {}  # (viewer, sent) -> the stream's text up to `version`, for its other streams
        self.version = 0
        self.lock = threading.Lock()

    def text(self, matches, match, viewer, sent: int) -> str:
        """The server-sent events after version `sent` up to the match's, for a viewer: made once for every stream
        of this viewer at that version (a table's spectators all read the same)."""
        with self.lock:
            if self.version != match.version:
                self.texts, self.version = {}, match.version
            told = self.texts.get((viewer, sent))
        if told is None:
            told = "".join(sse(message) for message in self.messages(matches, match, viewer, sent))
            with self.lock:
                if self.version == match.version:
                    self.texts[(viewer, sent)] = told
        return told

    def messages(self, matches, match, viewer, sent: int) -> list[dict]:
        """The messages after version `sent` up to the match's version, for a viewer, the newest with the viewer's
        view (an older one's view has been overtaken: the client reads the next)."""
        with self.lock:
            if viewer not in self.teller.told:  # a new kind of viewer: every viewer's entries told again
                self.teller, self.after = Teller(match, [*self.teller.viewers, viewer]), []
            self._catch_up(matches, match)
            told = self.teller.told[viewer][sent:match.version]
            after = self.after[sent:match.version]
        flags = retracted_flags(match.version, match.retracted)
        out = []
        for entry, (awaiting, clocks) in zip(told, after):
            message = {"version": entry["version"], "entry": {**entry, "retracted": flags[entry["version"] - 1]},
                       "awaiting_seat": awaiting}
            if clocks is not None:
                message["clocks"] = clocks
            out.append(message)
        if out and out[-1]["version"] == match.version:
            out[-1]["view"] = match.game.view_at(match.state, viewer, match.version, match.chain)
        return out

    def _catch_up(self, matches, match) -> None:
        """Tell the versions not yet folded, noting after each whose decision is awaited and the clocks."""
        game = match.game
        for event in matches.history(match.id, after=len(self.after), upto=match.version):
            self.teller.tell([event])
            state = self.teller.state
            self.after.append((game.awaiting(state) if state["status"] == "active" else None,
                               clock.shown(state["clocks"]) if "clocks" in state else None))


def sse(message: dict) -> str:
    """One server-sent event: its id the version, its data the message."""
    return f"id: {message['version']}\ndata: {json.dumps(message, separators=(',', ':'))}\n\n"


class Live:
    """A process's live streams: its hub and the feeds of the matches streamed."""

    def __init__(self, context):
        self.context = context
        self.hub = Hub(context.redis)
        self.feeds: OrderedDict[str, Feed] = OrderedDict()
        self.lock = threading.Lock()

    def feed(self, match) -> Feed:
        """The match's feed, told again from the start once the match reveals its seed (its log is then public)."""
        key = str(match.id)
        with self.lock:
            feed = self.feeds.pop(key, None)
            if feed is None or feed.revealed != (match.revealed_seed is not None):
                feed = Feed(match)
            self.feeds[key] = feed
            while len(self.feeds) > FEEDS:
                self.feeds.popitem(last=False)
        return feed

    def match_stream(self, match_id, viewer, sent: int):
        """A match's stream for a viewer: every version after `sent` as it comes; it ends with the match."""
        matches = self.context.matches

        def after(sent: int) -> tuple[str, int, bool]:
            match = matches.load(match_id, for_reading=True)
            text = self.feed(match).text(matches, match, viewer, sent) if match.version > sent else ""
            return text, match.version, match.finished

        return self.follow(f"match:{match_id}", after, sent)

    def follow(self, channel: str, after, sent: int):
        """A stream's text: `after(sent)` gives the text of the versions after `sent`, the version it reaches and
        whether the stream is over; read again whenever the channel tells of a new version, heartbeats between. It
        ends when `after` says so, or when this process stops (the client resumes elsewhere with Last-Event-ID)."""
        subscription = self.hub.subscribe(channel)
        try:
            yield "retry: 2000\n\n"
            while not self.hub.closed:
                text, version, over = after(sent)
                if version > sent:
                    yield text
                    sent = version
                if over:
                    return
                if not subscription.wait(HEARTBEAT) and not self.hub.closed:
                    yield ": heartbeat\n\n"
        finally:
            self.hub.unsubscribe(subscription)
