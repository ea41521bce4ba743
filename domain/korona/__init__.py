"""Korona: the card game of stacking a kingdom, 2-4 players (its rulebook, English edition with the Spanish original).
Cards are ids 0-89 (data/cards.json); a stack is an index into its owner's play area; seats are 0-3.

Moves (exactly as GET /legal-moves lists them):

Drawing (first, each turn):
  {"type": "draw", "source": "pile"}                        2 cards from the pile (5 with an empty hand)
  {"type": "draw", "source": "market", "card": id}          a market card (twice with an empty hand)
Your actions (up to 3):
  {"type": "place", "card": id, "stack": s, "role": r}      a Build card on stack s (no stack: a new one); a Joker
                                                            names its role
  {"type": "discard", "card": id}
  {"type": "play", "card": id, "draw": "pile"}              Extra Draw from the pile, or
  {"type": "play", "card": id, "draw": "market", "take": c} from the market
  {"type": "play", "card": id, "moved_card": c, "from_stack": s, "stack": t, "role": r}   Internal Move
  {"type": "play", "card": id, "target": seat, ...}         Donation ("zone": "hand"|"area"), Tactical Swap,
                                                            Sneak Attack (with "thief": id to move your Thief),
                                                            Glorious Attack ("stack": s)
  {"type": "play", "card": id}                              Revolt
  {"type": "end_turn"}                                      after at least one action, within the hand limit
Over the hand limit once the actions are spent: {"type": "discard", "card": id} down to 7.
Decisions inside an Action card (each by the seat it names):
  {"type": "shield", "card": id} or {"type": "pass"}        answer an Action card, or a Shield, or let it stand
  {"type": "give", "card": id}                              Donation: the card you give
  {"type": "take", "card": id}                              Tactical Swap, Sneak Attack: the card you take
  {"type": "hand_over", "card": id}                         Tactical Swap: the card you give in exchange
  {"type": "place", "card": id, "stack": s, "role": r}      where a card you received lands, or
  {"type": "place", "card": id, "to": "hand"}               into your hand if it fits nowhere
  {"type": "pass_on", "stack": s} / {..., "card": id}       Revolt: pass a whole stack, or its top card alone
  {"type": "reposition", "card": id, "from_stack": s, "stack": t, "role": r} or {"type": "pass"}
                                                            a Joker of a stolen or passed Ruler pair
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
from .actions import final_scores, standing
from .events import EVENTS
from .move_schema import MoveSchema
from .state import copy_state, new_state
from .timeline import outcome
from .view_schema import ViewSchema

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
    summary=views.summary,
    backup=undo.backup,
    copy_state=copy_state,
    move_schema=MoveSchema,
    view_schema=ViewSchema,
    outcome=outcome,
    rules_version=2,  # 2: a lone card passed in a Revolt is placed, one Ruler pair and Healer stack, K3, K13
    ranked_by="scores",
    adjudicate=standing,
    table_templates=str(Path(__file__).parent / "templates"),
    scores=final_scores,
    card_keys=frozenset({"card", "take", "moved_card", "thief"}),
)
