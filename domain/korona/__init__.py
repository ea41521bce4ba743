"""Korona: the card game of stacking a kingdom (its rulebook, English edition with the Spanish original)."""
from domain.games import Game

from . import decide, evolve, moves, undo, views
from .events import EVENTS
from .move_schema import MoveSchema
from .state import new_state
from .timeline import describe

GAME = Game(
    name="korona",
    min_players=2,
    max_players=4,
    events=EVENTS,
    new_state=new_state,
    start=decide.start,
    legal_moves=moves.legal_moves,
    awaiting=moves.awaiting,
    decide=decide.decide,
    evolve=evolve.evolve,
    view=views.view,
    all_views=views.views,
    redact=views.redact,
    summary=views.summary,
    undo_class=undo.undo_class,
    backup=undo.backup,
    describe=describe,
    move_schema=MoveSchema,
    rules_version=2,  # 2: a lone card passed in a Revolt is placed, one Ruler pair and Healer stack, K3, K13
)
