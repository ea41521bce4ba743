"""The contract every game Herald referees fulfils (docs/ADDING_A_GAME.md); the registry of games is domain/registry.py."""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from domain import clock
from domain.errors import IllegalMove
from domain.events import UNDO_ROLES, EventTypes, GameEvent, PlatformEvent, evolve_event
from domain.view_schema import View

PASS = {"type": "pass"}


@dataclass(frozen=True)
class Game:
    """What the platform needs from a game: pure rules over a JSON-ready state, and its event classes."""

    # required: every game gives these
    name: str
    min_players: int
    max_players: int
    events: tuple  # its GameEvent subclasses, each with its evolve, describe and undo role (domain/events.py)
    new_state: Callable  # (created payload) -> state, holding domain.events.platform_state(created)
    start: Callable  # (state, rng) -> [(type, payload)]
    legal_moves: Callable  # (state, seat) -> [move]
    awaiting: Callable  # (state) -> the one seat whose decision is pending, or None
    decide: Callable  # (state, seat, move, rng) -> [(type, payload)]; raises IllegalMove
    view: Callable  # (state, viewer) -> dict; viewer is a seat, "referee" or None
    # its moves as POST /moves accepts them, each as legal_moves lists it: a marshmallow Schema class whose "type"
    # names the move; the service adds the platform's keys (expected_version, resolve_for, {"type": "default"})
    move_schema: type
    outcome: Callable  # (MatchFinished's payload) -> how the match ended, in words, for the timeline's last sentence
    # optional: each has a default
    title: str = ""  # as players read it: "Korona", "Crusader Kingdoms"; else its name, "race_to_20" -> "Race to 20"
    summary: Callable | None = None  # (state) -> short public dict for match lists; else from the spectator's view
    # (state, span events, rng) -> (state, reshuffled zones, random entries); else nothing is reshuffled, which is
    # right only for a game without hidden zones
    backup: Callable = field(default=lambda state, span, rng: (state, [], []))
    # (state) -> a copy as deep as its events change a state (its tables' copy, domain/table.py); a copy written for
    # the game's state is faster (docs/ADDING_A_GAME.md)
    copy_state: Callable = copy.deepcopy
    view_schema: type = View  # its view as GET /view returns it: a Schema extending domain.view_schema.View
    default_move: dict = field(default_factory=lambda: dict(PASS))  # for a stalled seat, when legal (else the first)
    options: frozenset = frozenset()  # the options a match of this game may bring, each a JSON object...
    arrays: frozenset = frozenset()  # ...or, those named here, a JSON array
    # raised whenever a rules change can refuse a move the rules once allowed; recorded in MatchCreated as name/N
    rules_version: int = 1
    # (decklist, catalogue option or None) -> [each problem, a sentence]; for a game whose players bring decks
    check_decklist: Callable | None = None
    # the MatchFinished detail holding each seat's final number, higher better ("scores"), so that a tournament can
    # place every seat of a finished match (its winners first, the others by that number); None: winners, then the rest
    ranked_by: str | None = None
    # how a position is scored when time is called (domain/adjudication.py): (state) -> {detail: [number per seat]},
    # higher better, the first detail deciding and the next breaking its ties; ranked_by among them. None: a draw
    adjudicate: Callable | None = None
    # what a referee may record for a seat at any time, beside its decisions (a card seen by mistake at a table):
    referee_moves: Callable | None = None  # (state, seat) -> [move]
    record: Callable | None = None  # (state, seat, move, rng) -> [(type, payload)]
    # the console (service/console): a folder of Jinja templates whose table.html draws a view of this game (else the
    # view is shown as nested lists), and each seat's public score, where the game has one, for its chart
    table_templates: str | None = None
    scores: Callable | None = None  # (state) -> [number per seat]
    card_keys: frozenset = frozenset({"card", "cards"})  # the keys of its moves whose values are card ids...
    seat_keys: frozenset = frozenset({"target"})  # ...and seat numbers
    move_names: Callable | None = None  # (view) -> {move key: {id: name}}, where card ids alone would be ambiguous

    def __post_init__(self):
        for cls in self.events:
            missing = unhandled(cls)
            if missing:
                raise TypeError(f"{self.name}: event {cls.__name__} has no {', '.join(missing)}")
        object.__setattr__(self, "types", EventTypes(self.events))
        if not self.title:
            object.__setattr__(self, "title", self.name.replace("_", " ").capitalize())
        if self.summary is None:
            object.__setattr__(self, "summary", partial(spectators_summary, self.view))

    @property
    def rules(self) -> str:
        """The rules version a match records in MatchCreated, e.g. korona/2."""
        return f"{self.name}/{self.rules_version}"

    def event(self, type_: str, payload: dict) -> type[GameEvent]:
        """The class of a logged event of this game or the platform."""
        return self.types.of(type_, payload)

    def option_kind(self, name: str) -> str:
        """The JSON type one of its options is: "array" for those in `arrays`, else "object"."""
        return "array" if name in self.arrays else "object"

    @property
    def match_options(self) -> frozenset:
        """The options a match of this game may bring: its own, and the platform's clock (domain/clock.py)."""
        return self.options | {clock.OPTION}

    def check_options(self, options: dict) -> None:
        """IllegalMove unless each of its options that `options` brings is of its kind, and a clock is one."""
        if clock.OPTION in options:
            clock.check(options[clock.OPTION])
        for name in sorted(self.options & options.keys()):
            if not isinstance(options[name], {"array": list, "object": dict}[self.option_kind(name)]):
                raise IllegalMove(f"the option {name} is a JSON {self.option_kind(name)}")

    def view_at(self, state: dict, viewer, version: int, chain: str) -> dict:
        """A holder's view as the API shows it: the game's, the clocks where the match has them, its version and
        chain head."""
        shown = {**self.view(state, viewer), "version": version, "chain_head": chain}
        if "clocks" in state:
            shown["clocks"] = clock.shown(state["clocks"])
        return shown

    def evolve(self, state: dict, type_: str, payload: dict) -> dict:
        """The state after one logged event of this game or the platform; in place where it can be."""
        return evolve_event(state, self.event(type_, payload), payload)

    def redact(self, type_: str, payload: dict, viewer) -> dict:
        """An event's payload as a viewer may see it during play (the referee sees all)."""
        return payload if viewer == "referee" else self.event(type_, payload).redact(payload, viewer)

    def undo_class(self, type_: str, payload: dict) -> str:
        """What an event means for a take-back (domain/undo.py)."""
        return self.event(type_, payload).undo_role(payload)

    def describe(self, type_: str, shown: dict, state: dict, viewer, payload: dict | None = None) -> str:
        """One sentence for one of this game's events, from the payload as the viewer sees it (`shown`) and the state
        before it; `payload`, the event's whole payload, tells apart shapes of one type."""
        return self.event(type_, shown if payload is None else payload).describe(shown, state, viewer)

    def is_platform(self, record: dict) -> bool:
        """Whether a logged event is one of the platform's, not one a move of this game records."""
        return issubclass(self.event(record["type"], record["payload"]), PlatformEvent)

    @staticmethod
    def turn_of(state: dict) -> int | None:
        """Whose turn it is while the match is active (a seat takes back only during its own turn)."""
        return state["current"] if state["status"] == "active" else None

    def resolution(self, state: dict, seat: int) -> dict:
        """The move the referee applies for a stalled seat: the game's default when legal, else its first option."""
        options = self.legal_moves(state, seat)
        return self.default_move if self.default_move in options else options[0]


def spectators_summary(view: Callable, state: dict) -> dict:
    """A match's summary for match lists, from what a spectator sees of it (the keys every view holds)."""
    shown = view(state, None)
    return {"players": [p["name"] if isinstance(p, dict) else p for p in shown["players"]], "status": shown["status"],
            "current_seat": shown["current_seat"], "turn": shown["turn"], "winner": shown["winner"]}


def unhandled(cls: type[GameEvent]) -> list[str]:
    """What an event class lacks to be recorded: an evolve, a sentence, an undo role."""
    missing = [role for role in ("evolve", "describe") if getattr(cls, role) is None]
    if cls.undo not in UNDO_ROLES and "undo_role" not in cls.__dict__:
        missing.append("undo role")
    if issubclass(cls, PlatformEvent):
        missing.append("place among the game's events (it is the platform's)")
    return missing
