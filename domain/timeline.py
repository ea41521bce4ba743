"""The timeline of a match: one plain English entry per event, written for one viewer."""
from __future__ import annotations

from domain.events import evolve_state
from domain.undo import retracted_flags


def _together(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


PLATFORM = {
    "MatchCreated": lambda p, names: f"{_together(names)} sat down to play {p['game'].replace('_', ' ').title()}.",
    "SeedRevealed": lambda p, names: "The match is over: the server seed was revealed for anyone to check.",
    "RefereeResolved": lambda p, names: f"The referee decided for {names[p['seat']]}"
                                         + (" by the rule's default." if p["default"] else "."),
    "ClientSeedSet": lambda p, names: f"{names[p['seat']]}'s client seed was set"
                                       + (" by the server." if p["by"] == "server" else "."),
    "DisputeOpened": lambda p, names: f"{names[p['seat']]} disputed version {p['version']}: {p['claim']}",
    "DisputeRuled": lambda p, names: f"The referee {p['ruling']} dispute {p['dispute_id']}: {p['explanation']}",
    "ActionsRetracted": lambda p, names: f"{names[p['seat']]} took back their last action "
                                          f"(back to version {p['to_version']}).",
    "UndoRequested": lambda p, names: f"{names[p['seat']]} asked the referee to back up to version "
                                       f"{p['to_version']}: {p['reason']}",
    "UndoDeclined": lambda p, names: f"The referee declined undo request {p['request_id']}: {p['reason']}",
    "BackupPerformed": lambda p, names: f"The referee backed the match up to version {p['to_version']}"
                                         + ("; the pile was reshuffled." if p.get("reshuffled") else "."),
}


def entries(match, log: list[dict], viewer) -> list[dict]:
    """{"version", "type", "seat", "turn", "summary", "retracted"} for each event, redacted for the viewer."""
    game = match.game
    names = match.created["players"]
    flags = retracted_flags(len(log), match.retracted)
    state = None
    out = []
    for event, retracted in zip(log, flags):
        kind, payload = event["type"], event["payload"]
        shown = match.redact(kind, payload, viewer)
        if state is None:
            state = game.new_state(payload)
            summary = PLATFORM["MatchCreated"](payload, names)
        elif kind in PLATFORM:
            summary = PLATFORM[kind](shown, names)
        else:
            summary = game.describe(kind, shown, state, viewer)
        if kind != "MatchCreated":
            state = evolve_state(game, state, kind, payload)
        out.append({"version": event["version"], "type": kind, "seat": payload.get("seat"),
                    "turn": state.get("turn"), "summary": summary, "retracted": retracted})
    return out
