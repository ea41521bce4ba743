"""A tournament's page: players, each round's tables with their matches' status and results, the standings with
their tiebreakers, the timeline; the organiser's buttons (pair the next round, drop a player, record a result)."""
from __future__ import annotations

import hashlib
import json

from flask import request, url_for

from service.access import herald
from service.console import forms
from service.console.api import get
from service.console.blueprint import console
from service.console.holder import Holder, signed_in
from service.console.present import flags
from service.console.render import act, page, stall_seconds


def organises(holder: Holder | None, tournament_id) -> bool:
    return holder is not None and holder.kind == "tournament" and holder.of == str(tournament_id) and \
        holder.role == "organiser"


def tables_of(holder: Holder | None, tournament: dict, only_own: bool = True) -> list[dict]:
    """Every round's tables, newest round first, with each match's status; the organiser's with what needs it; a
    player's home lists its own tables only."""
    tournament_id = tournament["tournament_id"]
    names = {row["player_id"]: row["name"] for row in get(f"/tournaments/{tournament_id}/standings")["standings"]}
    organiser = organises(holder, tournament_id)
    out = []
    for number in range(tournament["round"], 0, -1):
        for table in get(f"/tournaments/{tournament_id}/rounds/{number}")["tables"]:
            if only_own and not organiser and (holder is None or holder.role not in table["players"]):
                continue
            match = get(f"/matches/{table['match_id']}")
            needs = []
            if organiser:
                loaded = herald().matches.load(table["match_id"], for_reading=True)
                needs = flags(loaded, stall_seconds(), awaiting_result=table["placements"] is None)
            out.append({**table, "round": number, "names": [names.get(p, p) for p in table["players"]],
                        "placed": [[names.get(p, p) for p in group] for group in table["placements"] or []],
                        "status": match["status"], "version": match["version"], "needs": needs})
    return out


def tournament_page(tournament_id, notice: str | None = None, status: int = 200):
    holder = signed_in()
    tournament = get(f"/tournaments/{tournament_id}")
    standings = get(f"/tournaments/{tournament_id}/standings")
    tables = tables_of(holder, tournament, only_own=False)
    rounds = [get(f"/tournaments/{tournament_id}/rounds/{n}") for n in range(1, tournament["round"] + 1)]
    return page("tournament.html", status, holder=holder, tournament=tournament, standings=standings,
                tables=tables, byes={r["round"]: r["byes"] for r in rounds}, mark=mark(tournament, tables),
                organiser=organises(holder, tournament_id), notice=notice,
                timeline=get(f"/tournaments/{tournament_id}/timeline")["sentences"])


def mark(tournament: dict, tables: list[dict]) -> str:
    """What changes whenever the page would: the tournament, and each table's match version and result."""
    seen = [tournament, [(t["match_id"], t["version"], t["placements"]) for t in tables]]
    return hashlib.sha256(json.dumps(seen, sort_keys=True).encode()).hexdigest()[:16]


@console.get("/tournaments/<uuid:tournament_id>")
def tournament(tournament_id):
    return tournament_page(tournament_id)


@console.get("/tournaments/<uuid:tournament_id>/live")
def tournament_live(tournament_id):
    """204 while nothing changed since the page's mark; else htmx reloads the page."""
    tournament = get(f"/tournaments/{tournament_id}")
    if mark(tournament, tables_of(None, tournament, only_own=False)) == request.args.get("mark"):
        return "", 204
    return "", 200, {"HX-Refresh": "true"}


def organiser_acts(tournament_id, schema: type[forms.Form], request_of):
    """The organiser's action, request_of(form) -> (path under the tournament, body), posted to the API."""
    def full(form):
        path, body = request_of(form)
        return f"/tournaments/{tournament_id}{path}", body

    return act(schema, full, lambda reason, status: tournament_page(tournament_id, reason, status),
               url_for("console.tournament", tournament_id=tournament_id))


@console.post("/tournaments/<uuid:tournament_id>/rounds")
def pair_round(tournament_id):
    return organiser_acts(tournament_id, forms.Form, lambda form: ("/rounds", None))


@console.post("/tournaments/<uuid:tournament_id>/drop")
def drop(tournament_id):
    return organiser_acts(tournament_id, forms.Drop, lambda form: (f"/players/{form['player_id']}/drop", None))


@console.post("/tournaments/<uuid:tournament_id>/results")
def record_result(tournament_id):
    return organiser_acts(tournament_id, forms.Result, lambda form: ("/results", form))
