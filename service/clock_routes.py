"""A match's clocks: the referee's changes, with a reason (the clocks themselves are in every view)."""
from __future__ import annotations

from flask.views import MethodView

from domain import clock
from service import schemas
from service.access import herald, holding, require_referee
from service.fairness_routes import act
from service.problems import BEARER, Blueprint, fail

blp = Blueprint("clocks", __name__, description="Match clocks", security=BEARER)


@blp.route("/matches/<uuid:match_id>/clock")
class Clock(MethodView):
    @blp.arguments(schemas.ClockChangeSchema())
    @blp.response(200, schemas.ClocksSchema)
    @holding
    def post(self, body, match, role):
        """The referee adds time to a seat's clock ({"seat", "add_s"}) or pauses or restarts the clocks
        ({"paused"}), with a reason recorded in the event and shown to every seat."""
        return change_clock(match, role, body)


def change_clock(match, role, body: dict) -> dict:
    """POST /clock: the referee's one change of the clocks, and the clocks after it."""
    require_referee(role)
    adding, pausing = "add_s" in body or "seat" in body, "paused" in body
    if adding == pausing:
        fail(422, 'say one change: {"seat", "add_s"} adds time to a seat\'s clock, {"paused"} pauses or restarts')
    if adding and ("add_s" not in body or "seat" not in body):
        fail(422, 'adding time needs both "seat" and "add_s"')
    match = act(herald().matches.set_clock, match.id, body["reason"], body.get("seat"), body.get("add_s"),
                body.get("paused"))
    return {"version": match.version, "clocks": clock.shown(match.state["clocks"])}
