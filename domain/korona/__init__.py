"""Korona: the card game of stacking a kingdom (its rulebook, English edition with the Spanish original)."""
from domain.games import Game

from . import rules
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
    start=rules.start,
    legal_moves=rules.legal_moves,
    awaiting=rules.awaiting,
    decide=rules.decide,
    evolve=rules.evolve,
    view=rules.view,
    all_views=rules.views,
    redact=rules.redact,
    summary=rules.summary,
    undo_class=rules.undo_class,
    backup=rules.backup,
    describe=describe,
    move_schema=MoveSchema,
    rules_version=2,  # 2: a lone card passed in a Revolt is placed, one Ruler pair and Healer stack, K3, K13
)
