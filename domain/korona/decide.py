"""Korona's decisions: the setup a match begins with, and the events each legal move records."""
from __future__ import annotations

from domain.errors import IllegalMove
from domain.moves import compact

from . import interactive
from .actions import after_action, begin_turn, draw, end_turn, new_table, play_card
from .cards import DECK_SIZE, card
from .events import CardDiscarded, CardPlaced, CardsDealt, DeckShuffled, FirstSeatChosen, MarketRevealed
from .moves import explain, legal_moves
from .state import HAND_LIMIT, MARKET_SIZE, STARTING_HAND


def start(state: dict, rng) -> list[tuple[str, dict]]:
    """Shuffle, choose the first seat, deal 5 secret cards each, reveal a 3-card market, begin."""
    table = new_table(state)
    table.emit(DeckShuffled, random=[rng.shuffle(list(range(DECK_SIZE)))])
    pick = rng.choice(len(state["players"]))
    table.emit(FirstSeatChosen, seat=pick["result"], random=[pick])
    for seat in range(len(state["players"])):
        table.emit(CardsDealt, seat=seat, cards=[card(c) for c in table.state["pile"][:STARTING_HAND]])
    table.emit(MarketRevealed, cards=[card(c) for c in table.state["pile"][:MARKET_SIZE]])
    begin_turn(table, pick["result"])
    return table.events


def decide(state: dict, seat: int, move: dict, rng) -> list[tuple[str, dict]]:
    """The events that follow from a legal move; IllegalMove with the reason otherwise."""
    move = compact(move)
    if move not in legal_moves(state, seat, move):
        raise IllegalMove(explain(state, seat, move))
    table = new_table(state)
    kind = move["type"]
    if state["steps"]:
        interactive.decide_step(table, seat, move)
        if table.state["resolving"] is None and table.state["status"] == "active":
            after_action(table, state["current"])
        return table.events
    if kind == "draw":
        draw(table, seat, move)
        return table.events
    if kind == "end_turn":
        end_turn(table, seat)
        return table.events
    if kind == "discard" and state["phase"] == "excess":
        table.emit(CardDiscarded, seat=seat, card=card(move["card"]), reason="hand_limit")
        if len(table.state["players"][seat]["hand"]) <= HAND_LIMIT:
            end_turn(table, seat)
        return table.events
    if kind == "place":
        table.emit(CardPlaced, seat=seat, card=card(move["card"]), stack=move.get("stack"), role=move.get("role"))
    elif kind == "discard":
        table.emit(CardDiscarded, seat=seat, card=card(move["card"]), reason="action")
    else:
        play_card(table, seat, move)
    if table.state["resolving"] is None:
        after_action(table, seat)
    return table.events
