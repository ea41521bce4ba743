"""Korona's legal moves: what a seat may do now, the hand limit kept through its own cards (K3), and why a move is
refused."""
from __future__ import annotations

from domain.moves import compact, remembered

from . import interactive
from .actions import new_table, play_card
from .cards import BUILD, NAMES, card
from .events import ActionTookEffect
from .stacking import moves_within, place_move, placements
from .state import EMPTY_HAND_MARKET_DRAWS, EMPTY_HAND_PILE_DRAW, EXTRA_DRAW_PILE, HAND_LIMIT, MAX_ACTIONS, PILE_DRAW


def _excess(hand: int, actions_left: int) -> int:
    """Cards that could not be shed by the end of the turn, one per remaining action."""
    return max(0, hand - actions_left - HAND_LIMIT)


def _draw_moves(state: dict, hand: int) -> list[dict]:
    """The draw step's moves that leave the least unavoidable excess (K3): every market card, which adds one card to
    the hand, and the pile's draw where it adds no more excess than that (or the market is empty)."""
    moves = [{"type": "draw", "source": "market", "card": c} for c in state["market"]]
    first_draw = state["market_draws"] == (EMPTY_HAND_MARKET_DRAWS if state["empty_start"] else 1)
    if first_draw and state["pile"]:
        taken = min(EMPTY_HAND_PILE_DRAW if state["empty_start"] else PILE_DRAW, len(state["pile"]))
        if not moves or _excess(hand + taken, MAX_ACTIONS) == _excess(hand + 1, MAX_ACTIONS):
            moves.insert(0, {"type": "draw", "source": "pile"})
    return moves


def _extra_draw_moves(state: dict, card_id: int, hand: int, actions_left: int) -> list[dict]:
    options = []
    if state["pile"]:
        options.append(({"type": "play", "card": card_id, "draw": "pile"}, min(EXTRA_DRAW_PILE, len(state["pile"]))))
    options += [({"type": "play", "card": card_id, "draw": "market", "take": c}, 1) for c in state["market"]]
    allowed = _excess(hand, actions_left)
    return [m for m, n in options if _excess(hand - 1 + n, actions_left - 1) <= allowed]


def _action_moves(state: dict, seat: int, like: dict | None = None) -> list[dict]:
    """The action step's moves; with `like`, just those of its card and type (what checking one move needs)."""
    player = state["players"][seat]
    hand, area, roles = player["hand"], player["area"], state["roles"]
    actions_left = MAX_ACTIONS - state["actions"]
    kind = like.get("type") if like is not None else None
    moves = []
    internal = None
    spots = {}  # a Build card's placements depend only on its name
    for card_id in hand if like is None else [c for c in hand if c == like.get("card")]:
        name = NAMES[card_id]
        if kind == "discard":
            pass  # its discard, below, is the one move asked for
        elif name in BUILD:
            if name not in spots:
                spots[name] = placements(area, card_id, roles)
            moves += [place_move(card_id, stack, role) for stack, role in spots[name]]
        elif name == "extra_draw":
            moves += _extra_draw_moves(state, card_id, len(hand), actions_left)
        elif name == "internal_move":
            internal = moves_within(area, roles) if internal is None else internal
            moves += [compact({"type": "play", "card": card_id, "moved_card": moved, "from_stack": source,
                                "stack": target, "role": role})
                      for moved, source, target, role in internal]
        elif name in interactive.INTERACTIVE:
            moves += _own_card_plays(state, seat, card_id)
        moves.append({"type": "discard", "card": card_id})
    if kind in (None, "end_turn") and state["actions"] >= 1 and len(hand) <= HAND_LIMIT:
        moves.append({"type": "end_turn"})
    return moves


def awaiting(state: dict) -> int | None:
    """The one seat whose decision the match waits for (None once it is over)."""
    if state["status"] != "active":
        return None
    if state["steps"]:
        return interactive.decider(state, state["steps"][0])
    return state["current"]


@remembered
def legal_moves(state: dict, seat: int, like: dict | None = None) -> list[dict]:
    """Every move the seat may make now, each exactly as POST /moves accepts it; empty if not its decision.
    With `like` (a move to check), the action step lists only the moves of its card and type."""
    if state["status"] != "active":
        return []
    if state["steps"]:
        step = state["steps"][0]
        if interactive.decider(state, step) != seat:
            return []
        return _own_card_steps(state, seat, interactive.step_moves(state, step))
    if seat != state["current"]:
        return []
    hand = state["players"][seat]["hand"]
    if state["phase"] == "draw":
        return _draw_moves(state, len(hand))
    if state["phase"] == "actions":
        return _action_moves(state, seat, like)
    if state["phase"] == "excess":
        return [{"type": "discard", "card": c} for c in hand]
    return []


# ---------------------------------------------------------------- the hand limit through one's own card (K3)

