"""Whose token this is: GET /whoami, so that a client holding only a token (a bot) finds its match or tournament."""
from __future__ import annotations

from flask.views import MethodView

from domain.matches import REFEREE
from projections.projector import TOKENS, TOURNAMENT_TOKENS
from service import schemas
from service.access import bearer, token_owner
from service.problems import BEARER, Blueprint, fail

blp = Blueprint("whoami", __name__, description="Whose token this is", security=BEARER)


def match_holder(owner: str) -> dict:
    """A match token's owner ("match_id:role", as the projector indexes it) as /whoami answers it."""
    match_id, _, role = owner.partition(":")
    return {"match_id": match_id, "role": REFEREE} if role == REFEREE else {"match_id": match_id, "seat": int(role)}


def tournament_holder(owner: str) -> dict:
    """A tournament token's owner ("tournament_id:organiser" or ":player_id") as /whoami answers it."""
    tournament_id, _, role = owner.partition(":")
    return {"tournament_id": tournament_id, **({"role": role} if role == "organiser" else {"player_id": role})}


@blp.route("/whoami")
class WhoAmI(MethodView):
    @blp.response(200, schemas.WhoAmISchema)
    def get(self):
        """Whose token this is, for a client that holds nothing else (a bot).

        A seat's token: {"match_id", "seat"}; the referee's: {"match_id", "role": "referee"}; a tournament player's
        (also its seat at each of its tables): {"tournament_id", "player_id"}; the organiser's: {"tournament_id",
        "role": "organiser"}."""
        token = bearer()
        if owner := token_owner(token, TOURNAMENT_TOKENS):
            return tournament_holder(owner)
        if owner := token_owner(token, TOKENS):
            return match_holder(owner)
        fail(401, "this token is not known: use the token you were given when the match or tournament was created, "
                  "or when you registered")
