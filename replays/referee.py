"""Re-referee a herald-log-v1 export: every move re-applied through the rules, every draw re-derived.

The log records events, not moves; for each move the referee finds the legal move of the awaited seat
whose events reproduce the log's next events exactly (their chain links must match), so a log that any
rule or any random result was bent to produce is refused at the first event that does not follow.
"""
from __future__ import annotations

import copy
import json
import uuid

from domain import clock
from domain.errors import IllegalMove
from domain.match import Match
from domain.matches import SNAPSHOT_INTERVAL, check_at_rest, event_record
from domain.undo import check_backup, take_back_target
from replays import verify
from store.aggregates import apply_events


class Rejected(Exception):
    """The log cannot be re-refereed; `version` is the first event that does not follow."""

    def __init__(self, version: int, reason: str):
        super().__init__(f"version {version}: {reason}" if version else reason)
        self.version = version


def parse(lines) -> tuple[dict, list[dict]]:
    try:
        return verify.read(lines)
    except (verify.Failure, ValueError) as error:
        raise Rejected(0, str(error)) from None


READS = {  # what re-refereeing reads of each event a platform command records, of the kind the API records there
    "ClientSeedSet": {"seat": int, "client_seed": str, "by": str},
    "DisputeOpened": {"seat": int, "version": int, "claim": str},
    "DisputeRuled": {"dispute_id": str, "ruling": str, "explanation": str, "remedy": (str, type(None))},
    "UndoRequested": {"seat": int, "to_version": int, "reason": str},
    "UndoDeclined": {"request_id": str, "reason": str},
    "ActionsRetracted": {"seat": int},
    "BackupPerformed": {"to_version": int, "reason": str, "request_id": (str, type(None))},
    "RefereeResolved": {"seat": int, "move": dict},  # a JSON object, as POST /moves takes a move
}
CLOCK_EVENTS = ("ClockSet", "ClockExpired")  # the events that record the time the clocks read
KINDS = {int: "a whole number", str: "a string", dict: "a JSON object", list: "an array",
         (str, type(None)): "a string or null"}


def kind_of(value) -> str:
    """What a JSON value is, in words."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return "a number" if isinstance(value, (int, float)) else KINDS[type(value)]


def is_a(value, kind) -> bool:
    return isinstance(value, kind) and not isinstance(value, bool)


def check_created(created: dict) -> uuid.UUID:
    """MatchCreated's match id, once the fields Match.create reads are of the kind a match records; else Rejected."""
    match_id = created.get("match_id")
    try:
        parsed = uuid.UUID(match_id) if isinstance(match_id, str) else None
    except ValueError:
        parsed = None
    if parsed is None:
        shown = json.dumps(match_id)[:80] if isinstance(match_id, str) else kind_of(match_id)
        raise Rejected(1, f"MatchCreated: its match_id must be a UUID, not {shown}")
    players, client_seeds = created.get("players"), created.get("client_seeds")
    for field, value, kind in (("game", created.get("game"), str), ("players", players, list),
                               ("client_seeds", client_seeds, list), ("rules", created.get("rules", ""), str)):
        if not is_a(value, kind):
            raise Rejected(1, f"MatchCreated: its {field} must be {KINDS[kind]}, not {kind_of(value)}")
    if not all(is_a(name, str) for name in players):
        raise Rejected(1, "MatchCreated: its players must be names (strings)")
    if not all(is_a(seed, (str, type(None))) for seed in client_seeds):
        raise Rejected(1, "MatchCreated: its client_seeds must be strings or null")
    return parsed


def check_payload(event: dict) -> None:
    """Rejected unless a platform event has each field re-refereeing reads, of its kind."""
    kind, payload = event["type"], event["payload"]
    for field, wanted in READS.get(kind, {}).items():
        value = payload.get(field)
        if not is_a(value, wanted):
            told = f"must be {KINDS[wanted]}, not {kind_of(value)}" if field in payload else "is missing"
            raise Rejected(event["version"], f"{kind}: its {field} {told}")


def known(table: dict, key: str, what: str) -> None:
    """IllegalMove unless the match holds this dispute or undo request."""
    if key not in table:
        raise IllegalMove(f"this match has no {what} {key}")


