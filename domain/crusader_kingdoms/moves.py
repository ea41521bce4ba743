"""The legal moves (3, 4-4.6, 6, 7.2, 8.2): whose decision it is, what that seat may do, why anything else is refused."""
from __future__ import annotations

from .combat import attack_dice, flippable, standing_dice
from .data import RESPONSES
from .state import MAX_BONUS, SIDES, adjacent, coop, effect, humans, muslims, owned, regular_castles, truce


def decider(state: dict) -> int | None:
    """The seat whose decision is pending, or None when the rules proceed by themselves (or the match is over)."""
    if state["status"] != "active":
        return None
    attack = state["attack"]
    if attack:
        stage = attack["stage"]
        if stage == "commit":
            return attack["attacker"]
        if stage == "respond":
            return attack["responders"][0]
        if stage == "flip":
            defender = attack["defender"]
            if defender is not None and not state["kingdoms"][defender]["automated"] and flippable(state):
                return defender
            return None
        if stage == "leaders":
            if attack["leaders"] and not state["kingdoms"][attack["leaders"][0][0]]["automated"]:
                return attack["leaders"][0][0]
            return None
        if stage == "gain":
            return attack["attacker"]
        return None
    if state["phase"] == "action":
        return state["current"]
    return None


def attack_targets(state: dict, k: int) -> list[int]:
    """Areas seat k may attack: bordering its areas (or its deployment areas if it holds none), another player's
    or independent (4.1.1), never a fellow Christian's in 3 players (7.2) nor a Truce partner's."""
    if state["kingdoms"][k]["supply"] <= 0:
        return []
    mine = owned(state, k)
    if mine:
        candidates = {b for a in mine for b in adjacent(state, a)}
    else:
        candidates = set(state["kingdoms"][k]["start"])
    targets = []
    for a in sorted(candidates):
        owner = state["areas"][str(a)]["owner"]
        if owner == k:
            continue
        if owner is not None:
            both_christian = state["kingdoms"][k]["religion"] == state["kingdoms"][owner]["religion"] == "christian"
            if (state["mode"] == "three" and both_christian) or truce(state, k, owner):
                continue
        targets.append(a)
    return targets


def opponents(state: dict, k: int) -> list[int]:
    """Whom seat k's incursions and events may name (4.3 "un oponente"): in 1-2 players the Muslims, not the ally."""
    if coop(state):
        return [muslims(state)]
    return [o for o in humans(state) if o != k]


def bordering(state: dict, k: int) -> list[int]:
    mine = owned(state, k)
    near = {b for a in mine for b in adjacent(state, a)}
    return [o for o in opponents(state, k) if any(state["areas"][str(a)]["owner"] == o for a in near)]


def _event_moves(state: dict, k: int, card_id: int) -> list[dict]:
    kind = effect(state, card_id)
    kingdom = state["kingdoms"][k]
    play = {"type": "play", "card": card_id}
    if kind in ("raid", "bonus_down", "truce"):
        return [{**play, "target": o} for o in opponents(state, k)]
    if kind == "steal":
        return [{**play, "target": o} for o in opponents(state, k) if state["kingdoms"][o]["hand"]]
    if kind == "bonus_up":
        if coop(state) or kingdom["bonus"] < MAX_BONUS or not regular_castles(state, k):
            return [play]
        return [{**play, "area": a} for a in regular_castles(state, k)]
    if kind == "walls":
        return [{**play, "area": a} for a in regular_castles(state, k)]
    if kind == "attack_event":
        return [{**play, "area": a} for a in attack_targets(state, k)]
    if kind in ("attack_dice", "defence_bonus"):
        return [play]
    return []


def _action_moves(state: dict, k: int) -> list[dict]:
    hand = state["kingdoms"][k]["hand"]
    moves = []
    troops = [c for c in hand if effect(state, c) == "troop"]
    if troops or standing_dice(state, k):
        moves += [{"type": "attack", "area": a} for a in attack_targets(state, k)]
    if troops:
        for o in bordering(state, k):
            moves += [{"type": "incursion", "card": c, "target": o} for c in troops]
    for c in hand:
        if effect(state, c) not in ("troop", *RESPONSES):
            moves += _event_moves(state, k, c)
    moves += [{"type": "discard", "card": c} for c in hand]
    moves.append({"type": "pass"})
    return moves


