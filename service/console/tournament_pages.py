"""A tournament's page: players, each round's tables with their matches' status and results, the round's time, the
standings with their tiebreakers and disqualifications, the reported results still open, the timeline; the organiser's
buttons (pair the next round, drop a player, record a result), and the opponent's answer to a reported result."""
from __future__ import annotations

from flask import request, url_for

from service import schemas
from service import tournament_routes as tournaments
from service.access import herald, load
from service.console import forms
from service.console.api import call, checked
from service.console.blueprint import console
from service.console.holder import Holder, signed_in
from service.console.present import flags, round_time
from service.console.render import act, page, stall_seconds
from service.problems import Blueprint
from service.routes import current_summary
from service.tournament_stream import tournament_stream as stream_of


def organises(holder: Holder | None, tournament_id) -> bool:
    return holder is not None and holder.kind == "tournament" and holder.of == str(tournament_id) and \
        holder.role == "organiser"


def tables_of(holder: Holder | None, settled, only_own: bool = True) -> list[dict]:
    """Every round's tables of a tournament (as tournament_routes.current gives it), newest round first, with each
    match's status; the organiser's with what needs it; a player's home lists its own tables only."""
    tournament_id = str(settled.id)
    names = {row["player_id"]: row["name"] for row in tournaments.standings(settled)["standings"]}
    organiser = organises(holder, tournament_id)
    out = []
    for number in range(len(settled.rounds), 0, -1):
        for table in tournaments.paired_round(settled, number)["tables"]:
            if only_own and not organiser and (holder is None or holder.role not in table["players"]):
                continue
            loaded = load(table["match_id"])
            match = current_summary(loaded)
            needs = []
            if organiser:
                needs = flags(loaded, stall_seconds(), awaiting_result=table["placements"] is None)
            out.append({**table, "round": number, "names": [names.get(p, p) for p in table["players"]],
                        "placed": [[names.get(p, p) for p in group] for group in table["placements"] or []],
                        "status": match["status"], "version": match["version"], "needs": needs})
    return out


def tournament_page(tournament_id, notice: str | None = None, status: int = 200):
    holder = signed_in()
    settled = call(tournaments.current, tournament_id)  # loaded and its results taken in once for the whole page
    tournament = settled.summary()
    standings = tournaments.standings(settled)
    tables = tables_of(holder, settled, only_own=False)
    rounds = [tournaments.paired_round(settled, n) for n in range(1, len(settled.rounds) + 1)]
    reports = tournaments.reports(tournament_id)
    names = {row["player_id"]: row["name"] for row in standings["standings"]}
    return page("tournament.html", status, holder=holder, tournament=tournament, standings=standings,
                tables=tables, byes={r["round"]: r["byes"] for r in rounds},
                organiser=organises(holder, tournament_id), notice=notice,
                round_time=round_time(rounds[-1] if rounds else None),
                reports=open_reports(holder, tournament_id, reports, tables, names),
                timeline=tournaments.timeline(tournament_id)["sentences"])


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
    tournament = tournaments.current(tournament_id)
    holder = signed_in()
    mine = holder is not None and holder.kind == "tournament" and holder.of == str(tournament_id)
    return stream_of(tournament, holder.role if mine else None, query)


def tournament_acts(tournament_id, schema: type[forms.Form], command):
    """The organiser's or a player's action: command(form, token), an operation of the API with the signed-in token
    (the API says who may); then the views brought up to date, as after the API's own commands."""
    def run(form, token):
        command(form, token)
        herald().refresh(own=True)

    return act(schema, run, lambda reason, status: tournament_page(tournament_id, reason, status),
               url_for("console.tournament", tournament_id=tournament_id))


@console.post("/tournaments/<uuid:tournament_id>/rounds")
def pair_round(tournament_id):
    return tournament_acts(tournament_id, forms.Form, lambda form, token: tournaments.pair_round(tournament_id, token))


@console.post("/tournaments/<uuid:tournament_id>/drop")
def drop(tournament_id):
    return tournament_acts(tournament_id, forms.Drop,
                           lambda form, token: tournaments.drop(tournament_id, form["player_id"], token))


@console.post("/tournaments/<uuid:tournament_id>/results")
def record_result(tournament_id):
    return tournament_acts(tournament_id, forms.Result, lambda form, token: tournaments.record_result(
        tournament_id, checked(schemas.ResultSchema(), form), token))


@console.post("/tournaments/<uuid:tournament_id>/reports/<report_id>")
def answer_report(tournament_id, report_id):
    """The opponent confirms a reported result, or disputes it saying why."""
    return tournament_acts(tournament_id, forms.ReportAnswer, lambda form, token: tournaments.answer_report(
        tournament_id, report_id, checked(schemas.ReportAnswerSchema(), form), token))
