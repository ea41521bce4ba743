"""A match's page: the table as the token may see it now or at any version, the timeline, the score chart, the
fairness panel, the clocks; a seat's legal moves as buttons; the referee's undo, dispute, backup and settle actions, and
time added to a clock or the clocks paused. A live page follows the match's stream (console.js)."""
from __future__ import annotations

import json

from flask import request, url_for

from domain.matches import REFEREE, Matches
from domain.timeline import score_series
from replays.verify import verify
from service import schemas
from service.access import herald, load
from service.console import forms
from service.console.api import Refused, get
from service.console.blueprint import console
from service.console.holder import signed_in
from service.console.present import chart, clocks, move_label
from service.console.render import act, page
from service.problems import Blueprint
from service.stream_routes import event_stream


def role_label(role, players: list[str]) -> str:
    if role == REFEREE:
        return "the referee"
    return "a spectator" if role is None else f"{players[role]} (seat {role + 1})"


def match_page(match_id, notice: str | None = None, status: int = 200, verification: list[str] | None = None):
    """The page for whoever is signed in: a seat, the referee, or (no token of this match) a spectator."""
    holder = signed_in()
    summary = get(f"/matches/{match_id}")
    match = herald().matches.load(match_id, for_reading=True)
    players = list(match.created["players"])
    token = holder.token if holder else None
    role = Matches.role_of(match, token) if token else None
    mine = token if role is not None else None
    asked = request.args.get("version", type=int)
    view = get(f"/matches/{match_id}/view", mine) if mine else get(f"/matches/{match_id}/spectator-view")
    past = None
    if mine and asked and asked != view["version"]:
        try:
            past = get(f"/matches/{match_id}/replay", mine, version=asked)
        except Refused as refusal:
            notice = refusal.reason
    shown = past or view
    timeline = get(f"/matches/{match_id}/timeline", mine) if mine else get(f"/matches/{match_id}/spectator-timeline")
    revealed = any(entry["type"] == "SeedRevealed" for entry in timeline)
    moves = []
    if isinstance(role, int) and past is None:
        moves = [{"label": move_label(m, shown, players, match.game), "json": json.dumps(m)}
                 for m in get(f"/matches/{match_id}/legal-moves", mine)["moves"]]
    bundle = get(f"/matches/{match_id}/audit", mine) if mine else None
    live = past is None and summary["status"] != "finished"
    return page("match.html", status, summary=summary, game=match.game, view=shown, current=view["version"],
                past=past is not None, role=role, who=role_label(role, players), players=players, moves=moves,
                timeline=timeline[::-1], notice=notice, verification=verification,
                chart=chart(score_series(match, herald().matches.history(match.id)), players, shown["version"]),
                undo_requests=get(f"/matches/{match_id}/undo-requests", mine) if mine else [],
                disputes=get(f"/matches/{match_id}/disputes", mine) if mine else [],
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


def acts(match_id, schema: type[forms.Form], request_of):
    """A seat's or the referee's action, request_of(form) -> (path under the match, body), posted to the API."""
    def full(form):
        path, body = request_of(form)
        return f"/matches/{match_id}{path}", body

    return act(schema, full, lambda reason, status: match_page(match_id, reason, status),
               url_for("console.match", match_id=match_id))


@console.post("/matches/<uuid:match_id>/moves")
def play(match_id):
    return acts(match_id, forms.Move, lambda f: ("/moves", {**f["move"], "expected_version": f["expected_version"]}))


@console.post("/matches/<uuid:match_id>/take-back")
def take_back(match_id):
    return acts(match_id, forms.Form, lambda f: ("/undo", {}))


@console.post("/matches/<uuid:match_id>/undo-requests")
def request_undo(match_id):
    return acts(match_id, forms.UndoRequest, lambda f: ("/undo-requests", f))


@console.post("/matches/<uuid:match_id>/undo-requests/<request_id>")
def answer_undo(match_id, request_id):
    return acts(match_id, forms.UndoAnswer, lambda f: (f"/undo-requests/{request_id}", f))


@console.post("/matches/<uuid:match_id>/disputes")
def dispute(match_id):
    return acts(match_id, forms.DisputeOpen, lambda f: ("/disputes", f))


@console.post("/matches/<uuid:match_id>/disputes/<dispute_id>/ruling")
def rule(match_id, dispute_id):
    return acts(match_id, forms.Ruling, lambda f: (f"/disputes/{dispute_id}/ruling", {**f, "remedy": f["remedy"] or None}))


@console.post("/matches/<uuid:match_id>/backup")
def back_up(match_id):
    return acts(match_id, forms.Backup, lambda f: ("/undo", f))


@console.post("/matches/<uuid:match_id>/settle")
def settle(match_id):
    return acts(match_id, forms.Settle, lambda f: ("/moves", {"type": "default", "resolve_for": f["seat"],
                                                               **({"reason": f["reason"]} if f["reason"] else {})}))


@console.post("/matches/<uuid:match_id>/clock/time")
def add_time(match_id):
    return acts(match_id, forms.ClockTime, lambda f: ("/clock", f))


@console.post("/matches/<uuid:match_id>/clock/pause")
def pause_clocks(match_id):
    return acts(match_id, forms.ClockPause, lambda f: ("/clock", f))


@console.post("/matches/<uuid:match_id>/verify")
def verify_match(match_id):
    """Run the offline verifier (herald verify) on the match's export, as the token may fetch it."""
    holder = signed_in()
    try:
        if holder is None:
            raise Refused(401, "sign in first: the export needs your token")
        export = get(f"/matches/{match_id}/export", holder.token)
    except Refused as refusal:
        return match_page(match_id, refusal.reason, refusal.status)
    lines = []
    verify(export.splitlines(), out=lines.append)
    return match_page(match_id, verification=lines)