def _commit_moves(state: dict, k: int) -> list[dict]:
    attack = state["attack"]
    moves = [{"type": "commit", "card": c} for c in state["kingdoms"][k]["hand"]
             if effect(state, c) in ("troop", "leader", "regroup")]
    if attack_dice(state) or attack["event"] is not None:
        moves.append({"type": "pass"})
    return moves


def _response_moves(state: dict, k: int) -> list[dict]:
    attack = state["attack"]
    moves = []
    castle = state["areas"][str(attack["area"])]["castle"] or (
        attack["defender"] is not None and state["kingdoms"][attack["defender"]]["automated"])
    ally = attack["allies"] and state["kingdoms"][k]["religion"] == state["kingdoms"][attack["attacker"]]["religion"]
    for c in state["kingdoms"][k]["hand"]:
        kind = effect(state, c)
        if kind == "leader":
            moves += [{"type": "respond", "card": c, "side": side} for side in SIDES]
        elif kind == "defence_dice" and castle:
            moves.append({"type": "respond", "card": c, "side": "defence"})
        elif kind == "troop" and ally:
            moves.append({"type": "respond", "card": c, "side": "attack"})
    moves.append({"type": "pass"})
    return moves


def _gain_moves(state: dict, k: int) -> list[dict]:
    moves = [{"type": "reward_bonus"}] if state["kingdoms"][k]["bonus"] < MAX_BONUS else []
    return moves + [{"type": "reward_castle", "area": a} for a in regular_castles(state, k)]


def awaiting(state: dict) -> int | None:
    """The one seat whose decision the match waits for (None once it is over)."""
    return decider(state)


def legal_moves(state: dict, seat: int) -> list[dict]:
    """Every move the seat may make now, each exactly as POST /moves accepts it; empty if not its decision."""
    if decider(state) != seat or seat is None:
        return []
    attack = state["attack"]
    if attack:
        stage = attack["stage"]
        if stage == "commit":
            return _commit_moves(state, seat)
        if stage == "respond":
            return _response_moves(state, seat)
        if stage == "flip":
            return [{"type": "turn_castle", "area": a} for a in flippable(state)] + [{"type": "pass"}]
        if stage == "leaders":
            side = attack["leaders"][0][1]
            return [{"type": "leader_point", "die": i} for i, d in enumerate(attack["dice"][side]) if d < 6] + [
                {"type": "pass"}]
        if stage == "gain":
            return _gain_moves(state, seat)
        return []
    if not state["kingdoms"][seat]["hand"]:
        return [{"type": "pass"}]  # 4.6 "Los jugadores sin cartas solo pueden hacer esta acción"
    return _action_moves(state, seat)


STAGE_WORDS = {
    "commit": "putting cards face down for the attack (commit a troop, Leader or Regrouping card, or pass when done)",
    "respond": "adding response cards to the attack or the defence (respond with a card and a side; pass when done)",
    "flip": "turning +1 castles next to the attacked area for extra defence dice (turn_castle, or pass)",
    "leaders": "adding Leader points to dice (leader_point with the die index, or pass)",
    "gain": "choosing the conquest reward: reward_bonus to advance the card bonus, or reward_castle to turn a castle "
            "to +1",
}


def explain(state: dict, seat: int, move: dict) -> str:
    """Why a move is not legal now, in a player's words."""
    if state["status"] != "active":
        return "the match is over" if state["status"] == "finished" else "the match has not started"
    waiting = decider(state)
    names = state["players"]
    attack = state["attack"]
    doing = STAGE_WORDS.get(attack["stage"], "taking their action") if attack else "taking their action"
    if waiting != seat:
        return f"it is {names[waiting]}'s decision (seat {waiting}): {doing}"
    if attack:
        return f"that is not one of your options: you are {doing}"
    hand = state["kingdoms"][seat]["hand"]
    if not hand:
        return "you have no cards: you may only pass"
    if "card" in move and move["card"] not in hand:
        return f"card {move.get('card')} is not in your hand"
    if move.get("type") == "attack":
        return ("you can attack only an area bordering yours (or one of your deployment areas if you hold none) "
                "that belongs to another player or is independent, with at least one attack die: a troop card in hand "
                "or a face-up card that adds dice")
    if move.get("type") in ("play", "incursion"):
        return "that card cannot be played that way now: check its target"
    return "that move is not legal now: attack, incursion, play an event, discard or pass"
