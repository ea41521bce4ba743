"""The match aggregate: one per match, every change an immutable event with a chain link."""
from __future__ import annotations

from eventsourcing.domain import Aggregate, datetime_now_with_tzinfo

from domain import clock, fair
from domain.adjudication import adjudicated
from domain.chain import GENESIS, link, links_after
from domain.copying import copy_sharing
from domain.errors import IllegalMove
from domain.events import evolve_event
from domain.registry import GAMES
from domain.undo import check_backup
from store import aggregates


def game_rules(game: str, players: int):
    """The rules of a game Herald referees, for that many players, or IllegalMove saying why not."""
    if game not in GAMES:
        raise IllegalMove(f"unknown game {game!r}; Herald referees {', '.join(sorted(GAMES))}")
    rules = GAMES[game]
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalMove(f"{game} is played by {rules.min_players} to {rules.max_players} players")
    return rules


# what a copy of a match shares with its original (Match.__deepcopy__): eventsourcing's attributes, and what never changes
_SHARED = (*aggregates.SHARED, "state", "created", "secret", "time_read")

# the platform events whose facts the match keeps beside the game state (Match._keep_books)
_BOOKKEEPING = frozenset({"SeedRevealed", "ClientSeedSet", "DisputeOpened", "DisputeRuled", "UndoRequested", "UndoDeclined",
                          "ActionsRetracted", "BackupPerformed"})


