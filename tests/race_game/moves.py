"""Race to 20's legal moves, and why a move is refused."""
from __future__ import annotations


def awaiting(state: dict) -> int | None:
    """The seat whose decision is pending: the current seat while the match is active."""
    return state["current"] if state["status"] == "active" and state["phase"] in ("roll", "modify") else None


def legal_moves(state: dict, seat: int) -> list[dict]:
    """2. Turn: roll; then play at most one modifier from your hand, and pass to bank the points."""
    if awaiting(state) != seat:
        return []
    if state["phase"] == "roll":
        return [{"type": "roll"}]
    plays = [] if state["played"] is not None else [{"type": "play", "card": c}
                                                    for c in sorted(state["players"][seat]["hand"])]
    return [*plays, {"type": "pass"}]


def explain(state: dict, seat: int) -> str:
    """Why a move is not legal now, in a player's words."""
    if state["status"] != "active":
        return "the match is not under way"
    if state["current"] != seat:
        return f"it is {state['players'][state['current']]['name']}'s turn (seat {state['current']})"
    if state["phase"] == "roll":
        return "roll the die first"
    if state["played"] is not None:
        return "you have played a modifier this turn; pass to bank your points"
    return "play a modifier card from your hand or pass"
