"""Korona: the card game of stacking a kingdom (its rulebook, English edition with the Spanish original)."""
from domain.games import Game

from . import (
    decide,
    evolve,  # noqa: F401 (gives every event its evolve handler)
    moves,
    undo,
    views,
)
from .events import EVENTS
from .move_schema import MoveSchema
from .state import new_state
from .timeline import outcome

GAME = Game(
    name="korona",
    title="Korona",
    min_players=2,
    max_players=4,
    events=EVENTS,
    new_state=new_state,
    start=decide.start,
    legal_moves=moves.legal_moves,
    awaiting=moves.awaiting,
    decide=decide.decide,
    view=views.view,
    all_views=views.views,
    summary=views.summary,
    backup=undo.backup,
    move_schema=MoveSchema,
    outcome=outcome,
    rules_version=2,  # 2: a lone card passed in a Revolt is placed, one Ruler pair and Healer stack, K3, K13
)
