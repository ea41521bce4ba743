"""A tournament's deck check: is a decklist legal for its game, and if not, every reason at once."""
from __future__ import annotations

from flask.views import MethodView

from domain.registry import GAMES
from service import schemas
from service.problems import Blueprint, fail

blp = Blueprint("decklists", __name__, description="Deck checks for the games whose players bring decks")


@blp.route("/decklists/check")
class DecklistCheck(MethodView):
    @blp.arguments(schemas.DecklistCheckSchema())
    @blp.response(200, schemas.DecklistVerdictSchema)
    def post(self, body):
        """Check a decklist against its game's deck-building rules (and catalogue): every problem as a sentence."""
        check = GAMES[body["game"]].check_decklist
        if check is None:
            fail(422, f"{body['game']} has no decklists: its players bring no decks")
        problems = check(body["decklist"], body.get("catalogue"))  # IllegalMove (422): not a decklist of this game
        return {"valid": not problems, "problems": problems}