class Match(Aggregate):
    """A refereed match. Its state is only ever changed by applying its own events."""

    evolving = True  # False while recording events a game's table already evolved this state by (_record_all)
    time_read = None  # the moment a re-referee reads off the log for the clocks, instead of the server's clock
    state_shared = False  # True on a copy whose state is still its original's (__deepcopy__), until it has its own

    class MatchCreated(Aggregate.Created):
        """MatchCreated: the game, seats, client seeds and the server seed's commitment."""

        name = "MatchCreated"

        payload: dict
        chain: str
        secret: dict  # server seed and token hashes: never in a payload, view or log

    def __init__(self, payload: dict, chain: str, secret: dict):
        self.game_name = payload["game"]
        self.created = payload
        self.secret = secret
        self.chain = chain
        self.next_nonce = 0
        self.revealed_seed = None
        self.client_seeds = list(payload["client_seeds"])
        self.disputes: dict[str, dict] = {}
        self.undo_requests: dict[str, dict] = {}
        self.retracted: list[list[int]] = []  # [first, last] versions undone by each take-back or backup
        self.state = self.game.new_state(payload)

    @classmethod
    def create(cls, match_id, game: str, players: list[str], client_seeds: list[str | None],
               token_hashes: dict, server_seed: bytes, options: dict | None = None, rules: str | None = None) -> Match:
        """A new match; a None client seed is awaited from its seat (status "seating") before anything is random.
        It records the game's rules version, or for a log being re-refereed the one that log recorded (`rules`, ""
        when it predates rules versions). IllegalMove if Herald cannot referee it (unknown game, wrong player
        count, options not an object)."""
        today = game_rules(game, len(players)).rules
        recorded = today if rules is None else rules
        if not isinstance(options or {}, dict):
            raise IllegalMove("options must be a JSON object")
        if "clock" in (options or {}):
            clock.check(options["clock"])
        payload = {
            "game": game,
            "match_id": str(match_id),
            "players": list(players),
            "client_seeds": list(client_seeds),
            "await_client_seeds": None in client_seeds,
            "seed_commitment": fair.commitment(server_seed),
            "fairness": fair.SCHEME,
            "options": options or {},
        }
        if recorded:
            payload["rules"] = recorded
        chain = link(GENESIS, cls.INITIAL_VERSION, "MatchCreated", payload)
        secret = {"server_seed": server_seed.hex(), "tokens": token_hashes}
        return cls._create(cls.MatchCreated, id=match_id, payload=payload, chain=chain, secret=secret)

    def __deepcopy__(self, memo):
        """A fast deep copy (a command works on a copy of the cached match): all state is JSON-like. The game state is
        shared with the original until the copy changes it: a move's table hands the copy a state of its own
        (_record_all), and an event evolving the state in place copies it first (apply_event). `created` and `secret`
        never change."""
        copy = aggregates.copied(self, copy_sharing(self.__dict__, _SHARED))
        copy.state_shared = True
        return copy

    @property
    def game(self):
        return GAMES[self.game_name]

    @property
    def finished(self) -> bool:
        return self.state["status"] == "finished"

    def rng(self) -> fair.Generator:
        return fair.Generator(self.secret["server_seed"], self.created["match_id"],
                              self.client_seeds, self.next_nonce)

    @property
    def seating(self) -> bool:
        return None in self.client_seeds

    def start(self) -> None:
        """Deal and begin: the game's setup events."""
        self._record_all(self.game.start(self.state, self.rng()))

    def set_client_seed(self, seat: int, client_seed: str) -> None:
        """A seat posts its client seed; the match starts once every seat has one."""
        if not self.seating or self.client_seeds[seat] is not None:
            raise IllegalMove("this seat's client seed is already set; it cannot change")
        self.record_seed(seat, client_seed, "seat")

    def start_seating(self) -> None:
        """The referee starts a seating match: the server generates every missing client seed."""
        if not self.seating:
            raise IllegalMove("the match has already started")
        for seat, seed in enumerate(self.client_seeds):
            if seed is None:
                self.record_seed(seat, fair.new_client_seed(), "server")

    def record_seed(self, seat: int, client_seed: str, by: str) -> None:
        """Fix a seat's client seed; the last one starts the match."""
        if not self.seating or self.client_seeds[seat] is not None:
            raise IllegalMove(f"seat {seat}'s client seed is already set")
        self._record("ClientSeedSet", {"seat": seat, "client_seed": client_seed, "by": by})
        if not self.seating:
            self.start()

    def open_dispute(self, seat: int, version: int, claim: str) -> str:
        if not 1 <= version <= self.version:
            raise IllegalMove(f"there is no event at version {version}; the match is at version {self.version}")
        dispute_id = f"d{len(self.disputes) + 1}"
        self._record("DisputeOpened", {"dispute_id": dispute_id, "seat": seat, "version": version, "claim": claim})
        return dispute_id

    def rule_dispute(self, dispute_id: str, ruling: str, explanation: str, remedy: str | None) -> None:
        dispute = self.disputes.get(dispute_id)
        if dispute is None:
            raise KeyError(dispute_id)
        if dispute.get("ruling"):
            raise IllegalMove(f"dispute {dispute_id} was already ruled {dispute['ruling']}")
        self._record("DisputeRuled", {"dispute_id": dispute_id, "ruling": ruling, "explanation": explanation,
                                      "remedy": remedy})

    def decides_next(self, seat: int, move: dict, following: list[dict]) -> tuple[list, bool]:
        """The events this move would record now, and whether they are the first of the logged events `following`
        (the same chain values)."""
        events = self.game.decide(self.state, seat, move, self.rng())
        return events, links_after(self.chain, self.version, events) == [e["chain"] for e in following[:len(events)]]

    def play(self, seat: int, move: dict) -> None:
        """Referee a move: the rules decide its events (or raise IllegalMove), then they are recorded. A move that
        comes once the seat's clock has run out is too late: the timeout is recorded instead (Timekeeper)."""
        if self.due(self.now()):
            raise IllegalMove(f"{self.created['players'][self.state['clocks']['running']]}'s time ran out at "
                              f"{clock.stamp(clock.deadline(self.state['clocks']))}: the clock's on_timeout applies")
        self._record_all(self.game.decide(self.state, seat, move, self.rng()), seat)

    def resolve(self, seat: int, move: dict, reason: str | None = None) -> None:
        """The referee decides for a seat: the given move, or with type 'default' the game's default; or records for
        it what the game lets a referee record at any time. `reason`, why, is recorded when given."""
        default = False
        self.check_seat(seat)
        if self.game.referee_moves and move in self.game.referee_moves(self.state, seat):
            events = self.game.record(self.state, seat, move, self.rng())
        else:
            if not self.game.legal_moves(self.state, seat):
                raise IllegalMove(f"no decision of seat {seat} is pending")
            default = move.get("type") == "default"
            if default:
                move = self.game.resolution(self.state, seat)
            events = self.game.decide(self.state, seat, move, self.rng())
        resolved = {"seat": seat, "move": move, "default": default, **({"reason": reason} if reason else {})}
        self._record_all([("RefereeResolved", resolved), *events], seat)

    def now(self):
        """The time the clocks read: the server's to the millisecond, as the events record it, or while a log is
        re-refereed, the moment it recorded."""
        if self.time_read is not None:
            return self.time_read
        moment = datetime_now_with_tzinfo()
        return moment.replace(microsecond=moment.microsecond // 1000 * 1000)

    @property
    def clock_option(self) -> dict | None:
        return self.created["options"].get("clock")

    def due(self, now) -> bool:
        """Whether a seat's clock has run out by `now`."""
        deadline = clock.deadline(self.state.get("clocks"))
        return deadline is not None and now >= deadline

    def expire(self) -> None:
        """The running seat's time has run out: ClockExpired, then its clock's on_timeout, the game's default move for
        it or its loss (RULINGS P1, P3); IllegalMove if no clock has run out now."""
        now = self.now()
        if self.finished or not self.due(now):
            raise IllegalMove("no clock has run out")
        seat, on_timeout = self.state["clocks"]["running"], self.clock_option["on_timeout"]
        self._record("ClockExpired", {"seat": seat, "at": clock.stamp(now), "on_timeout": on_timeout})
        if on_timeout == "default_move":
            events = self.game.decide(self.state, seat, self.game.resolution(self.state, seat), self.rng())
        else:
            events = [("MatchFinished", adjudicated(self.game, self.state, "timeout", forfeited=seat))]
        self._record_all(events, seat if on_timeout == "default_move" else None, now)

    def call_time(self, extra_turns: int | None) -> None:
        """Time was called in the match's tournament round (RULINGS P4): the turn under way and `extra_turns` more
        are played, then the game counts the position (P1); None: a draw at once, as is a match still seating."""
        if self.finished:
            raise IllegalMove("the match is over")
        if "time" in self.state:
            raise IllegalMove("time was already called in this match")
        self._record("TimeCalled", {"extra_turns": extra_turns})
        if extra_turns is None:
            self._record_all([("MatchFinished", {"reason": "time", "winner": None, "winners": []})])
        elif self.seating:
            self._record_all([("MatchFinished", adjudicated(self.game, self.state, "time"))])

    def _count_turns(self) -> None:
        """After time was called, each new turn is counted (ExtraTurnBegan); the one after the last extra turn does
        not begin: the game counts the position instead (P1, P4)."""
        time = self.state.get("time")
        if time is None or self.state["status"] != "active" or self.state["current"] == time["current"]:
            return
        if time["turn"] >= time["extra_turns"]:
            self._record("MatchFinished", adjudicated(self.game, self.state, "time"))
        else:
            self._record("ExtraTurnBegan", {"turn": time["turn"] + 1, "seat": self.state["current"]})

    def set_clock(self, reason: str, seat: int | None = None, seconds: float | None = None,
                  paused: bool | None = None) -> None:
        """The referee adds time to a seat's clock, or pauses or restarts the clocks, saying why."""
        if self.clock_option is None:
            raise IllegalMove("this match has no clock")
        if self.finished:
            raise IllegalMove("the match is over: its clocks have stopped")
        clocks = clock.charged(self.state["clocks"], self.now())
        change = {}
        if seconds is not None:
            self.check_seat(seat)
            seats = list(clocks["seats"])
            seats[seat] = round(seats[seat] + seconds, 3)
            clocks["seats"], change["added"] = seats, {"seat": seat, "seconds": seconds}
        if paused is not None:
            if paused == clocks["paused"]:
                raise IllegalMove("the clocks are already " + ("paused" if paused else "running"))
            clocks = {**clocks, "paused": paused, "running": None if paused else self._awaiting()}
        self._record("ClockSet", {**clock.recorded(clocks), "reason": reason, **change})

    def _awaiting(self) -> int | None:
        return self.game.awaiting(self.state) if self.state["status"] == "active" else None

    def _clock(self, seat: int | None, moment) -> None:
        """After a decision by `seat` (None: the start), where the match has a clock: ClockSet, the deciding seat
        charged for its time, the awaited seat's clock running."""
        if self.clock_option is None or self.seating:
            return
        clocks = clock.charged(self.state["clocks"], moment)
        decider = seat if seat == clocks["running"] else None
        self._record("ClockSet", clock.recorded(clock.decided(clocks, self.clock_option, decider, self._awaiting())),
                     moment=moment)

    def _restore(self, type_: str, payload: dict) -> None:
        """A take-back or backup, then where the match has a clock, the clocks as they stood at the version it returns
        to, running again from now: the time since is charged to nobody (RULINGS P3); paused they stay paused. Time
        called stays called, counted again from the restored turn (P4)."""
        paused, called = self.state.get("clocks", {}).get("paused"), self.state.get("time")
        self._record(type_, payload)
        if called is not None and "time" not in self.state:  # backed up to before time was called: it stays called
            self._record("TimeCalled", {"extra_turns": called["extra_turns"]})
        if self.clock_option is not None:
            moment = self.now()
            clocks = {**self.state["clocks"], "at": clock.stamp(moment), "paused": paused}
            self._record("ClockSet", clock.recorded(clock.decided(clocks, self.clock_option, None, self._awaiting())),
                         moment=moment)

    def check_seat(self, seat: int) -> None:
        """IllegalMove unless the match has this seat."""
        if not 0 <= seat < len(self.created["players"]):
            raise IllegalMove(f"this match has no seat {seat}: its seats are 0 to {len(self.created['players']) - 1}")

    def redact(self, type_: str, payload: dict, viewer) -> dict:
        """An event's payload as a viewer may see it: everything for the referee or once the seed is revealed, but a
        tournament's decklists, which its MatchCreated keeps to their own seats (RULINGS T12)."""
        if self.revealed_seed is not None and type_ != "MatchCreated":
            return payload
        return self.game.redact(type_, payload, viewer)

    def take_back(self, seat: int, to_version: int, restored: dict) -> None:
        """Retract a seat's latest action: the state returns to what it was at to_version."""
        self._restore("ActionsRetracted", {"seat": seat, "to_version": to_version,
                                           "retracted": list(range(to_version + 1, self.version + 1)),
                                           "state": restored})

    def back_up(self, to_version: int, reason: str, restored: dict, span: list[dict],
                request_id: str | None = None) -> None:
        """The referee's backup: the state at to_version, with hidden zones the span revealed reshuffled."""
        check_backup(to_version, self.version + 1, self.retracted, self.revealed_seed is not None)
        state, reshuffled, random = self.game.backup(restored, span, self.rng())
        self._restore("BackupPerformed", {"to_version": to_version, "reason": reason, "request_id": request_id,
                                          "reshuffled": reshuffled, "random": random, "state": state})

    def request_undo(self, seat: int, to_version: int, reason: str) -> str:
        check_backup(to_version, self.version + 1, self.retracted, self.revealed_seed is not None)
        request_id = f"u{len(self.undo_requests) + 1}"
        self._record("UndoRequested", {"request_id": request_id, "seat": seat, "to_version": to_version,
                                       "reason": reason})
        return request_id

    def decline_undo(self, request_id: str, reason: str) -> None:
        self._pending_request(request_id)
        self._record("UndoDeclined", {"request_id": request_id, "reason": reason})

    def _pending_request(self, request_id: str) -> dict:
        request = self.undo_requests.get(request_id)
        if request is None:
            raise KeyError(request_id)
        if request["status"] != "pending":
            raise IllegalMove(f"undo request {request_id} was already {request['status']}")
        return request

    def _record_all(self, events: list[tuple[str, dict]], seat: int | None = None, moment=None) -> None:
        """Record the events a game decided (for `seat`'s decision, if any); those a table emitted over this very state
        leave the table's state (domain/table.py), which they already evolved, instead of evolving this one again. A
        move's events share their moment (`moment`, or now), the clocks' reading too."""
        moment = moment or self.now()
        if getattr(events, "origin", None) is self.state:
            self.evolving = False
            try:
                for (type_, payload), event_class in zip(events, events.classes):
                    self._record(type_, payload, event_class, moment)
            finally:
                del self.evolving
            self.state = events.state
            self.__dict__.pop("state_shared", None)
        else:
            for type_, payload in events:
                self._record(type_, payload, moment=moment)
        self._count_turns()
        self._clock(seat, moment)
        if self.finished and self.revealed_seed is None:
            self._record("SeedRevealed", {"server_seed": self.secret["server_seed"]})

    def _record(self, type_: str, payload: dict, event_class: type | None = None, moment=None) -> None:
        """Trigger one event, as eventsourcing's trigger_event does, and apply it, as its mutate does: applied first,
        then recorded by the store's fast path (store.aggregates.record), without mutate's checks that it has this
        match's id and next version, which it was just given. A table's event comes with its class, a move's with its
        moment."""
        version = self.version + 1
        chain = link(self.chain, version, type_, payload)
        if event_class is None:
            event_class = self.game.event(type_, payload)
        self.apply_event(type_, payload, chain, event_class)
        aggregates.record(self, event_class, version, moment or datetime_now_with_tzinfo(), payload, chain)

    def apply_event(self, type_: str, payload: dict, chain: str, event_class: type | None = None) -> None:
        """Evolve from one event (of `event_class`, where the caller knows it): the game's state, the nonce counter
        and the chain head."""
        for entry in payload.get("random", ()):
            self.next_nonce = entry["nonce"] + 1
        if type_ in _BOOKKEEPING:
            self._keep_books(type_, payload)
        if self.evolving:
            self.own_state()
            self.state = evolve_event(self.state, event_class or self.game.event(type_, payload), payload)
        self.chain = chain

    def own_state(self) -> None:
        """A copy that still shares its original's state (__deepcopy__) takes a state of its own, by the game's copy,
        before anything may change it."""
        if self.__dict__.pop("state_shared", False):
            self.state = self.game.copy_state(self.state)

    def _keep_books(self, type_: str, payload: dict) -> None:
        """What a platform event records beside the state: seeds, disputes, undo requests, retracted spans."""
        if type_ == "SeedRevealed":
            self.revealed_seed = payload["server_seed"]
        elif type_ == "ClientSeedSet":
            self.client_seeds[payload["seat"]] = payload["client_seed"]
        elif type_ == "DisputeOpened":
            self.disputes[payload["dispute_id"]] = {**payload, "opened_at": self.version + 1}
        elif type_ == "DisputeRuled":
            self.disputes[payload["dispute_id"]].update(payload, ruled_at=self.version + 1)
        elif type_ == "UndoRequested":
            self.undo_requests[payload["request_id"]] = {**payload, "status": "pending"}
        elif type_ == "UndoDeclined" or (type_ == "BackupPerformed" and payload.get("request_id")):
            status = "declined" if type_ == "UndoDeclined" else "approved"
            self.undo_requests[payload["request_id"]].update(status=status, answer=payload.get("reason"))
        if type_ in ("ActionsRetracted", "BackupPerformed"):
            self.retracted.append([payload["to_version"] + 1, self.version])