def _own_card_plays(state: dict, seat: int, card_id: int) -> list[dict]:
    """The plays of an interactive card after which, whatever the others decide, the seat can still end its turn
    with 7 cards using the actions it has left."""
    moves = interactive.play_moves(state, seat, card_id)
    hand, actions_left = len(state["players"][seat]["hand"]), MAX_ACTIONS - state["actions"]
    allowed = _excess(hand, actions_left)
    if _excess(hand - 1 + interactive.MOST_TO_HAND[NAMES[card_id]], actions_left - 1) <= allowed:
        return moves
    return [m for m in moves if _can_keep(_taking_effect(state, seat, m), seat, allowed)]


def _own_card_steps(state: dict, seat: int, options: list[dict]) -> list[dict]:
    """The options of a decision inside the seat's own card that keep K3's promise (all, if none can)."""
    resolving = state["resolving"]
    if not (resolving and resolving.get("effect") and resolving["seat"] == seat):
        return options
    hand, actions_left = len(state["players"][seat]["hand"]), MAX_ACTIONS - state["actions"]
    allowed = _excess(hand, actions_left)
    if _excess(hand + interactive.MOST_TO_HAND[resolving["name"]], actions_left) <= allowed:
        return options
    keeping = [m for m in options if _can_keep(_after_step(state, seat, m), seat, allowed)]
    return keeping or options


def _can_keep(state: dict, seat: int, allowed: int) -> bool:
    """Whether the seat can finish its own card with no more than `allowed` unavoidable excess: some choice of its
    own, and every choice of the others, keeps it there (its hand only grows until the card is done)."""
    if _excess(len(state["players"][seat]["hand"]), MAX_ACTIONS - state["actions"]) > allowed:
        return False
    if not state["steps"]:
        return True
    step = state["steps"][0]
    decider = interactive.decider(state, step)
    outcomes = (_can_keep(_after_step(state, decider, m), seat, allowed) for m in interactive.step_moves(state, step))
    return any(outcomes) if decider == seat else all(outcomes)


def _taking_effect(state: dict, seat: int, move: dict) -> dict:
    """The state once the card is played and no Shield stopped it."""
    table = new_table(state)
    play_card(table, seat, move)
    table.emit(ActionTookEffect, seat=seat, card=card(move["card"]))
    return table.state


def _after_step(state: dict, seat: int, move: dict) -> dict:
    table = new_table(state)
    interactive.decide_step(table, seat, move)
    return table.state


# ---------------------------------------------------------------- reasons

OVER_THE_LIMIT = (f"that could leave you more than {HAND_LIMIT} cards in hand at the end of your turn, with no actions "
                  "left to shed them")


def explain(state: dict, seat: int, move: dict) -> str:
    """Why a move is not legal now, in a player's words."""
    if state["status"] != "active":
        return "the match is over"
    if state["steps"]:
        step = state["steps"][0]
        if interactive.decider(state, step) != seat:
            return interactive.describe(state, step)
        if move in interactive.step_moves(state, step):
            return OVER_THE_LIMIT
        return f"that is not one of your options: {interactive.describe(state, step)}"
    if seat != state["current"]:
        current = state["current"]
        return f"it is {state['players'][current]['name']}'s turn (seat {current})"
    hand = state["players"][seat]["hand"]
    kind = move.get("type")
    phase = state["phase"]
    if phase == "draw" and kind != "draw":
        return "you must draw first: 2 cards from the pile or 1 from the market"
    if phase == "excess":
        return f"you hold {len(hand)} cards: discard down to {HAND_LIMIT} to end your turn"
    if kind == "draw":
        if phase != "draw":
            return "you have already drawn this turn"
        return "you cannot draw that: choose the pile or a card in the market"
    if kind == "end_turn":
        if state["actions"] == 0:
            return "take at least one action before ending your turn"
        return f"you hold {len(hand)} cards; you may end your turn with at most {HAND_LIMIT}"
    card_id = move.get("card")
    if card_id not in hand:
        return f"card {card_id} is not in your hand"
    name = NAMES[card_id]
    if kind == "place":
        if name not in BUILD:
            return f"{name} is an Action card: play or discard it"
        return f"a {name} cannot be placed there under the stacking rules"
    if kind == "play":
        if name in BUILD:
            return f"{name} is a Build card: place or discard it"
        if name == "shield":
            return "a Shield is played only in answer to an Action card that targets you"
        if name == "revolt":
            return "Revolt needs 6 Farmers in your play area"
        if name == "extra_draw":
            return "that draw is not available, or it would leave you unable to end your turn with 7 cards"
        if name == "internal_move":
            return "Internal Move cannot make that move under the stacking rules"
        if move in interactive.play_moves(state, seat, card_id):
            return OVER_THE_LIMIT
        if name == "tactical_swap" and not interactive.has_open_top(state["players"][seat]["area"]):
            return "Tactical Swap gives 1 of your Build cards in exchange, and you have none that may be given"
        return f"{name} cannot be played that way: check its target and the cards it names"
    return "that move is not legal now"
