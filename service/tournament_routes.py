"""The tournaments API: create a tournament, register and drop players, pair rounds into matches, results and
standings. The organiser's token acts as referee on every match of the tournament, a player's as its seat."""
from __future__ import annotations

import hmac

from flask import Response, jsonify, request
from flask.views import MethodView

from domain.matches import token_hash
from domain.tournaments import desk
from domain.tournaments.aggregate import decklist_commitment, round_document, tournament_document
from domain.tournaments.timeline import sentences
from replays.tournament_audit import tournament_export
from service import schemas
from service.access import bearer, herald, known_elsewhere
from service.limits import creates
from service.problems import BEARER, Blueprint, fail
from service.tournament_stream import tournament_stream

blp = Blueprint("tournaments", __name__, description="Tournaments: Swiss pairings, results and standings",
                security=BEARER)
ORGANISER = "organiser"
STREAM = {200: {"description": "text/event-stream: one message a version, its id the version; its data a JSON object: "
                               "version, event (its name), sentences (its /timeline sentences), and with a player's "
                               "token, table (round, table, match_id, seat) where the version paired its next table. "
                               "The newest message of a burst carries what changed since the stream's last message: "
                               "round (the current round as GET /rounds/{number} shows it), standings (as GET "
                               "/standings) and, with the organiser's token, reports (those waiting for an answer or "
                               "disputed). Heartbeat comments keep it open; it ends with the tournament.",
                "content": {"text/event-stream": {"schema": {"type": "string"}}}}}


@blp.after_request
def project(response):
    """After each command that succeeded, the views brought up to date (or `herald project` woken): projecting a
    tournament's new version publishes it, so its streams tell a drop, a report or a result at once."""
    if request.method == "POST" and response.status_code < 400:
        herald().refresh(own=True)
    return response


def role_in(tournament, token: str | None = None) -> str:
    """The bearer's role, or a given token's (the console's): ORGANISER or a player id; 403 for a token of another
    tournament or match, 401 for one this server does not know."""
    token = token or bearer()
    digest = token_hash(token)
    if hmac.compare_digest(digest, tournament.secret["organiser"]):
        return ORGANISER
    player = next((p for p, h in tournament.token_hashes.items() if hmac.compare_digest(digest, h)), None)
    if player is None and known_elsewhere(token):
        fail(403, "this token belongs to another tournament or match: use the organiser's or a player's token of "
                  "this tournament")
    if player is None:
        fail(401, "this token is not one of this tournament's: use the organiser's or a player's token")
    return player


def organiser(tournament, token: str | None = None) -> None:
    if role_in(tournament, token) != ORGANISER:
        fail(403, "only the organiser may do this")


def current(tournament_id):
    """The tournament with every finished match's result taken in."""
    app = herald().matches
    return desk.settle(app, desk.load(app, tournament_id))


@blp.route("/tournaments")
class Tournaments(MethodView):
    @blp.doc(security=[])
    @blp.response(200, schemas.TournamentSchema(many=True))
    def get(self):
        """List the tournaments (from the projections, kept current by the projector)."""
        herald().refresh()
        return jsonify(herald().projector.tournaments())

    @creates("tournaments created")
    @blp.doc(security=[])
    @blp.arguments(schemas.CreateTournamentSchema())
    @blp.response(201, schemas.TournamentCreatedSchema)
    def post(self, body):
        """Create a tournament; the organiser's token is shown only in this response."""
        tournament, token = desk.create(herald().matches, body)
        return {"tournament_id": str(tournament.id), "organiser_token": token}


@blp.route("/tournaments/<uuid:tournament_id>")
class TournamentSummary(MethodView):
    @blp.doc(security=[])
    @blp.response(200, schemas.TournamentSchema)
    def get(self, tournament_id):
        """The tournament's summary: game, format, status, current round."""
        return current(tournament_id).summary()


@blp.route("/tournaments/<uuid:tournament_id>/players")
class Players(MethodView):
    @creates("players registered")
    @blp.arguments(schemas.RegisterPlayerSchema())
    @blp.response(201, schemas.PlayerCreatedSchema)
    def post(self, body, tournament_id):
        """Register a player (organiser, before round 1); its token is shown only in this response."""
        organiser(desk.load(herald().matches, tournament_id))
        player_id, token = desk.register(herald().matches, tournament_id, body["name"], body.get("decklist"),
                                         body.get("missed"), body["byes"])
        return {"player_id": player_id, "token": token}


@blp.route("/tournaments/<uuid:tournament_id>/players/<player_id>/decklist")
class Decklist(MethodView):
    @blp.response(200, schemas.DecklistSchema)
    def get(self, tournament_id, player_id):
        """A player's decklist, with the salt of its commitment: until the tournament ends, for the organiser and that
        player alone (403 for anyone else); once it is over, for anyone, no token needed (RULINGS T12)."""
        tournament = current(tournament_id)
        if player_id not in tournament.players:
            fail(404, f"no player {player_id} in this tournament")
        if tournament.status != "finished" and role_in(tournament) not in (ORGANISER, player_id):
            fail(403, "until the tournament ends a decklist is seen by the organiser and its player alone")
        if player_id not in tournament.salts:
            fail(404, f"no decklist of {tournament.players[player_id]['name']} is kept secret here")
        decklist, salt = tournament.decklists[player_id], tournament.salts[player_id]
        return {"player_id": player_id, "decklist": decklist, "salt": salt,
                "commitment": decklist_commitment(decklist, salt)}


