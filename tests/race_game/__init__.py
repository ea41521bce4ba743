"""Race to 20: a small dice game written only inside the tests, to show a game plugs in (docs/ADDING_A_GAME.md).

Its rulebook (sections cited by the tests):
  1. Setup. The nine modifier cards (three each of +1, +2, +3) are shuffled face down; a first seat is chosen at
     random; each seat is dealt three cards, face down and seen only by their holder. The rest is the stock.
  2. Turn. Roll one six-sided die. Then you may play one modifier card from your hand; pass to bank the die plus
     the modifier as points. Your turn ends.
  3. Drawing. If you played a modifier, draw one card from the stock at the end of your turn, if it holds any.
  4. Winning. The first seat whose score reaches 20 wins at once.

Moves (exactly as GET /legal-moves lists them):
  {"type": "roll"}                roll the die (the only move at the start of a turn)
  {"type": "play", "card": id}    play that modifier card from your hand (at most one a turn)
  {"type": "pass"}                bank the points and end the turn (the default move for a stalled seat)
"""
import copy

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
from .view_schema import ViewSchema

GAME = Game(
    name="race_to_20",
    title="Race to 20",
    min_players=2,
    max_players=2,
    events=EVENTS,
    new_state=new_state,
    start=decide.start,
    legal_moves=moves.legal_moves,
    awaiting=moves.awaiting,
    decide=decide.decide,
    view=views.view,
    summary=views.summary,
    backup=undo.backup,
    copy_state=copy.deepcopy,  # its tables' copy (decide.py)
    move_schema=MoveSchema,
    view_schema=ViewSchema,
    outcome=outcome,
)
