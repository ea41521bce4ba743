"""The matches application: creates, loads and saves match aggregates in the event store."""
from __future__ import annotations

import copy
import hashlib
import hmac
import secrets
import uuid
from typing import ClassVar

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

import domain.tournaments.aggregate  # noqa: F401 (the store holds tournaments too: their old topics resolve)
from domain import fair
from domain.errors import IllegalMove
from domain.match import Match
from domain.undo import check_backup, take_back_target
from store.application import StoreApplication

REFEREE = "referee"
SNAPSHOT_INTERVAL = 50
RETRIES = 3  # attempts on the store's match after the held copy's (at least one: a stale copy refuses nothing)


class UnknownMatch(Exception):
    """No match has that id."""


class VersionConflict(Exception):
    """The match moved on since the version the client expected."""


def as_uuid(match_id) -> uuid.UUID:
    """A match's id as given (a UUID, or its text: ValueError if it is none) as a UUID, not parsed again if it is one
    (a parse of its text takes several microseconds)."""
    return match_id if isinstance(match_id, uuid.UUID) else uuid.UUID(str(match_id))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def event_record(event) -> dict:
    """An event as the log shows it: version, type, payload, chain."""
    return {"version": event.originator_version, "type": event.name,
            "payload": event.payload, "chain": event.chain}


def new_tokens(seats: int) -> tuple[dict, dict]:
    """Fresh bearer tokens for the referee and each seat, and their hashes (all that is stored)."""
    tokens = {REFEREE: secrets.token_urlsafe(24), "seats": [secrets.token_urlsafe(24) for _ in range(seats)]}
    hashes = {REFEREE: token_hash(tokens[REFEREE]), "seats": [token_hash(t) for t in tokens["seats"]]}
    return tokens, hashes


def check_at_rest(past: Match, version: int, span: list[dict]) -> Match:
    """`past`, the match at `version`, or IllegalMove unless that version is between two moves: a seat was to decide
    there, and the log `span` after it goes on with a platform event or with the events of one legal move of that
    seat (RULINGS U2; the server's backups and take-backs, and re-refereeing, ask the same)."""
    game = past.game
    seat = game.awaiting(past.state) if past.state["status"] == "active" else None
    moves = game.legal_moves(past.state, seat) if seat is not None else []
    if not moves:
        raise IllegalMove(f"version {version} is in the middle of a move or of the setup (no seat was to decide "
                          "there); back up to a version between two moves")
    if span and not game.is_platform(span[0]) and not any(past.decides_next(seat, move, span)[1] for move in moves):
        raise IllegalMove(f"version {version} is in the middle of a move ({span[0]['type']} follows it); "
                          "back up to the version before the move or after it")
    return past


