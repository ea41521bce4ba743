"""Match events: the base every game's events derive from, the platform's own events, and how an event is found from
its type and payload.

An event class declares its payload (`fields`, `optional`) and its take-back role (`undo`, domain/undo.py). The game's
evolve, timeline and views modules give it its handlers (`evolves`, `describes`, `redacts`): `evolve(state, payload)`
in place, `describe(payload, state, viewer)` a sentence, `redact(payload, viewer)`. A game leaving an event without an
evolve, a sentence or an undo role cannot be built (domain/games.py). `name`, the type it is logged and chained under,
is the class name unless classes of one type differ only in payload shape.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import ClassVar

from eventsourcing.domain import Aggregate

from domain import clock, fair
from domain.moves import forget

_SHAPES_KEPT = 32  # orders of keys an event class keeps (GameEvent.fits); a log's payloads may come in any order
UNDO_ROLES = ("action-start", "action", "draw", "reveals", "random", "response", "turn", "note")


class GameEvent(Aggregate.Event):
    """An immutable record of one thing that happened: its public payload and its chain link."""

    payload: dict
    chain: str

    name: ClassVar[str]
    fields: ClassVar[tuple[str, ...]] = ()
    optional: ClassVar[tuple[str, ...]] = ()
    required: ClassVar[frozenset[str]]  # fields and optional as sets, for fits
    allowed: ClassVar[frozenset[str]]
    shapes: ClassVar[set[tuple[str, ...]]]  # the orders of keys found to fit, a few kept (fits)
    undo: ClassVar[str] = ""
    evolve: ClassVar[Callable | None] = None
    describe: ClassVar[Callable | None] = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:
            cls.name = cls.__name__
        cls.required, cls.allowed = frozenset(cls.fields), frozenset((*cls.fields, *cls.optional))
        cls.shapes = set()

    def apply(self, match) -> None:
        match.apply_event(self.name, self.payload, self.chain)

    @classmethod
    def fits(cls, payload: dict) -> bool:
        """Whether a payload has exactly this class's shape: every field, and no key it does not declare. The first
        orders of keys found to fit are kept and known again at once (a game's rules emit a few)."""
        keys = tuple(payload)
        if keys in cls.shapes:
            return True
        if not cls.required <= payload.keys() <= cls.allowed:
            return False
        if len(cls.shapes) < _SHAPES_KEPT:
            cls.shapes.add(keys)
        return True

    @classmethod
    def undo_role(cls, payload: dict) -> str:
        """What this event means for a take-back; a class whose role depends on its payload overrides this."""
        return cls.undo

    @staticmethod
    def redact(payload: dict, viewer) -> dict:
        """The payload as a viewer may see it during play: all of it, unless the class hides a part."""
        return payload


def _handler(role: str):
    def attach(*classes):
        def register(function):
            for cls in classes:
                setattr(cls, role, staticmethod(function))
            return function
        return register
    attach.__doc__ = f"Give these event classes their {role} handler."
    return attach


evolves = _handler("evolve")
describes = _handler("describe")
redacts = _handler("redact")


def sealed(payload: dict, viewer) -> dict:
    """A shuffle as the players see it during play: its random entries sealed, so no order is given away."""
    return {**payload, "random": [fair.sealed(entry) for entry in payload["random"]]}


def without(payload: dict, key: str) -> dict:
    return {k: v for k, v in payload.items() if k != key}


def counted(payload: dict, key: str = "cards") -> dict:
    """The payload with its secret cards replaced by how many there were."""
    return {**without(payload, key), "count": len(payload[key])}


# ---------------------------------------------------------------- the platform's events

class PlatformEvent(GameEvent):
    """An event every match may record, whatever its game; its sentence is told with the seats' names."""

    undo = "note"


class MatchCreated(PlatformEvent):
    """The match was created: its game, seats, client seeds and the server seed's commitment. (The aggregate records
    it as Match.MatchCreated; this class is its entry here, for its sentence, redaction and undo role.)"""

    fields = ("game", "match_id", "players", "client_seeds", "await_client_seeds", "seed_commitment", "fairness",
              "options")
    optional = ("rules",)
    undo = "turn"

    @staticmethod
    def redact(payload: dict, viewer) -> dict:
        """A tournament's match shows a seat its own decklist alone and a spectator none (RULINGS T12): the
        tournament publishes them when it ends."""
        options = payload["options"]
        if "tournament" not in options or "decklists" not in options:
            return payload
        shown = [deck if seat == viewer else None for seat, deck in enumerate(options["decklists"])]
        return {**payload, "options": {**options, "decklists": shown}}


class SeedRevealed(PlatformEvent):
    """The match ended; its server seed is published so anyone can check every draw."""

    fields = ("server_seed",)
    undo = "turn"


class MatchFinished(PlatformEvent):
    """The match is over: why (`reason`), its winners, and the game's own result details (scores, castles, ...)."""

    fields = ("reason", "winner", "winners")
    undo = "turn"

    @classmethod
    def fits(cls, payload: dict) -> bool:
        return cls.required <= payload.keys()


class RefereeResolved(PlatformEvent):
    """The referee settled a decision for a seat: the move it picked, or the game's default; with a reason when the
    decision had not yet stalled."""

    fields = ("seat", "move", "default")
    optional = ("reason",)

    @staticmethod
    def redact(payload: dict, viewer) -> dict:
        return payload if viewer == payload["seat"] else {**payload, "move": {"type": payload["move"]["type"]}}


class ClientSeedSet(PlatformEvent):
    """A seat's client seed is fixed (posted by the seat, or generated when the referee starts the match)."""

    fields = ("seat", "client_seed", "by")


class DisputeOpened(PlatformEvent):
    """A seat disputes the event at a version (a roll, a shuffle, a ruling)."""

    fields = ("dispute_id", "seat", "version", "claim")


class DisputeRuled(PlatformEvent):
    """The referee ruled on a dispute: upheld or rejected, why, and the remedy."""

    fields = ("dispute_id", "ruling", "explanation", "remedy")


class UndoRequested(PlatformEvent):
    """A seat asked the referee to back the match up to a version."""

    fields = ("request_id", "seat", "to_version", "reason")


class UndoDeclined(PlatformEvent):
    """The referee declined an undo request."""

    fields = ("request_id", "reason")


class Restoring(PlatformEvent):
    """An undo: the state goes back to what its payload records (hidden from the players until the end)."""

    undo = "turn"

    @staticmethod
    def evolve(state: dict, payload: dict) -> None:
        restored = copy.deepcopy(payload["state"])
        state.clear()
        state.update(restored)

    @staticmethod
    def redact(payload: dict, viewer) -> dict:
        return {**without(payload, "state"), "random": [fair.sealed(e) for e in payload.get("random", ())]}


class ActionsRetracted(Restoring):
    """A seat took back its own latest action; the state returns to the version before it."""

    fields = ("seat", "to_version", "retracted", "state")


class BackupPerformed(Restoring):
    """The referee backed the match up to a version; hidden zones the span revealed were reshuffled."""

    fields = ("to_version", "reason", "request_id", "reshuffled", "random", "state")


class ClockSet(PlatformEvent):
    """The clocks as they stand after a decision, a backup or the referee's change (with a reason): each seat's time,
    the running seat and its decision's allowance, read at the server's time `at` (domain/clock.py)."""

    fields = ("at", "seats", "allowance_s", "running", "paused")
    optional = ("reason", "added")

    @staticmethod
    def evolve(state: dict, payload: dict) -> None:
        state["clocks"] = clock.recorded(payload)  # replaced, never changed in place: copies of a state share it


class ClockExpired(PlatformEvent):
    """A seat's time ran out at `at`; what follows is its clock's on_timeout: the default move, or its loss."""

    fields = ("seat", "at", "on_timeout")

    @staticmethod
    def evolve(state: dict, payload: dict) -> None:
        seats = list(state["clocks"]["seats"])
        seats[payload["seat"]] = 0
        state["clocks"] = {**state["clocks"], "at": payload["at"], "seats": seats, "allowance_s": 0, "running": None}


class TimeCalled(PlatformEvent):
    """Time was called in the match's tournament round: the turn under way and `extra_turns` more are played, then the
    position is counted (RULINGS P1, P4); with `extra_turns` null the match is a draw at once."""

    fields = ("extra_turns",)

    @staticmethod
    def evolve(state: dict, payload: dict) -> None:
        state["time"] = {"extra_turns": payload["extra_turns"], "turn": 0, "current": state["current"]}


class ExtraTurnBegan(PlatformEvent):
    """After time was called, another seat's turn began: extra turn `turn` of the time's extra turns."""

    fields = ("turn", "seat")

    @staticmethod
    def evolve(state: dict, payload: dict) -> None:
        state["time"] = {**state["time"], "turn": payload["turn"], "current": payload["seat"]}


PLATFORM_EVENTS = (MatchCreated, SeedRevealed, MatchFinished, RefereeResolved, ClientSeedSet, DisputeOpened, DisputeRuled,
                   UndoRequested, UndoDeclined, ActionsRetracted, BackupPerformed, ClockSet, ClockExpired, TimeCalled,
                   ExtraTurnBegan)


def _finish(state: dict, p: dict) -> None:
    """The platform's facts of a finished match: its status, winners and result."""
    state.update(status="finished", winner=p["winner"], winners=list(p["winners"]),
                 result={k: v for k, v in p.items() if k not in ("winner", "winners")})


def _nothing(state: dict, p: dict) -> None:
    """Bookkeeping: the table stays as it is."""


evolves(MatchFinished)(_finish)
evolves(MatchCreated, SeedRevealed, RefereeResolved, ClientSeedSet, DisputeOpened, DisputeRuled, UndoRequested, UndoDeclined)(
    _nothing)


class EventTypes:
    """A game's event classes and the platform's, found by the type an event is logged under and its payload."""

    def __init__(self, classes):
        self.classes = (*PLATFORM_EVENTS, *classes)
        self.by_name: dict[str, list[type[GameEvent]]] = {}
        for cls in self.classes:
            self.by_name.setdefault(cls.name, []).append(cls)

    def __contains__(self, name: str) -> bool:
        return name in self.by_name

    def of(self, name: str, payload: dict) -> type[GameEvent]:
        """The class of a logged event. A type with one class is that class, whatever the payload (logs keep their
        old shapes); a type with several is the one whose shape the payload has."""
        classes = self.by_name.get(name)
        if classes is None:
            raise KeyError(f"no event type {name!r}")
        if len(classes) == 1:
            return classes[0]
        fitting = [cls for cls in classes if cls.fits(payload)]
        if len(fitting) != 1:
            raise KeyError(f"{name} with keys {sorted(payload)} fits {len(fitting)} of its shapes")
        return fitting[0]


def evolve_event(state: dict, cls: type[GameEvent], payload: dict) -> dict:
    """The state after one event of a known class, evolved in place. The match is active from its first game event
    (the first after seating)."""
    forget(state)
    if state["status"] == "seating" and not issubclass(cls, PlatformEvent):
        state["status"] = "active"
    cls.evolve(state, payload)
    return state


def platform_state(game: str, created: dict) -> dict:
    """The keys every game's state holds for the platform: the game, its status (seating, active, finished), whose
    turn it is (`current`, kept by the game), once finished its winner(s) and result (kept by the platform), and
    where the match has a clock, the clocks (domain/clock.py)."""
    state = {"game": game, "status": "seating" if created.get("await_client_seeds") else "active",
             "current": None, "winner": None, "winners": [], "result": None}
    option = created.get("options", {}).get(clock.OPTION)
    if option is not None:
        state["clocks"] = clock.initial(option, len(created["players"]))
    return state
