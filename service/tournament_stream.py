"""Live streams of a tournament (server-sent events): GET /tournaments/{id}/stream tells each new version as it is
committed (its event and timeline sentence, a player its own next table), and on the newest message of a burst the
current round, standings and the organiser's waiting reports where they changed.

As for a match (service/live.py), the projector publishes each version on Redis and the process's Hub wakes the
streams, which read what they have not sent from the event store, so a message lost in Redis loses nothing. A
tournament's Feed folds its events once for every stream of it in this process."""
from __future__ import annotations

import json
import threading
import uuid
from collections import OrderedDict

from flask import Response, current_app

from domain.tournaments.aggregate import tournament_document
from domain.tournaments.timeline import sentences
from service.live import Live, sse
from service.stream_routes import live, resumed_from, sse_response

FEEDS = 256  # tournaments whose feed a process keeps
OPEN = ("waiting", "disputed")  # a report waiting for the opponent's answer, or disputed: for the organiser to settle


def detached(document):
    """A copy sharing nothing with the aggregate, whose later events change its rounds in place."""
    return json.loads(json.dumps(document))


def tables_to_play(tournament) -> dict[str, dict]:
    """Each player's table of the current round still to be played: round, table, match and seat (at a best-of-N
    table, its current game's match and seats)."""
    if not tournament.rounds:
        return {}
    round_ = tournament.rounds[-1]
    tables = {}
    for table in (t for t in round_["tables"] if t["placements"] is None):
        seats = table["games"][-1]["players"] if "games" in table else table["players"]
        for seat, player in enumerate(seats):
            tables[player] = {"round": round_["round"], "table": table["table"], "match_id": table["match_id"],
                              "seat": seat}
    return tables


class Feed:
    """What every stream of one tournament in this process tells, folded once from the store: each version's event
    and sentence, and the players whose next table it paired; the current round, standings and reports waiting, and
    the version each last changed by. As a match stream's view, those three ride only on the newest message of a
    burst where they changed since the stream's last: an older one has been overtaken, and a long tournament read
    from version 0 would otherwise repeat the standings on every result."""

    def __init__(self, tournament_id):
        self.id = uuid.UUID(str(tournament_id))
        self.tournament = None  # folded up to the last version told
        self.records: list[dict] = []  # each event's type and payload, for the timeline's sentences
        self.told: list[tuple[dict, dict]] = []  # by version: (its message, the tables it paired by player)
        self.tables: dict[str, dict] = {}  # each player's table to play, as of the last version told
        self.current = {"round": None, "standings": None, "reports": []}
        self.changed = dict.fromkeys(self.current, 0)  # the version each of those last changed by
        self.texts: dict[tuple, str] = {}  # (viewer, sent) -> the text up to the version told, for its other streams
        self.lock = threading.Lock()

    def after(self, matches, viewer: str | None, sent: int) -> tuple[str, int, bool]:
        """The server-sent events after version `sent` up to the tournament's newest, for a viewer (None, a player id,
        or the organiser's role), that version, and whether the tournament was finished by then; the text made once
        for every stream of this viewer at that version."""
        with self.lock:
            self._catch_up(matches)
            version = len(self.told)
            text = self.texts.get((viewer, sent))
            if text is None:
                text = "".join(sse(self.message(number, viewer, sent)) for number in range(sent + 1, version + 1))
                self.texts[(viewer, sent)] = text
            return text, version, self.tournament is not None and self.tournament.status == "finished"

    def message(self, version: int, viewer: str | None, sent: int) -> dict:
        """A version's message for a viewer who was sent up to `sent`: a player's with its next table where this
        version paired it; the newest with the round and standings that changed since `sent`, and for the organiser
        the reports waiting if they did."""
        public, paired = self.told[version - 1]
        message = dict(public)
        player = viewer in self.tournament.players
        if player and viewer in paired:
            message["table"] = paired[viewer]
        if version == len(self.told):
            keys = ("round", "standings") if viewer is None or player else ("round", "standings", "reports")
            message.update({key: self.current[key] for key in keys if self.changed[key] > sent})
        return message

    def _catch_up(self, matches) -> None:
        """Fold the events not yet told (the sentences told again from the start: a sentence names players registered
        earlier), then note the round, standings and reports waiting that changed."""
        events = list(matches.events.get(self.id, gt=len(self.told)))
        if not events:
            return
        self.texts = {}
        self.records += [{"type": type(event).__name__, "payload": event.payload} for event in events]
        told = sentences(self.records)
        for event in events:
            self.tournament = event.mutate(self.tournament)
            version = self.tournament.version
            tables = tables_to_play(self.tournament)
            self.told.append(({"version": version, "event": type(event).__name__, "sentences": [told[version - 1]]},
                              {p: table for p, table in tables.items() if self.tables.get(p) != table}))
            self.tables = tables
        document = tournament_document(self.tournament)
        for key, now in (("round", document["rounds"][-1] if document["rounds"] else None),
                         ("standings", document["standings"]),
                         ("reports", [r for r in self.tournament.reports.values() if r["status"] in OPEN])):
            now = detached(now)
            if now != self.current[key]:
                self.current[key], self.changed[key] = now, self.tournament.version


class Streams:
    """A process's tournament streams: the live streams' hub, and the feeds of the tournaments streamed."""

    def __init__(self, live_: Live):
        self.live = live_
        self.feeds: OrderedDict[str, Feed] = OrderedDict()
        self.lock = threading.Lock()

    def feed(self, tournament_id) -> Feed:
        """The tournament's feed, the least recently streamed forgotten past FEEDS."""
        key = str(tournament_id)
        with self.lock:
            feed = self.feeds.pop(key, None) or Feed(key)
            self.feeds[key] = feed
            while len(self.feeds) > FEEDS:
                self.feeds.popitem(last=False)
        return feed

    def stream(self, tournament_id, viewer: str | None, sent: int):
        """A tournament's stream for a viewer: every version after `sent` as it comes; it ends with the tournament."""
        matches = self.live.context.matches
        return self.live.follow(f"tournament:{tournament_id}",
                                lambda sent: self.feed(tournament_id).after(matches, viewer, sent), sent)


def streams() -> Streams:
    """This app's tournament streams, made on the first one."""
    extensions = current_app.extensions
    if "herald.tournament_streams" not in extensions:
        extensions.setdefault("herald.tournament_streams", Streams(live()))
    return extensions["herald.tournament_streams"]


def tournament_stream(tournament, viewer: str | None, query: dict) -> Response:
    """A holder's stream of a tournament from the version asked for (Last-Event-ID, else ?from=)."""
    return sse_response(streams().stream(tournament.id, viewer, resumed_from(query, tournament.version)))
