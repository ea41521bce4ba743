"""For a Crown (Korona Władzy): families recruit Mercenaries into a shared deck and reveal it, for Rubies (its Polish
rulebook; English names from for-a-crown-notes.md). 3 to 5 players; seats are families; cards are ids.

Moves (exactly as GET /legal-moves lists them):

Recruitment (most influential first; twice in round 1):
  {"type": "recruit", "level": 1, "stack": i}                a level-1 card from face-up stack i
  {"type": "recruit", "level": l, "card": id}                a face-up Mercenary of level 2-5
  {"type": "recruit", "level": l, "source": "deck"}          the top card of a level's deck, seen by you alone
  {"type": "pay", "coins": c, "rubies": r}                   its cost, a Ruby standing in for a Coin
  {"type": "pass"}                                           only when you can pay for nothing on offer
Reveal (each by the family the card or Event names):
  {"type": "choose_effect", "effect": e}                     one of a level-1 Mercenary's two effects
  {"type": "choose_player", "target": seat}                  who takes a Masked Bandit, or loses a Ruby
  {"type": "move_portrait", "portrait": seat, "direction": "left"|"right"}   to the next free Gallery space
  {"type": "bribe", "coins": c, "rubies": r}                 Bribery: return as many Masked Bandits
  {"type": "pay_mages", "coins": 1, "rubies": 0} (or 0, 1)   Mercenary Mages: pay to roll the magic die
  {"type": "decline"}                                        let Bribery or the Mages go by
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
from .events import EVENTS
from .move_schema import MoveSchema
from .state import copy_state, new_state
from .timeline import outcome
from .view_schema import ViewSchema

GAME = Game(
    name="for_a_crown",
    title="For a Crown",
    min_players=3,
    max_players=5,
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
    rules_version=3,  # 2: a backup over a revealed Event shuffles the Event stack again (RULINGS U3); 3: an end-of-game
    # Ruby the reserve cannot give is recorded as none given (F4), and the game ends when every family is out (F9)
    options=frozenset({"cards", "board"}),
    ranked_by="rubies",
    adjudicate=decide.standing,
    table_templates=str(Path(__file__).parent / "templates"),
    seat_keys=frozenset({"target", "portrait"}),
)
