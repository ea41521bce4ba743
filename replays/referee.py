"""Re-referee a herald-log-v1 export: every move re-applied through the rules, every draw re-derived.

The log records events, not moves; for each move the referee finds the legal move of the awaited seat
whose events reproduce the log's next events exactly (their chain links must match), so a log that any
rule or any random result was bent to produce is refused at the first event that does not follow.
"""
from __future__ import annotations

import copy
import json
import uuid

from domain.errors import IllegalMove
from domain.match import Match
from domain.matches import event_record
from domain.undo import take_back_target
from replays import verify


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


class Rereferee:
    """Rebuilds a match from its log, deciding every move again."""

    def __init__(self, lines, token_hashes: dict | None = None):
        self.header, self.log = parse(lines)
        if not self.log:
            raise Rejected(0, "the log has no events")
        try:
            verify.check_chain(self.log)
            self.seed, match_id, client_seeds = verify.check_commitment(self.log)
        except verify.Failure as failure:
            raise Rejected(failure.version, str(failure)) from None
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise Rejected(0, f"the log is malformed: {error!r}") from None
        if self.header.get("match_id") != match_id:
            raise Rejected(1, "the header's match_id differs from MatchCreated's")
        created = self.log[0]["payload"]
        try:
            self.match = Match.create(uuid.UUID(match_id), created["game"], created["players"], client_seeds,
                                      token_hashes or {"referee": "", "seats": []}, self.seed, created.get("options"),
                                      created.get("rules", ""))
        except IllegalMove as error:
            raise Rejected(1, f"MatchCreated: {error}") from None
        self.records: list[dict] = []
        self._accept()

    def _accept(self) -> None:
        """Check the events the match just produced against the log's next events."""
        for record in [event_record(e) for e in self.match.pending_events[len(self.records):]]:
            position = len(self.records)
            if position >= len(self.log):
                raise Rejected(position + 1, f"the log ends where the rules produce {record['type']}")
            expected = self.log[position]
            if expected["chain"] != record["chain"]:
                if expected["type"] == record["type"] and record["payload"].get("random"):
                    raise Rejected(expected["version"], f"{expected['type']}: a random result does not recompute "
                                                        "from the seed")
                raise Rejected(expected["version"], f"the log's {expected['type']} is not what the rules produce "
                                                    f"here ({record['type']})")
            self.records.append(record)

    def state_at(self, version: int) -> dict:
        game = self.match.game
        state = game.new_state(self.records[0]["payload"])
        for record in self.records[1:version]:
            state = game.evolve(state, record["type"], record["payload"])
        return copy.deepcopy(state)

    def run(self) -> Match:
        if not self.match.seating:
            self.match.start()
            self._accept()
        while len(self.records) < len(self.log):
            event = self.log[len(self.records)]
            try:
                self._step(event)
            except IllegalMove as error:
                raise Rejected(event["version"], f"{event['type']} is not legal here: {error}{self._rules_note()}") \
                    from None
            self._accept()
        return self.match

    def _step(self, event: dict) -> None:
        match, kind, p = self.match, event["type"], event["payload"]
        if kind == "ClientSeedSet":
            match.record_seed(p["seat"], p["client_seed"], p["by"])
        elif kind == "DisputeOpened":
            match.open_dispute(p["seat"], p["version"], p["claim"])
        elif kind == "DisputeRuled":
            match.rule_dispute(p["dispute_id"], p["ruling"], p["explanation"], p["remedy"])
        elif kind == "UndoRequested":
            match.request_undo(p["seat"], p["to_version"], p["reason"])
        elif kind == "UndoDeclined":
            match.decline_undo(p["request_id"], p["reason"])
        elif kind == "ActionsRetracted":
            target = take_back_target(self.records, p["seat"], match.game.undo_class, match.game.turn_of(match.state))
            match.take_back(p["seat"], target, self.state_at(target))
        elif kind == "BackupPerformed":
            span = self.records[p["to_version"]:]
            match.back_up(p["to_version"], p["reason"], self.state_at(p["to_version"]), span, p.get("request_id"))
        elif kind == "RefereeResolved":
            match.resolve(p["seat"], p["move"])
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
            raise Rejected(event["version"], f"{event['type']}: a random result does not recompute from the seed")
        raise Rejected(event["version"], f"{event['type']} ({self._told(event)}) is not the result of any legal "
                                         f"move of seat {seat} under the rules Herald applies today, "
                                         f"{match.game.rules}{self._rules_note()}")

    def _rules_note(self) -> str:
        """Why a refusal may be no tampering: the log was recorded under other rules than today's."""
        recorded = rules_of(self.match)
        if recorded == self.match.game.rules:
            return ""
        return (f"; the log was recorded under {recorded}, so a move those rules allowed may be refused now: "
                "that is a change of rules, not a sign the log was altered")

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
    return Rereferee(lines, token_hashes).run()
