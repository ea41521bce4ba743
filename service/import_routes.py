"""Importing a herald-log-v1 export from any Herald server, re-refereed move by move."""
from __future__ import annotations

import hmac

from flask import current_app, request
from flask.views import MethodView

from domain.matches import REFEREE, new_tokens
from replays.referee import Rejected, Rereferee
from service import schemas
from service.access import bearer, herald, token_owner
from service.problems import BEARER, Blueprint, fail

blp = Blueprint("import", __name__, description="Re-refereeing logs", security=BEARER)
MAX_LOG = 8 * 1024 * 1024


def require_importer() -> None:
    """The admin key (HERALD_ADMIN_KEY) or the referee token of any match on this server."""
    token = bearer()
    admin = current_app.config.get("HERALD_ADMIN_KEY")
    if admin and hmac.compare_digest(token.encode(), admin.encode()):
        return
    owner = token_owner(token)
    if owner is None:
        fail(401, "import needs the admin key or a referee token of this server")
    if not owner.endswith(f":{REFEREE}"):
        fail(403, "a seat token cannot import matches; use a referee token or the admin key")


@blp.route("/matches/import")
class Import(MethodView):
    @blp.doc(requestBody={"required": True, "description": "a herald-log-v1 export as GET /export gives it (any "
                          "content type): a header line, then one JSON line per event", "content": {
                              "application/x-ndjson": {"schema": {"type": "string", "maxLength": MAX_LOG}}}})
    @blp.response(201, schemas.CreatedSchema)
    def post(self):
        """Import a herald-log-v1 export (NDJSON body): 422 names the first illegal move or mismatching result."""
        require_importer()
        text = request.get_data(as_text=True)
        try:
            referee = Rereferee(text.splitlines())
            tokens, hashes = new_tokens(len(referee.players))
            match = referee.run(hashes)
        except Rejected as rejected:
            fail(422, f"the log was not imported: {rejected}")
        herald().matches.store_import(match)
        herald().refresh()
        seats = [{"seat": i, "name": n, "token": t} for i, (n, t) in enumerate(zip(referee.players, tokens["seats"]))]
        return {"match_id": str(match.id), "game": match.game_name, "version": match.version,
                "status": match.state["status"], "seed_commitment": match.created["seed_commitment"],
                "seats": seats, "referee_token": tokens[REFEREE]}
