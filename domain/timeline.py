"""The timeline of a match: one plain English entry per event, written for one viewer."""
from __future__ import annotations

from domain import clock
from domain.events import (
    ActionsRetracted,
    BackupPerformed,
    ClientSeedSet,
    ClockExpired,
    ClockSet,
    DisputeOpened,
    DisputeRuled,
    ExtraTurnBegan,
    MatchCreated,
    MatchFinished,
    PlatformEvent,
    RefereeResolved,
    SeedRevealed,
    TimeCalled,
    UndoDeclined,
    UndoRequested,
    describes,
    evolve_event,
)
from domain.undo import retracted_flags


def _together(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


@describes(MatchCreated)
def _created(p: dict, names: list[str], game) -> str:
    return f"{_together(names)} sat down to play {game.title}."


def _finished(p: dict, names: list[str], game) -> str:
    winners = f"{_together([names[s] for s in p['winners']])} won" if p["winners"] else "nobody won"
    return f"The match ended with {game.outcome(p)}: {winners}."


describes(MatchFinished)(_finished)
describes(SeedRevealed)(lambda p, names, game: "The match is over: the server seed was revealed for anyone to check.")
describes(RefereeResolved)(lambda p, names, game: f"The referee decided for {names[p['seat']]}"
                           + (" by the game's default" if p["default"] else "")
                           + (f", before the decision stalled: {p['reason']}" if p.get("reason") else "."))
describes(ClientSeedSet)(lambda p, names, game: f"{names[p['seat']]}'s client seed was set"
                         + (" by the server." if p["by"] == "server" else "."))
describes(DisputeOpened)(lambda p, names, game: f"{names[p['seat']]} disputed version {p['version']}: {p['claim']}")
describes(DisputeRuled)(lambda p, names, game: f"The referee {p['ruling']} dispute {p['dispute_id']}: "
                        f"{p['explanation']}")
describes(ActionsRetracted)(lambda p, names, game: f"{names[p['seat']]} took back their last action "
                            f"(back to version {p['to_version']}).")
describes(UndoRequested)(lambda p, names, game: f"{names[p['seat']]} asked the referee to back up to version "
                         f"{p['to_version']}: {p['reason']}")
describes(UndoDeclined)(lambda p, names, game: f"The referee declined undo request {p['request_id']}: {p['reason']}")
describes(BackupPerformed)(lambda p, names, game: f"The referee backed the match up to version {p['to_version']}"
                           + ("; hidden cards were reshuffled." if p.get("reshuffled") else "."))


@describes(ClockSet)
def _clocks(p: dict, names: list[str], game) -> str:
    """The referee's change with its reason, else the clocks after a decision."""
    if "reason" in p:
        added = p.get("added")
        change = (f"added {clock.told(added['seconds'])} to {names[added['seat']]}'s clock" if added else
                  "paused the clocks" if p["paused"] else "restarted the clocks")
        return f"The referee {change}: {p['reason']}"
    left = ", ".join(f"{name} {clock.told(t)}" for name, t in zip(names, p["seats"]))
    running = "" if p["running"] is None else f"; {names[p['running']]}'s is running"
    return f"Clocks: {left}{running}."


describes(ClockExpired)(lambda p, names, game: f"{names[p['seat']]}'s time ran out: "
                        + ("the game's default move was played for them." if p["on_timeout"] == "default_move" else
                           "they lose."))

describes(TimeCalled)(lambda p, names, game: "Time was called in the round: " + (
    "the match is a draw." if p["extra_turns"] is None else
    "this turn is finished, then the position is counted." if p["extra_turns"] == 0 else
    f"this turn and {p['extra_turns']} more are played, then the position is counted."))
describes(ExtraTurnBegan)(lambda p, names, game: f"Extra turn {p['turn']}: {names[p['seat']]}'s.")


class Teller:
    """Tells a match's log event by event for several viewers at once, folding the state before each event once; it
    goes on from where it stopped (a live stream tells each new event as it comes)."""

    def __init__(self, match, viewers):
        self.match, self.viewers = match, list(viewers)
        self.state = None
        self.told: dict = {viewer: [] for viewer in self.viewers}  # each viewer's entries, without retracted flags

    def tell(self, log: list[dict]) -> None:
        game, names = self.match.game, self.match.created["players"]
        for event in log:
            kind, payload = event["type"], event["payload"]
            if self.state is None:
                self.state = game.new_state(payload)
            cls = game.event(kind, payload)
            platform = issubclass(cls, PlatformEvent)
            summaries = {}
            for viewer in self.viewers:
                shown = self.match.redact(kind, payload, viewer)
                summaries[viewer] = cls.describe(shown, names, game) if platform else \
                    cls.describe(shown, self.state, viewer)
            self.state = evolve_event(self.state, cls, payload)
            for viewer, summary in summaries.items():
                self.told[viewer].append({"version": event["version"], "type": kind, "seat": payload.get("seat"),
                                          "turn": self.state.get("turn"), "summary": summary})


def entries(match, log: list[dict], viewer) -> list[dict]:
    """{"version", "type", "seat", "turn", "summary", "retracted"} for each event, redacted for the viewer."""
    teller = Teller(match, [viewer])
    teller.tell(log)
    flags = retracted_flags(len(log), match.retracted)
    return [{**entry, "retracted": retracted} for entry, retracted in zip(teller.told[viewer], flags)]


def score_series(match, log: list[dict]) -> list[tuple[int, list]]:
    """(version, each seat's public score) after every event, for a game that keeps scores; else []."""
    game = match.game
    if game.scores is None:
        return []
    state, series = None, []
    for event in log:
        state = game.new_state(event["payload"]) if state is None else state
        state = game.evolve(state, event["type"], event["payload"])
        series.append((event["version"], list(game.scores(state))))
    return series
