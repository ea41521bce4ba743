"""Kingdom TCG: chapter 3 of its rules (the strategy deck, Spanish) refereed exactly, on a provisional base game of
a battlefield, combatants and three stages a turn (RULINGS KT1-KT7). 2 players; each brings a decklist.

Moves (exactly as GET /legal-moves lists them):

At a window (before or after one of chapter 3's events), the seat holding the priority:
  {"type": "activate", "card": id}                                   a usable strategy card of its hand
  {"type": "activate", "card": id, "thrower": id, "target": id}      a Throw card: its troop, the enemy hit
  {"type": "pass"}                                                   no (further) response
Whenever a seat decides, it may also change its setting (RULINGS KT3):
  {"type": "control", "full": true}                                  asked at every window while holding a card
The seat whose turn it is:
  {"type": "summon", "combatant": id, "space": [row, column]}        a troop onto its home row
  {"type": "move", "combatant": id, "to": [row, column]}             along the combatant's cross
  {"type": "attack", "attacker": id, "target": id}                   name the main attacker and main enemy
  {"type": "skip"}                                                   summon, move or attack nothing
At a turn's end, a seat above the hand limit:
  {"type": "discard", "card": id}                                    one card, until 7 are left
The referee, for a seat (with "resolve_for"), at any time, for a table playing with physical cards:
  {"type": "mistake", "source": "deck"} or {"type": "mistake", "card": id}    a card seen by mistake, discarded
"""
from pathlib import Path

from domain.games import Game

from . import (
    decide,
    evolve,  # noqa: F401 (gives every event its evolve handler)
    moves,
    undo,
    views,
)
from .decklists import check
from .events import EVENTS
from .move_schema import MoveSchema
from .state import copy_state, new_state
from .timeline import outcome
from .view_schema import ViewSchema

GAME = Game(
    name="kingdom_tcg",
    title="Kingdom TCG",
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
    copy_state=copy_state,
    move_schema=MoveSchema,
    view_schema=ViewSchema,
    outcome=outcome,
    rules_version=4,  # 2: a backup over a deck card seen by mistake shuffles that deck again (RULINGS KT7); 3: the
    # summoning and movement tables read by the d6's face kept (KT2), a Throw card never used in battle (KT6); 4: a
    # Throw's rolls and defeat and a card's draw have their windows, a Throw's rolls take modifiers, full control
    # (KT3, KT5)
    default_move={"type": "pass"},
    options=frozenset({"decklists", "catalogue", "cards", "board"}),
    arrays=frozenset({"decklists"}),
    check_decklist=check,
    adjudicate=decide.standing,
    referee_moves=moves.referee_moves,
    record=decide.record,
    table_templates=str(Path(__file__).parent / "templates"),
    seat_keys=frozenset(),  # its targets are combatants
    move_names=views.move_names,
)
