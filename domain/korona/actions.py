"""Korona's steps of play that record events: drawing, playing a card, ending a turn, finishing the match."""
from __future__ import annotations

from domain.events import MatchFinished
from domain.table import Table

from . import interactive
from .cards import NAMES, card
from .events import (
    ActionCardPlayed,
    CardMoved,
    CardsDrawn,
    HandLimitExceeded,
    MarketRefilled,
    TurnEnded,
    TurnStarted,
    VictoryDeclared,
)
from .scoring import combo, farmers, score
from .state import EMPTY_HAND_PILE_DRAW, EXTRA_DRAW_PILE, HAND_LIMIT, MARKET_SIZE, MAX_ACTIONS, PILE_DRAW, copy_state


def new_table(state: dict) -> Table:
    """A working table on a copy of the state."""
    return Table(state, copy_state)


def begin_turn(table: Table, seat: int) -> None:
    state = table.state
    table.emit(TurnStarted, seat=seat, turn=state["turn"] + 1,
               empty_hand=not state["players"][seat]["hand"])


def draw(table: Table, seat: int, move: dict) -> None:
    state = table.state
    if move["source"] == "pile":
        wanted = EMPTY_HAND_PILE_DRAW if state["empty_start"] else PILE_DRAW
        drawn = [card(c) for c in state["pile"][:wanted]]
        table.emit(CardsDrawn, seat=seat, source="pile", cards=drawn, step="draw", draws_left=0)
        return
    market_after = len(state["market"]) - 1 + (1 if state["pile"] else 0)
    draws_left = state["market_draws"] - 1 if market_after else 0
    table.emit(CardsDrawn, seat=seat, source="market", cards=[card(move["card"])], step="draw",
               draws_left=draws_left)
    _refill(table)


def _refill(table: Table) -> None:
    if table.state["pile"] and len(table.state["market"]) < MARKET_SIZE:
        table.emit(MarketRefilled, card=card(table.state["pile"][0]))


def play_card(table: Table, seat: int, move: dict) -> None:
    state = table.state
    details = {key: move[key] for key in ("target", "zone", "thief", "stack") if key in move}
    if NAMES[move["card"]] == "glorious_attack":
        details["stack_cards"] = [card(c, state["roles"]) for c in
                                  state["players"][move["target"]]["area"][move["stack"]]]
    table.emit(ActionCardPlayed, seat=seat, card=card(move["card"]), **details)
    if NAMES[move["card"]] in interactive.INTERACTIVE:
        return
    if NAMES[move["card"]] == "extra_draw":
        if move["draw"] == "pile":
            drawn = [card(c) for c in state["pile"][:EXTRA_DRAW_PILE]]
            table.emit(CardsDrawn, seat=seat, source="pile", cards=drawn, step="extra_draw")
        else:
            table.emit(CardsDrawn, seat=seat, source="market", cards=[card(move["take"])], step="extra_draw")
            _refill(table)
    else:
        table.emit(CardMoved, seat=seat, card=card(move["moved_card"]), from_stack=move["from_stack"],
                   stack=move.get("stack"), role=move.get("role"))


def after_action(table: Table, seat: int) -> None:
    """Combos are declared at once; after the third action the turn ends, or the excess is discarded."""
    state = table.state
    players = state["players"]
    for offset in range(len(players)):
        other = (seat + offset) % len(players)
        completed = combo(players[other]["area"], state["roles"])
        if completed:
            table.emit(VictoryDeclared, seat=other, combo=completed)
            _finish(table, "combo", [other])
            return
    if state["actions"] < MAX_ACTIONS:
        return
    hand = len(players[seat]["hand"])
    if hand > HAND_LIMIT:
        table.emit(HandLimitExceeded, seat=seat, excess=hand - HAND_LIMIT)
    else:
        end_turn(table, seat)


def end_turn(table: Table, seat: int) -> None:
    state = table.state
    table.emit(TurnEnded, seat=seat)
    if not state["pile"] and not state["market"]:
        _finish(table, "exhausted", _leaders(state))
    else:
        begin_turn(table, (seat + 1) % len(state["players"]))


def final_scores(state: dict) -> list[int]:
    return [score(p["area"], state["roles"]) for p in state["players"]]


def standing(state: dict) -> dict:
    """Each seat's score, then its Farmers, as the end of the game compares them (End-game): also how a position is
    scored when time is called (RULINGS K20)."""
    return {"scores": final_scores(state), "farmers": [farmers(p["area"], state["roles"]) for p in state["players"]]}


def _leaders(state: dict) -> list[int]:
    """Highest score wins; a tie goes to the most Farmers; a tie on both is shared."""
    ranking = list(zip(*standing(state).values()))
    best = max(ranking)
    return [seat for seat, rank in enumerate(ranking) if rank == best]


def _finish(table: Table, reason: str, winners: list[int]) -> None:
    state = table.state
    table.emit(MatchFinished, reason=reason, winner=winners[0] if len(winners) == 1 else None, winners=winners,
               scores=final_scores(state))