class Rereferee:
    """Rebuilds a match from its log, deciding every move again."""

    def __init__(self, lines):
        """Read the log and check what the re-refereeing reads before any move: its chain, its seed, MatchCreated."""
        self.header, self.log = parse(lines)
        if not self.log:
            raise Rejected(0, "the log has no events")
        for version, event in enumerate(self.log, start=1):
            if not isinstance(event.get("type"), str) or not isinstance(event.get("payload"), dict):
                raise Rejected(version, "an event needs a type (a string) and a payload (a JSON object)")
        try:
            verify.check_chain(self.log)
            self.seed, match_id, client_seeds = verify.check_commitment(self.log)
        except verify.Failure as failure:
            raise Rejected(failure.version, str(failure)) from None
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise Rejected(0, f"the log is malformed: {error!r}") from None
        self.created = self.log[0]["payload"]
        self.match_id = check_created(self.created)
        if self.header.get("match_id") != match_id:
            raise Rejected(1, "the header's match_id differs from MatchCreated's")
        self.players, self.client_seeds = self.created["players"], client_seeds
        self.records: list[dict] = []
        self.snapshots: dict[int, Match] = {}  # the match every SNAPSHOT_INTERVAL versions, so that an undo folds few events

    def _accept(self) -> None:
        """Check the events the match just produced against the log's next events."""
        for record in [event_record(e) for e in self.match.pending_events[len(self.records):]]:
            position = len(self.records)
            if position >= len(self.log):
                raise Rejected(position + 1, f"the log ends where the rules produce {record['type']}")
            expected = self.log[position]
            if expected["chain"] != record["chain"]:
                if expected["type"] == record["type"] and record["payload"].get("random"):
                    raise self._not_recomputed(expected)
                raise Rejected(expected["version"], f"the log's {expected['type']} is not what the rules produce "
                                                    f"here ({record['type']}){self._rules_note()}")
            self.records.append(record)
        match = self.match
        if match.version == len(self.records) and match.version - max(self.snapshots, default=0) >= SNAPSHOT_INTERVAL:
            snapshot = copy.deepcopy(match)
            snapshot.own_state()  # not the match's, which evolves in place
            self.snapshots[match.version] = snapshot

    def at_rest(self, version: int, backup: bool = True) -> Match:
        """The match at this version, whose state an undo restores, or IllegalMove unless an undo may go there, as the
        server asks it (Matches.at_rest), after a backup's own checks (check_backup)."""
        match = self.match
        if backup:
            check_backup(version, match.version, match.retracted, match.revealed_seed is not None)  # as Matches.back_up
        base = max((v for v in self.snapshots if v <= version), default=0)
        kept = self.snapshots.get(base)
        past = apply_events(kept, copy.deepcopy(match.pending_events[base:version]))  # onto a copy of the kept one
        if past is kept:  # no event since the kept copy, whose state an undo's state must not be
            past = copy.deepcopy(kept)
        past.own_state()
        return check_at_rest(past, version, self.records[version:])

    def run(self, token_hashes: dict | None = None) -> Match:
        """The match the log records, re-refereed; the imported match's tokens are `token_hashes`."""
        created = self.created
        try:
            self.match = Match.create(self.match_id, created["game"], self.players, self.client_seeds,
                                      token_hashes or {"referee": "", "seats": []}, self.seed, created.get("options"),
                                      created.get("rules", ""))
        except IllegalMove as error:
            raise Rejected(1, f"MatchCreated: {error}") from None
        if len(self.client_seeds) != len(self.players):  # after the game's own count of players, a clearer reason
            raise Rejected(1, "MatchCreated: its client_seeds must hold one for each player")
        self._accept()
        if not self.match.seating:
            self._read_time()
            self.match.start()
            self._accept()
        while len(self.records) < len(self.log):
            event = self.log[len(self.records)]
            check_payload(event)
            self._read_time()
            if "seat" in READS.get(event["type"], {}):
                try:
                    self.match.check_seat(event["payload"]["seat"])
                except IllegalMove as error:
                    raise Rejected(event["version"], f"{event['type']}: {error}") from None
            try:
                self._step(event)
            except IllegalMove as error:
                raise Rejected(event["version"], f"{event['type']} is not legal here: {error}{self._rules_note()}") \
                    from None
            self._accept()
        self.match.__dict__.pop("time_read", None)  # an imported match's clocks read the server's time from now on
        return self.match

    def _read_time(self) -> None:
        """The clocks read the moment the log recorded for the next clock event (the server's clock then), never
        today's; a log without clocks has none."""
        for event in self.log[len(self.records):]:
            if event["type"] in CLOCK_EVENTS:
                try:
                    self.match.time_read = clock.read(event["payload"]["at"])
                except (KeyError, TypeError, ValueError):
                    raise Rejected(event["version"], f"{event['type']}: its at must be an ISO 8601 time") from None
                return

    def _step(self, event: dict) -> None:
        match, kind, p = self.match, event["type"], event["payload"]
        if kind == "ClockSet":
            if not is_a(p.get("reason"), str):
                raise Rejected(event["version"], "ClockSet: the clocks are set by a decision, a backup or the "
                                                 "referee's change with a reason, and none is here")
            added = p.get("added") or {}
            match.set_clock(p["reason"], added.get("seat"), added.get("seconds"),
                            p.get("paused") if "added" not in p else None)
        elif kind == "ClockExpired":
            match.expire()
        elif kind == "TimeCalled":
            extra = p.get("extra_turns")
            if extra is not None and not is_a(extra, int):
                raise Rejected(event["version"], f"TimeCalled: its extra_turns must be a whole number or null, not "
                                                 f"{kind_of(extra)}")
            match.call_time(extra)
        elif kind == "ClientSeedSet":
            match.record_seed(p["seat"], p["client_seed"], p["by"])
        elif kind == "DisputeOpened":
            match.open_dispute(p["seat"], p["version"], p["claim"])
        elif kind == "DisputeRuled":
            known(match.disputes, p["dispute_id"], "dispute")
            match.rule_dispute(p["dispute_id"], p["ruling"], p["explanation"], p.get("remedy"))
        elif kind == "UndoRequested":
            match.request_undo(p["seat"], p["to_version"], p["reason"])
        elif kind == "UndoDeclined":
            known(match.undo_requests, p["request_id"], "undo request")
            match.decline_undo(p["request_id"], p["reason"])
        elif kind == "ActionsRetracted":
            target = take_back_target(self.records, p["seat"], match.game.undo_class, match.game.turn_of(match.state))
            match.take_back(p["seat"], target, self.at_rest(target, backup=False).state)
        elif kind == "BackupPerformed":
            if p.get("request_id") is not None:
                known(match.undo_requests, p["request_id"], "undo request")
                match._pending_request(p["request_id"])
            restored = self.at_rest(p["to_version"]).state
            span = self.records[p["to_version"]:]
            match.back_up(p["to_version"], p["reason"], restored, span, p.get("request_id"))
        elif kind == "RefereeResolved":
            match.resolve(p["seat"], {"type": "default"} if p.get("default") is True else p["move"], p.get("reason"))
        else:
            self._move(event)

    def _move(self, event: dict) -> None:
        """Find and play the legal move whose events are the log's next events."""
        match = self.match
        game = match.game
        seat = game.awaiting(match.state)
        if seat is None:
            raise Rejected(event["version"], f"{event['type']} follows the end of the match")
        position = len(self.records)
        near_miss = None
        for move in game.legal_moves(match.state, seat):
            events, recorded = match.decides_next(seat, move, self.log[position:])
            if recorded:
                match.play(seat, move)
                return
            if [t for t, _ in events] == [e["type"] for e in self.log[position:position + len(events)]]:
                near_miss = events
        if near_miss and any(p.get("random") for _, p in near_miss):
            raise self._not_recomputed(event)
        raise Rejected(event["version"], f"{event['type']} ({self._told(event)}) is not the result of any legal "
                                         f"move of seat {seat} under the rules Herald applies today, "
                                         f"{match.game.rules}{self._rules_note()}")

    def _not_recomputed(self, event: dict) -> Rejected:
        return Rejected(event["version"], f"{event['type']}: a random result does not recompute from the seed"
                                          f"{self._rules_note()}")

    def _rules_note(self) -> str:
        """Why a refusal may be no tampering: the log was recorded under other rules than today's."""
        recorded = rules_of(self.match)
        if recorded == self.match.game.rules:
            return ""
        return (f"; the log was recorded under {recorded}, so what those rules allowed or recorded (a move, what a "
                "backup reshuffled) may be refused now: that is a change of rules, not a sign the log was altered")

    def _told(self, event: dict) -> str:
        """The refused move in words, as the referee's timeline tells it (its payload if it cannot be told)."""
        try:
            return self.match.game.describe(event["type"], event["payload"], self.match.state, "referee")
        except (KeyError, IndexError, TypeError, ValueError):
            return json.dumps(event["payload"], sort_keys=True)


def rules_of(match: Match) -> str:
    """The rules version a match's MatchCreated recorded."""
    return match.created.get("rules") or f"{match.game_name} rules from before Herald recorded rules versions"


def rereferee(lines, token_hashes: dict | None = None) -> Match:
    """The match rebuilt from a log by the rules, or Rejected naming the first event that does not follow."""
    return Rereferee(lines).run(token_hashes)
