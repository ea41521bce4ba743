"""A match's page: the table as the token may see it now or at any version, the timeline, the score chart, the
fairness panel, the clocks; a seat's legal moves as buttons; the referee's undo, dispute, backup and settle actions, and
time added to a clock or the clocks paused. A live page follows the match's stream (console.js)."""
from __future__ import annotations

import json

from flask import request, url_for

from domain.matches import REFEREE, Matches
from domain.timeline import score_series
from replays.verify import verify
from service import fairness_routes as fairness
from service import history_routes as history
from service import schemas
from service.access import authorize, herald, load
from service.clock_routes import change_clock
from service.console import forms
from service.console.api import Refused, call, checked
from service.console.blueprint import console
from service.console.holder import signed_in
from service.console.present import chart, clocks, move_label
from service.console.render import act, page
from service.fairness_routes import audit, disputes, export_text, open_dispute
from service.history_routes import ask_undo, replay_view, timeline, undo, undo_requests
from service.problems import Blueprint
from service.routes import current_summary, current_view, legal_answer
from service.stream_routes import event_stream


def role_label(role, players: list[str]) -> str:
    if role == REFEREE:
        return "the referee"
    return "a spectator" if role is None else f"{players[role]} (seat {role + 1})"


def match_page(match_id, notice: str | None = None, status: int = 200, verification: list[str] | None = None):
    """The page for whoever is signed in: a seat, the referee, or (no token of this match) a spectator."""
    holder = signed_in()
    match = call(load, match_id)
    summary = current_summary(match)
    players = list(match.created["players"])
    role = Matches.role_of(match, holder.token) if holder else None
    holds = role is not None  # a seat or the referee, not a spectator
    asked = request.args.get("version", type=int)
    view = current_view(match, role)
    past = None
    if holds and asked and asked != view["version"]:
        try:
            past = call(replay_view, match, role, asked)
        except Refused as refusal:
            notice = refusal.reason
    shown = past or view
    entries = timeline(match, role)
    revealed = any(entry["type"] == "SeedRevealed" for entry in entries)
    moves = []
    if isinstance(role, int) and past is None:
        moves = [{"label": move_label(m, shown, players, match.game), "json": json.dumps(m)}
                 for m in legal_answer(match, role)["moves"]]
    bundle = audit(match, role) if holds else None
    live = past is None and summary["status"] != "finished"
    return page("match.html", status, summary=summary, game=match.game, view=shown, current=view["version"],
                past=past is not None, role=role, who=role_label(role, players), players=players, moves=moves,
                timeline=entries[::-1], notice=notice, verification=verification,
                chart=chart(score_series(match, herald().matches.history(match.id)), players, shown["version"]),
                undo_requests=undo_requests(match, role) if holds else [],
                disputes=disputes(match, role) if holds else [],
                fairness={"commitment": summary["seed_commitment"],
                          "client_seeds": bundle["client_seeds"] if bundle else None,
                          "server_seed": bundle["server_seed"] if bundle and revealed else None},
                awaiting=match.game.awaiting(match.state), foreign=holder is not None and role is None,
                clocks=clocks(shown.get("clocks", []), players, live), live=live,
                paused=match.state.get("clocks", {}).get("paused", False))


@console.get("/matches/<uuid:match_id>")
def match(match_id):
    return match_page(match_id)


@console.get("/matches/<uuid:match_id>/stream")
def match_stream(match_id):
    """The match's live stream (GET /matches/{id}/stream) for whoever the console's cookie signs in: a seat's or the
    referee's, else a spectator's. A page's EventSource sends the cookie itself, so no token is ever in its URL."""
    query = Blueprint.ARGUMENTS_PARSER.parse(schemas.StreamQuerySchema(), request, location="query")
    match = load(match_id)
    holder = signed_in()
    return event_stream(match, Matches.role_of(match, holder.token) if holder else None, query)


def acts(match_id, schema: type[forms.Form], command):
    """A seat's or the referee's action: command(form, match, role), an operation of the API, run on the match with
    the role the signed-in token has in it."""
    def run(form, token):
        match = load(match_id)
        command(form, match, authorize(match, token))

    return act(schema, run, lambda reason, status: match_page(match_id, reason, status),
               url_for("console.match", match_id=match_id))


@console.post("/matches/<uuid:match_id>/moves")
def play(match_id):
    return acts(match_id, forms.Move, lambda f, match, role: herald().play(
        match, role, {**f["move"], "expected_version": f["expected_version"]}))


@console.post("/matches/<uuid:match_id>/take-back")
def take_back(match_id):
    return acts(match_id, forms.Form, lambda f, match, role: undo(match, role, checked(schemas.UndoSchema(), {})))


@console.post("/matches/<uuid:match_id>/undo-requests")
def request_undo(match_id):
    return acts(match_id, forms.UndoRequest,
                lambda f, match, role: ask_undo(match, role, checked(schemas.UndoRequestSchema(), f)))


@console.post("/matches/<uuid:match_id>/undo-requests/<request_id>")
def answer_undo(match_id, request_id):
    return acts(match_id, forms.UndoAnswer, lambda f, match, role: history.answer_undo(
        match, role, request_id, checked(schemas.UndoAnswerSchema(), f)))


@console.post("/matches/<uuid:match_id>/disputes")
def dispute(match_id):
    return acts(match_id, forms.DisputeOpen,
                lambda f, match, role: open_dispute(match, role, checked(schemas.OpenDisputeSchema(), f)))


@console.post("/matches/<uuid:match_id>/disputes/<dispute_id>/ruling")
def rule(match_id, dispute_id):
    return acts(match_id, forms.Ruling, lambda f, match, role: fairness.rule(
        match, role, dispute_id, checked(schemas.RulingSchema(), {**f, "remedy": f["remedy"] or None})))


@console.post("/matches/<uuid:match_id>/backup")
def back_up(match_id):
    return acts(match_id, forms.Backup, lambda f, match, role: undo(match, role, checked(schemas.UndoSchema(), f)))


@console.post("/matches/<uuid:match_id>/settle")
def settle(match_id):
    return acts(match_id, forms.Settle, lambda f, match, role: herald().play(
        match, role, {"type": "default", "resolve_for": f["seat"], **({"reason": f["reason"]} if f["reason"] else {})}))


@console.post("/matches/<uuid:match_id>/clock/time")
def add_time(match_id):
    return acts(match_id, forms.ClockTime,
                lambda f, match, role: change_clock(match, role, checked(schemas.ClockChangeSchema(), f)))


@console.post("/matches/<uuid:match_id>/clock/pause")
def pause_clocks(match_id):
    return acts(match_id, forms.ClockPause,
                lambda f, match, role: change_clock(match, role, checked(schemas.ClockChangeSchema(), f)))


@console.post("/matches/<uuid:match_id>/verify")
def verify_match(match_id):
    """Run the offline verifier (herald verify) on the match's export, as the token may fetch it."""
    holder = signed_in()
    try:
        if holder is None:
            raise Refused(401, "sign in first: the export needs your token")
        match = call(load, match_id)
        export = call(export_text, match, call(authorize, match, holder.token))
    except Refused as refusal:
        return match_page(match_id, refusal.reason, refusal.status)
    lines = []
    verify(export.splitlines(), out=lines.append)
    return match_page(match_id, verification=lines)