@blp.route("/tournaments/<uuid:tournament_id>/players/<player_id>/drop")
class Drop(MethodView):
    @blp.response(200, schemas.TournamentSchema)
    def post(self, tournament_id, player_id):
        """Drop a player (the organiser, or that player with its own token)."""
        return drop(tournament_id, player_id)


def drop(tournament_id, player_id: str, token: str | None = None) -> dict:
    """POST /players/{id}/drop: the tournament's summary once the player is dropped."""
    tournament = desk.load(herald().matches, tournament_id)
    if player_id not in tournament.players:
        fail(404, f"no player {player_id} in this tournament")
    if role_in(tournament, token) not in (ORGANISER, player_id):
        fail(403, "only the organiser or that player may drop it")
    return desk.drop(herald().matches, tournament_id, player_id).summary()


@blp.route("/tournaments/<uuid:tournament_id>/players/<player_id>/undrop")
class Undrop(MethodView):
    @blp.response(200, schemas.TournamentSchema)
    def post(self, tournament_id, player_id):
        """Bring back a player who dropped, before the next round is paired (the organiser)."""
        tournament = entrant(tournament_id, player_id)
        return desk.undrop(herald().matches, tournament.id, player_id).summary()


@blp.route("/tournaments/<uuid:tournament_id>/players/<player_id>/disqualify")
class Disqualify(MethodView):
    @blp.arguments(schemas.DisqualifySchema())
    @blp.response(200, schemas.TournamentSchema)
    def post(self, body, tournament_id, player_id):
        """Disqualify a player, saying why (the organiser): it is paired no more, and the standings say so."""
        tournament = entrant(tournament_id, player_id)
        return desk.disqualify(herald().matches, tournament.id, player_id, body["reason"]).summary()


def entrant(tournament_id, player_id: str):
    """The tournament, for its organiser, of a player it has: 404 for an unknown player, 401/403 for another token."""
    tournament = desk.load(herald().matches, tournament_id)
    organiser(tournament)
    if player_id not in tournament.players:
        fail(404, f"no player {player_id} in this tournament")
    return tournament


@blp.route("/tournaments/<uuid:tournament_id>/rounds")
class Rounds(MethodView):
    @blp.response(201, schemas.RoundSchema)
    def post(self, tournament_id):
        """Pair the next round once every table of the current one has a result (409 while some are playing)."""
        return pair_round(tournament_id)


def pair_round(tournament_id, token: str | None = None) -> dict:
    """POST /rounds: the organiser pairs the next round."""
    organiser(desk.load(herald().matches, tournament_id), token)
    return round_document(desk.pair_round(herald().matches, tournament_id))


@blp.route("/tournaments/<uuid:tournament_id>/rounds/<int:number>")
class Round(MethodView):
    @blp.doc(security=[])
    @blp.response(200, schemas.RoundSchema)
    def get(self, tournament_id, number):
        """A round's tables (players in seat order, placements once known) and byes."""
        return paired_round(current(tournament_id), number)


def paired_round(tournament, number: int) -> dict:
    """GET /rounds/{number}: a round of the tournament (as `current` gives it) that has been paired."""
    if not 1 <= number <= len(tournament.rounds):
        fail(404, f"round {number} has not been paired (the tournament is at round {len(tournament.rounds)})")
    return round_document(tournament.rounds[number - 1])


def standings(tournament) -> dict:
    """GET /standings: the standings of the tournament as `current` gives it."""
    return tournament_document(tournament)["standings"]


def reports(tournament_id) -> list[dict]:
    """GET /reports: every result a player reported, oldest first."""
    return list(desk.load(herald().matches, tournament_id).reports.values())


def timeline(tournament_id) -> dict:
    """GET /timeline: the tournament's log in plain English."""
    current(tournament_id)
    return {"sentences": sentences(desk.log(herald().matches, tournament_id))}


@blp.route("/tournaments/<uuid:tournament_id>/standings")
class Standings(MethodView):
    @blp.doc(security=[])
    @blp.response(200, schemas.StandingsSchema)
    def get(self, tournament_id):
        """The standings with their tiebreakers (OMW%, GW%, OGW%, each floored at 0.33)."""
        return standings(current(tournament_id))


@blp.route("/tournaments/<uuid:tournament_id>/results")
class Results(MethodView):
    @blp.arguments(schemas.ResultSchema())
    @blp.response(200, schemas.RoundSchema)
    def post(self, body, tournament_id):
        """Record or correct a table's result (organiser), with its reason: placements first place first, and at a
        two-player table, where known, the games each player won and the games drawn."""
        return record_result(tournament_id, body)


