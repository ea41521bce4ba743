"""Fairness endpoints: client seeds, export, audit bundle, disputes."""
from __future__ import annotations

from flask import Response, jsonify
from flask.views import MethodView

from domain import fair
from domain.matches import REFEREE
from domain.tournaments import desk
from replays.export import audit_bundle, export_lines
from service import schemas
from service.access import herald, holding, require_referee, require_seat
from service.problems import BEARER, Blueprint, fail

blp = Blueprint("fairness", __name__, description="Provably fair randomness, the tamper-evident log, disputes",
                security=BEARER)


def act(command, *args):
    """Run one of the application's match commands and bring the views up to date; what the command returns."""
    result = command(*args)
    herald().refresh()
    return result


def backup(match_id, to_version: int, reason: str, request_id: str | None = None, ruling: tuple | None = None):
    """Back the match up to a version and bring the views up to date."""
    return act(herald().matches.back_up, match_id, to_version, reason, request_id, ruling)[0]


def seating(match):
    return jsonify({"version": match.version, "status": match.state["status"], "client_seeds": match.client_seeds})


@blp.route("/matches/<uuid:match_id>/client-seed")
class ClientSeed(MethodView):
    @blp.arguments(schemas.ClientSeedSchema())
    @blp.response(200, schemas.SeatingSchema)
    @holding
    def post(self, body, match, role):
        """A seat posts its client seed while the match is seating; the last one starts the match."""
        require_seat(role)
        match = act(herald().matches.set_client_seed, match.id, role, body["client_seed"])
        return seating(match)


@blp.route("/matches/<uuid:match_id>/start")
class Start(MethodView):
    @blp.response(200, schemas.SeatingSchema)
    @holding
    def post(self, match, role):
        """The referee starts a seating match; the server generates the client seeds still missing."""
        require_referee(role)
        match = act(herald().matches.start_seating, match.id)
        return seating(match)


def full_log(match, role):
    if role != REFEREE and not match.finished:
        fail(403, "until the match ends only the referee may export the unredacted log")
    if role != REFEREE and desk.sealed(herald().matches, match):
        fail(403, "until the tournament ends only its organiser may export its matches' unredacted logs: they hold "
                  "every seat's decklist")
    return herald().matches.history(match.id)


@blp.route("/matches/<uuid:match_id>/export")
class Export(MethodView):
    @blp.response(200, content_type="application/x-ndjson")
    @holding
    def get(self, match, role):
        """The herald-log-v1 export: a header line, then one line per event with its chain link."""
        return Response(export_text(match, role), mimetype="application/x-ndjson")


def export_text(match, role) -> str:
    """The herald-log-v1 export, for the holders full_log allows."""
    return "\n".join(export_lines(str(match.id), match.game_name, full_log(match, role))) + "\n"


@blp.route("/matches/<uuid:match_id>/audit")
class Audit(MethodView):
    @blp.response(200, schemas.AuditSchema)
    @holding
    def get(self, match, role):
        """The herald-fair-v1 audit bundle; the server seed is null until revealed, except for the referee."""
        return jsonify(audit(match, role))


def audit(match, role) -> dict:
    """The audit bundle as the holder may see it: the random draws sealed until the seed is revealed."""
    events = herald().matches.history(match.id)
    seed = match.secret["server_seed"] if role == REFEREE else match.revealed_seed
    bundle = audit_bundle(str(match.id), events, match.client_seeds, seed)
    if role != REFEREE and match.revealed_seed is None:
        bundle["random"] = [fair.sealed(entry) for entry in bundle["random"]]
    return bundle


DISPUTE_KEYS = ("dispute_id", "seat", "version", "claim", "ruling", "explanation", "remedy")


def dispute_view(match, dispute: dict, role) -> dict:
    event = herald().matches.history(match.id, after=dispute["version"] - 1)[0]
    shown = {key: dispute.get(key) for key in DISPUTE_KEYS}
    event = {**event, "payload": match.redact(event["type"], event["payload"], role)}
    evidence = {"event": event, "random": event["payload"].get("random", [])}
    if role == REFEREE or match.revealed_seed is not None:
        seed = bytes.fromhex(match.secret["server_seed"])
        evidence["server_seed"] = seed.hex()
        evidence["recomputation"] = [fair.trace(seed, str(match.id), match.client_seeds, entry)
                                     for entry in event["payload"].get("random", [])]
    shown["evidence"] = evidence
    return shown


@blp.route("/matches/<uuid:match_id>/disputes")
class Disputes(MethodView):
    @blp.response(200, schemas.DisputeSchema(many=True))
    @holding
    def get(self, match, role):
        """Disputes: a seat sees its own and their rulings; the referee sees all."""
        return jsonify(disputes(match, role))

    @blp.arguments(schemas.OpenDisputeSchema())
    @blp.response(201, schemas.DisputeSchema)
    @holding
    def post(self, body, match, role):
        """A seat disputes the event at a version."""
        return jsonify(open_dispute(match, role, body)), 201


def disputes(match, role) -> list[dict]:
    """A seat's own disputes and their rulings; the referee's all."""
    mine = [d for d in match.disputes.values() if role == REFEREE or d["seat"] == role]
    return [{k: d.get(k) for k in DISPUTE_KEYS} for d in mine]


def open_dispute(match, role, body: dict) -> dict:
    """POST /disputes: a seat disputes the event at a version."""
    require_seat(role)
    match, dispute_id = act(herald().matches.open_dispute, match.id, role, body["version"], body["claim"])
    return dispute_view(match, match.disputes[dispute_id], role)


def find_dispute(match, dispute_id, role):
    dispute = match.disputes.get(dispute_id)
    if dispute is None or (role != REFEREE and dispute["seat"] != role):
        fail(404, f"no dispute {dispute_id} of yours in this match")
    return dispute


@blp.route("/matches/<uuid:match_id>/disputes/<dispute_id>")
class Dispute(MethodView):
    @blp.response(200, schemas.DisputeSchema)
    @holding
    def get(self, match, role, dispute_id):
        """The evidence: the event, its random entries, and for the referee each HMAC block and sample."""
        return jsonify(dispute_view(match, find_dispute(match, dispute_id, role), role))


@blp.route("/matches/<uuid:match_id>/disputes/<dispute_id>/ruling")
class Ruling(MethodView):
    @blp.arguments(schemas.RulingSchema())
    @blp.response(200, schemas.DisputeSchema)
    @holding
    def post(self, body, match, role, dispute_id):
        """The referee rules: upheld or rejected, with an explanation and a remedy."""
        return jsonify(rule(match, role, dispute_id, body))


def rule(match, role, dispute_id: str, body: dict) -> dict:
    """POST /disputes/{id}/ruling: the referee's ruling, with a backup where it says one."""
    require_referee(role)
    find_dispute(match, dispute_id, role)
    ruling = (dispute_id, body["ruling"], body["explanation"], body["remedy"])
    if "backup_to" in body:
        match = backup(match.id, body["backup_to"], f"dispute {dispute_id}: {body['explanation']}", ruling=ruling)
    else:
        match = act(herald().matches.rule_dispute, match.id, *ruling)
    return dispute_view(match, match.disputes[dispute_id], role)
