"""A tournament's page: players, each round's tables with their matches' status and results, the round's time, the
standings with their tiebreakers and disqualifications, the reported results still open, the timeline; the organiser's
buttons (pair the next round, drop a player, record a result), and the opponent's answer to a reported result."""
from __future__ import annotations

from flask import request, url_for

from service import schemas
from service.access import herald
from service.console import forms
from service.console.api import get
from service.console.blueprint import console
from service.console.holder import Holder, signed_in
from service.console.present import flags, round_time
from service.console.render import act, page, stall_seconds
from service.problems import Blueprint
from service.tournament_routes import current
from service.tournament_stream import tournament_stream as stream_of


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
    reports = get(f"/tournaments/{tournament_id}/reports")
    names = {row["player_id"]: row["name"] for row in standings["standings"]}
    return page("tournament.html", status, holder=holder, tournament=tournament, standings=standings,
                tables=tables, byes={r["round"]: r["byes"] for r in rounds},
                organiser=organises(holder, tournament_id), notice=notice,
                round_time=round_time(rounds[-1] if rounds else None),
                reports=open_reports(holder, tournament_id, reports, tables, names),
                timeline=get(f"/tournaments/{tournament_id}/timeline")["sentences"])


def open_reports(holder: Holder | None, tournament_id, reports: list[dict], tables: list[dict],
                 names: dict) -> list[dict]:
    """The reported results still open, waiting for the opponent's answer or (disputed) for the organiser's result:
    every one for the organiser, a player's own tables' for a player, none for anyone else. Each says whose answer
    it waits for, and whether that is the signed-in player's (who may then confirm or dispute it)."""
    organiser = organises(holder, tournament_id)
    me = holder.role if holder is not None and holder.kind == "tournament" and holder.of == str(tournament_id) \
        else None
    seats = {(t["round"], t["table"]): t["players"] for t in tables}
    out = []
    for report in reports:
        players = seats.get((report["round"], report["table"])) or list(report["games"])
        if report["status"] not in ("waiting", "disputed") or not (organiser or (me and me in players)):
            continue
        opponent = next((p for p in players if p != report["by"]), None)
        out.append({**report, "reporter": names.get(report["by"], report["by"]),
                    "opponent": names.get(opponent, opponent),
                    "score": ", ".join(f"{names.get(p, p)} {report['games'].get(p, 0)}" for p in players),
                    "mine": report["status"] == "waiting" and me is not None and me == opponent})
    return out


@console.get("/tournaments/<uuid:tournament_id>")
def tournament(tournament_id):
    return tournament_page(tournament_id)


@console.get("/tournaments/<uuid:tournament_id>/stream")
def tournament_stream(tournament_id):
    """The tournament's live stream (GET /tournaments/{id}/stream) for whoever the console's cookie signs in: the
    organiser's or a player's of this tournament, else the public one; no token in the page's URL."""
    query = Blueprint.ARGUMENTS_PARSER.parse(schemas.StreamQuerySchema(), request, location="query")
    tournament = current(tournament_id)
    holder = signed_in()
    mine = holder is not None and holder.kind == "tournament" and holder.of == str(tournament_id)
    return stream_of(tournament, holder.role if mine else None, query)


def tournament_acts(tournament_id, schema: type[forms.Form], request_of):
    """The organiser's or a player's action, request_of(form) -> (path under the tournament, body), posted to the API
    with the signed-in token (the API says who may)."""
    def full(form):
        path, body = request_of(form)
        return f"/tournaments/{tournament_id}{path}", body

    return act(schema, full, lambda reason, status: tournament_page(tournament_id, reason, status),
               url_for("console.tournament", tournament_id=tournament_id))


@console.post("/tournaments/<uuid:tournament_id>/rounds")
def pair_round(tournament_id):
    return tournament_acts(tournament_id, forms.Form, lambda form: ("/rounds", None))


@console.post("/tournaments/<uuid:tournament_id>/drop")
def drop(tournament_id):
    return tournament_acts(tournament_id, forms.Drop, lambda form: (f"/players/{form['player_id']}/drop", None))


@console.post("/tournaments/<uuid:tournament_id>/results")
def record_result(tournament_id):
    return tournament_acts(tournament_id, forms.Result, lambda form: ("/results", form))


@console.post("/tournaments/<uuid:tournament_id>/reports/<report_id>")
def answer_report(tournament_id, report_id):
    """The opponent confirms a reported result, or disputes it saying why."""
    return tournament_acts(tournament_id, forms.ReportAnswer, lambda form: (f"/reports/{report_id}", form))
