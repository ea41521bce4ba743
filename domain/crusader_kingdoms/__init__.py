"""Crusader Kingdoms: the card-driven conquest of Outremer (its Spanish rulebook; sections cited as 4.1.2, 8.3, ...).

Kingdom index = seat. 1 player (solo 1st Crusade) and 2 (co-operative 3rd Crusade) play the "1st and 3rd Crusades"
map against the automated Muslims, the last kingdom (index = number of players); 3 (Saladin, Jerusalem, Antioch) and
4 (Damascus, Jerusalem, Antioch, Aleppo) play "Saladin and the 2nd Crusade". Maps and decks are data/ files, validated
on load; a match may bring its own in options {"map": {...}, "decks": {...}}.

Moves (exactly as GET /legal-moves lists them):

Your round (one action):
  {"type": "attack", "area": a}                       attack an area (then commit cards)
  {"type": "incursion", "card": troop, "target": k}   discard that troop, roll a die against kingdom k
  {"type": "play", "card": event}                     an event without a target (Trade, Mercenaries, ...)
  {"type": "play", "card": event, "target": k}        an event aimed at kingdom k (Raid, Succession, Spies, Truce)
  {"type": "play", "card": event, "area": a}          an event on an area: Walls (your castle to +1), an attack event
                                                      (the area attacked), Trade at bonus +2 (the castle to turn +1)
  {"type": "discard", "card": id}                     discard a card face down
  {"type": "pass"}
Attacking: {"type": "commit", "card": id} puts a troop, Leader or Regrouping card face down; {"type": "pass"} done.
Responding (each other player with cards, in table order): {"type": "respond", "card": id, "side": "attack"|"defence"};
  {"type": "pass"} done.
Defending: {"type": "turn_castle", "area": a} turns an adjacent +1 castle for a die; {"type": "pass"} done.
Leader: {"type": "leader_point", "die": i} adds one point to that die of its side (3 in all); {"type": "pass"} forgoes
  the rest.
Conquest reward: {"type": "reward_bonus"} advances the card bonus, {"type": "reward_castle", "area": a} turns that
  castle to its +1 side.
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
from .turns import standing
from .view_schema import ViewSchema

GAME = Game(
    name="crusader_kingdoms",
    title="Crusader Kingdoms",
    min_players=1,
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
    options=frozenset({"map", "decks"}),
    rules_version=2,  # 2: the moves have their own names (attack, commit, respond, ...); old spellings are refused
    ranked_by="castles",
    adjudicate=standing,
    table_templates=str(Path(__file__).parent / "templates"),
    seat_keys=frozenset(),  # its targets are kingdoms, not seats
)