def record_result(tournament_id, body: dict, token: str | None = None) -> dict:
    """POST /results: the organiser records or corrects a table's result; the round after it."""
    organiser(desk.load(herald().matches, tournament_id), token)
    try:
        desk.record(herald().matches, tournament_id, body["round"], body["table"], body["placements"],
                    body["reason"], body.get("games"), body["drawn"])
    except KeyError:
        fail(404, f"there is no table {body['table']} in round {body['round']}")
    return round_document(desk.load(herald().matches, tournament_id).rounds[body["round"] - 1])


@blp.route("/tournaments/<uuid:tournament_id>/reports")
class Reports(MethodView):
    @blp.doc(security=[])
    @blp.response(200, schemas.ReportViewSchema(many=True))
    def get(self, tournament_id):
        """Every result a player reported, oldest first, with its status."""
        return reports(tournament_id)

    @blp.arguments(schemas.ReportSchema())
    @blp.response(201, schemas.ReportViewSchema)
    def post(self, body, tournament_id):
        """Report a table's result in games (a player of that table, for a table played off Herald)."""
        tournament = desk.load(herald().matches, tournament_id)
        player = role_in(tournament)
        table = seats_of(tournament, body["round"], body["table"])
        if player not in table:
            fail(403, "only a player of that table may report its result")
        return desk.report(herald().matches, tournament_id, body["round"], body["table"], player, body["games"],
                           body["drawn"])


@blp.route("/tournaments/<uuid:tournament_id>/reports/<report_id>")
class ReportAnswer(MethodView):
    @blp.arguments(schemas.ReportAnswerSchema())
    @blp.response(200, schemas.ReportViewSchema)
    def post(self, body, tournament_id, report_id):
        """Confirm or dispute a report (the reporter's opponent); a dispute is settled by the organiser's result."""
        return answer_report(tournament_id, report_id, body)


def answer_report(tournament_id, report_id: str, body: dict, token: str | None = None) -> dict:
    """POST /reports/{id}: the reporter's opponent confirms or disputes a report; the report after it."""
    tournament = desk.load(herald().matches, tournament_id)
    player = role_in(tournament, token)
    report = tournament.reports.get(report_id)
    if report is None:
        fail(404, f"no report {report_id} in this tournament")
    if player == report["by"] or player not in seats_of(tournament, report["round"], report["table"]):
        fail(403, "only the reporter's opponent may confirm or dispute its report")
    if body["decision"] == "dispute" and not body.get("reason"):
        fail(422, "say why you dispute the result (\"reason\"): the organiser reads it to settle the table")
    return desk.answer(herald().matches, tournament_id, report_id, player, body["decision"], body.get("reason"))


def seats_of(tournament, round_: int, table: int) -> list[str]:
    """The players of a table; 404 for a table the tournament does not have."""
    try:
        return tournament.table(round_, table)["players"]
    except KeyError:
        fail(404, f"there is no table {table} in round {round_}")


@blp.route("/tournaments/<uuid:tournament_id>/export")
class Export(MethodView):
    @blp.doc(security=[], responses={200: {"description": "the tournament's log (NDJSON): a header, then its events",
                                           "content": {"application/x-ndjson": {"schema": {"type": "string"}}}}})
    def get(self, tournament_id):
        """The tournament's log, for `herald audit-tournament`: the seed is in it once the tournament is over."""
        current(tournament_id)
        lines = tournament_export(str(tournament_id), desk.log(herald().matches, tournament_id))
        return Response("\n".join(lines) + "\n", mimetype="application/x-ndjson")


@blp.route("/tournaments/<uuid:tournament_id>/timeline")
class Timeline(MethodView):
    @blp.doc(security=[])
    @blp.response(200, schemas.TournamentTimelineSchema)
    def get(self, tournament_id):
        """The tournament's log in plain English."""
        return timeline(tournament_id)


@blp.route("/tournaments/<uuid:tournament_id>/stream")
class Stream(MethodView):
    @blp.arguments(schemas.StreamQuerySchema(), location="query")
    @blp.doc(responses=STREAM, security=[{}, {"bearer": []}])
    def get(self, query, tournament_id):
        """Every change of a tournament as it happens: the public stream without a token, with a player's its next
        tables too, with the organiser's the reports waiting. Resume with Last-Event-ID or ?from=VERSION: nothing
        lost, nothing repeated."""
        tournament = current(tournament_id)
        return tournament_stream(tournament, role_in(tournament) if "Authorization" in request.headers else None,
                                 query)


@blp.route("/tournaments/<uuid:tournament_id>/pairings")
class Pairings(MethodView):
    @blp.arguments(schemas.SwapSchema())
    @blp.response(200, schemas.RoundSchema)
    def post(self, body, tournament_id):
        """Swap two players of the current round between their tables (organiser), with a reason: both tables get
        new matches; a table with a result keeps its players."""
        organiser(desk.load(herald().matches, tournament_id))
        round_ = desk.override(herald().matches, tournament_id, *body["swap"], body["reason"])
        return round_document(round_)
