"""For a Crown's legal moves: what the awaited seat may decide now, and why a move is refused."""
from __future__ import annotations

from .state import cost, in_play, next_free

DECISIONS = ("pay", "choose", "bribe", "mages")
CHOSEN = ("bandit", "steal_ruby", "portrait")  # effects whose holder chooses a player or a Portrait
DIRECTIONS = {"left": -1, "right": 1}


def _purse(state: dict, seat: int) -> tuple[int, int]:
    player = state["players"][seat]
    return player["coins"], player["rubies"]


def payments(state: dict, seat: int, total: int, exact: bool = True) -> list[dict]:
    """Ways to pay `total` (or, not exact, 1 to `total`) in Coins and Rubies from the chest: a Ruby may stand in
    for a Coin, never the reverse."""
    coins, rubies = _purse(state, seat)
    amounts = [total] if exact else range(1, total + 1)
    return [{"coins": c, "rubies": n - c} for n in amounts for c in range(min(coins, n), -1, -1) if n - c <= rubies]


def recruits(state: dict, seat: int) -> list[dict]:
    """1. Recruitment: a face-up Mercenary or the top card of a deck, in a column with a cost tile, paid in full."""
    coins, rubies = _purse(state, seat)
    moves = []
    for level in range(1, 6):
        price = cost(state, level)
        if price is None or price > coins + rubies:
            continue
        if level == 1:
            moves += [{"type": "recruit", "level": 1, "stack": i} for i, stack in enumerate(state["stacks"]) if stack]
            continue
        moves += [{"type": "recruit", "level": level, "card": c} for c in state["face_up"][str(level)]]
        if state["decks"][str(level)]:
            moves.append({"type": "recruit", "level": level, "source": "deck"})
    return moves


def step_moves(state: dict, step: dict) -> list[dict]:
    """The options of a pending decision; [] where the rules resolve the step alone."""
    kind, seat = step["kind"], step.get("seat")
    if kind == "pay":
        return [{"type": "pay", **p} for p in payments(state, seat, step["cost"])]
    if kind == "choose":
        return [{"type": "choose_effect", "effect": option[0]} for option in state["cards"][step["card"]]["effects"]]
    if kind == "bribe":
        bandits = state["players"][seat]["bandits"]
        return [{"type": "bribe", **p} for p in payments(state, seat, bandits, exact=False)] + [{"type": "decline"}]
    if kind == "mages":
        return [{"type": "pay_mages", **p} for p in payments(state, seat, 1)] + [{"type": "decline"}]
    if kind == "effect" and step["effect"] in ("bandit", "steal_ruby"):
        if step["effect"] == "bandit" and not state["reserve"]["bandits"]:
            return []
        return [{"type": "choose_player", "target": s} for s in in_play(state) if s != seat]
    if kind == "effect" and step["effect"] == "portrait":
        return [{"type": "move_portrait", "portrait": p, "direction": d} for p in state["gallery"] if p is not None
                for d, way in DIRECTIONS.items() if next_free(state, p, way) is not None]
    return []


def is_decision(state: dict, step: dict) -> bool:
    return step["kind"] in DECISIONS or (step["kind"] == "effect" and step["effect"] in CHOSEN)


def awaiting(state: dict) -> int | None:
    """The one seat whose decision the match waits for (None while the rules act alone, and once it is over)."""
    if state["status"] != "active":
        return None
    if state["steps"]:
        step = state["steps"][0]
        return step["seat"] if is_decision(state, step) and step_moves(state, step) else None
    return state["current"] if state["phase"] == "recruit" else None


def legal_moves(state: dict, seat: int) -> list[dict]:
    """Every move the seat may make now, each exactly as POST /moves accepts it; empty if not its decision."""
    if seat is None or state["status"] != "active":
        return []
    if state["steps"]:  # as awaiting decides, the options computed once
        step = state["steps"][0]
        return step_moves(state, step) if is_decision(state, step) and step["seat"] == seat else []
    if state["phase"] != "recruit" or state["current"] != seat:
        return []
    return recruits(state, seat) or [{"type": "pass"}]


WORDS = {
    "pay": "paying for the Mercenary just recruited (Coins and Rubies adding up to its cost)",
    "choose": "choosing one of the two effects of a level-1 Mercenary",
    "bribe": "Bribery: paying Coins or Rubies to return as many Masked Bandits, or declining",
    "mages": "Mercenary Mages: paying 1 Coin or 1 Ruby to roll the magic die, or declining",
    "bandit": "choosing the player who takes a Masked Bandit",
    "steal_ruby": "choosing the player who loses a Ruby",
    "portrait": "moving a Portrait to the next free Gallery space, left or right",
}


def explain(state: dict, seat: int, move: dict) -> str:
    """Why a move is not legal now, in a player's words."""
    if state["status"] != "active":
        return "the match is over" if state["status"] == "finished" else "the match has not started"
    waiting = awaiting(state)
    if waiting is None:
        return "no decision is pending"
    step = state["steps"][0] if state["steps"] else None
    doing = (WORDS[step["effect"] if step["kind"] == "effect" else step["kind"]] if step
             else "recruiting a Mercenary")
    if waiting != seat:
        return f"it is {state['players'][waiting]['name']}'s decision (seat {waiting}): {doing}"
    if step is None and move.get("type") == "recruit":
        return ("you can recruit only from a column with a cost tile, a face-up card or the top of a deck, and only "
                "what you can pay for in Coins and Rubies")
    if step and step["kind"] == "pay" and move.get("type") == "pay":
        return (f"pay exactly {step['cost']} with the Coins and Rubies in your chest (a Ruby may stand in for a Coin, "
                "never the reverse)")
    return f"that is not one of your options: you are {doing}"