class Matches(StoreApplication):
    """Every match is an aggregate; snapshots every SNAPSHOT_INTERVAL events keep old versions cheap.

    The same application also stores tournaments (domain/tournaments/desk.py): a tournament creates its matches and
    settles on their results, and one store with one notification log lets a single projector follow both in order.
    Its name stays Matches: most of what it does is for matches, and the name is used across the service and tests."""

    name = "herald"
    snapshotting_intervals: ClassVar[dict] = {Match: SNAPSHOT_INTERVAL}
    env: ClassVar[dict] = {"AGGREGATE_CACHE_MAXSIZE": "1000"}

    def create(self, game: str, players: list[dict], options: dict | None = None,
               await_client_seeds: bool = False, hashes: dict | None = None) -> tuple[Match, dict]:
        """A new match with fresh tokens and seeds; returns it and the plain tokens (shown once). A tournament's
        match brings the hashes of its players' and organiser's tokens instead (no new tokens)."""
        tokens, hashes = new_tokens(len(players)) if hashes is None else ({}, hashes)
        client_seeds = [p.get("client_seed") or (None if await_client_seeds else fair.new_client_seed())
                        for p in players]
        match = Match.create(uuid.uuid4(), game, [p["name"] for p in players], client_seeds, hashes,
                             fair.new_server_seed(), options)
        if not match.seating:
            match.start()
        self.save(match)
        return match, tokens

    def store_import(self, match: Match) -> None:
        """Save a re-refereed match under its original id; refused if this server already has it."""
        if match.id in self.repository:
            raise VersionConflict(f"this server already holds match {match.id}")
        self.save(match)

    def load(self, match_id, version: int | None = None, for_reading: bool = False) -> Match:
        """A match from the store: for_reading, the cached match itself (never mutate it; it never changes under its
        reader), else a copy to run a command on."""
        try:
            match = self.fetch(as_uuid(match_id), version=version)
        except (AggregateNotFoundError, ValueError):
            raise UnknownMatch(match_id) from None
        if not isinstance(match, Match):  # another aggregate's id (a tournament's)
            raise UnknownMatch(match_id)
        if version is not None:
            return match  # rebuilt from the store for this load alone
        self.remember(match)  # fast-forwarded, it is a new match (store.aggregates.apply_events)
        return match if for_reading else copy.deepcopy(match)

    def held(self, match_id) -> Match:
        """The match as this process last saved or read it, not checked against the store (no read): for a command,
        which `play` makes again on the match read from the store if it is refused or finds its version taken. Read
        from the store where this process holds none."""
        try:
            match = self.cached(as_uuid(match_id))
        except ValueError:
            match = None
        if isinstance(match, Match):
            return match
        return self.load(match_id, for_reading=True)

    def play(self, match_id, seat: int, move: dict, expected_version: int | None = None, by_referee: bool = False,
             loaded: Match | None = None, reason: str | None = None) -> tuple[Match, list[dict]]:
        """Referee and record a move (or a referee's resolution for a seat); returns the match and the new events.
        It is played first on a copy of `loaded` or of this process's `held` match, which may be stale: if refused, or
        if another process recorded that version first, it is played again on the match as stored (up to RETRIES
        times), so a stale copy neither refuses a move nor records one."""
        held = self.held(match_id) if loaded is None else loaded
        for attempt in range(RETRIES + 1):
            checked = attempt > 0
            match = self.load(match_id) if checked else copy.deepcopy(held)
            try:
                if expected_version is not None and expected_version != match.version:
                    raise VersionConflict(f"the match is at version {match.version}, not {expected_version}")
                if by_referee:
                    match.resolve(seat, move, reason)
                else:
                    match.play(seat, move)
                recordings = self.save(match)
            except (IllegalMove, VersionConflict):
                if checked:
                    raise
            except IntegrityError:
                if checked and (expected_version is not None or attempt == RETRIES):
                    raise VersionConflict("another move was recorded at the same time; reload and retry") from None
            else:
                self.remember(match)
                return match, [event_record(r.domain_event) for r in recordings]
        raise AssertionError("unreachable")

    def act(self, match_id, command, *args):
        """Load a match, run one of its commands, save it; returns the match and its prior version."""
        match = self.load(match_id)
        before = match.version
        result = command(match, *args)
        try:
            self.save(match)
        except IntegrityError:
            raise VersionConflict("another change was recorded at the same time; reload and retry") from None
        return match, before, result

    def set_clock(self, match_id, reason: str, seat: int | None = None, seconds: float | None = None,
                  paused: bool | None = None) -> Match:
        """The referee adds time to a seat's clock, or pauses or restarts the clocks, with a reason."""
        return self.act(match_id, Match.set_clock, reason, seat, seconds, paused)[0]

    def call_time(self, match_id, extra_turns: int | None) -> Match:
        """Time was called in the match's tournament round: its extra turns, or a draw at once (None)."""
        return self.act(match_id, Match.call_time, extra_turns)[0]

    def expire(self, match_id) -> Match | None:
        """Record that the running seat's time has run out, and its on_timeout; None where none has run out now (a
        move came first) or another process recorded first."""
        match = self.load(match_id)
        if match.finished or not match.due(match.now()):
            return None
        match.expire()
        try:
            self.save(match)
        except IntegrityError:
            return None
        self.remember(match)
        return match

    def set_client_seed(self, match_id, seat: int, client_seed: str) -> Match:
        """A seat posts its client seed while the match is seating; the last one starts the match."""
        return self.act(match_id, Match.set_client_seed, seat, client_seed)[0]

    def start_seating(self, match_id) -> Match:
        """The referee starts a seating match; the server generates the client seeds still missing."""
        return self.act(match_id, Match.start_seating)[0]

    def open_dispute(self, match_id, seat: int, version: int, claim: str) -> tuple[Match, str]:
        """A seat disputes the event at a version; the match and the dispute's id."""
        match, _, dispute_id = self.act(match_id, Match.open_dispute, seat, version, claim)
        return match, dispute_id

    def rule_dispute(self, match_id, dispute_id: str, ruling: str, explanation: str, remedy: str | None) -> Match:
        """The referee rules on a dispute without backing up."""
        return self.act(match_id, Match.rule_dispute, dispute_id, ruling, explanation, remedy)[0]

    def request_undo(self, match_id, seat: int, to_version: int, reason: str) -> tuple[Match, str]:
        """A seat asks the referee to back up to a version; refused (IllegalMove, nothing saved) where a backup to
        that version would be. The match and the request's id."""
        def command(match: Match) -> str:
            check_backup(to_version, match.version, match.retracted, match.revealed_seed is not None)  # as back_up's
            request_id = match.request_undo(seat, to_version, reason)  # its own checks, then a move's bounds
            self.at_rest(match_id, to_version, self.history(match_id, after=to_version))
            return request_id

        match, _, request_id = self.act(match_id, command)
        return match, request_id

    def decline_undo(self, match_id, request_id: str, reason: str) -> Match:
        """The referee declines an undo request."""
        return self.act(match_id, Match.decline_undo, request_id, reason)[0]

    def take_back(self, match_id, seat: int) -> tuple[Match, int]:
        """A seat takes back its latest action of this turn (ActionsRetracted), or IllegalMove says why not."""
        match = self.load(match_id)
        log = self.history(match_id)
        target = take_back_target(log, seat, match.game.undo_class, match.game.turn_of(match.state))
        restored = self.at_rest(match_id, target, log[target:]).state
        return self.act(match_id, Match.take_back, seat, target, restored)[:2]

    def back_up(self, match_id, to_version: int, reason: str, request_id: str | None = None,
                ruling: tuple | None = None) -> tuple[Match, int]:
        """The referee backs the match up to a version (BackupPerformed), answering an undo request or, with
        ruling = (dispute id, ruling, explanation, remedy), a dispute: ruling and backup are saved together or not
        at all."""
        match = self.load(match_id)
        check_backup(to_version, match.version, match.retracted, match.revealed_seed is not None)
        if request_id is not None:
            match._pending_request(request_id)
        span = self.history(match_id, after=to_version)
        restored = self.at_rest(match_id, to_version, span).state

        def command(m: Match) -> None:
            if ruling:
                m.rule_dispute(*ruling)
            m.back_up(to_version, reason, restored, span, request_id)

        return self.act(match_id, command)[:2]

    def at_rest(self, match_id, version: int, span: list[dict]) -> Match:
        """The match at a version between two moves, or IllegalMove: a seat was to decide there, and the log `span`
        after it goes on with a platform event or with the events of one legal move of that seat."""
        return check_at_rest(self.load(match_id, version=version), version, span)

    def history(self, match_id, after: int = 0, upto: int | None = None) -> list[dict]:
        """The full, unredacted log of a match, or the part after `after` up to `upto`."""
        events = self.events.get(as_uuid(match_id), gt=after, lte=upto)
        return [event_record(e) for e in events]

    @staticmethod
    def role_of(match: Match, token: str):
        """REFEREE, a seat number, or None for a token that is not this match's."""
        digest = token_hash(token)
        found = None
        if hmac.compare_digest(digest, match.secret["tokens"][REFEREE]):
            found = REFEREE
        for seat, seat_hash in enumerate(match.secret["tokens"]["seats"]):
            if hmac.compare_digest(digest, seat_hash):
                found = seat
        return found
