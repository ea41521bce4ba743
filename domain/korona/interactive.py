"""Korona's interactive action cards: Donation, Tactical Swap, Sneak Attack, Glorious Attack, Revolt and Shield.

A card that targets players opens a queue of small decisions (`state["steps"]`), each owned by exactly one
seat: Shield responses, which card to give, take or pass on, where a received card lands, whether to
reposition a Joker. Cards on their way between play areas wait in `state["transit"]` until placed.
"""
from __future__ import annotations

from domain.moves import compact

from .cards import NAMES, card
from .events import (
    ActionCancelled,
    ActionTookEffect,
    CardGiven,
    CardHandedOver,
    CardPassed,
    CardTaken,
    JokerKept,
    JokerRepositioned,
    ReceivedCardPlaced,
    ResponsePassed,
    ShieldCountered,
    ShieldPlayed,
    StackPassed,
    StackStolen,
)
from .scoring import farmers
from .stacking import (
    ARCHER_SET,
    KNIGHT_SET,
    is_clean_full,
    is_full,
    is_ruler_pair,
    may_arrive,
    moves_within,
    place_move,
    placements,
)

INTERACTIVE = ("donation", "tactical_swap", "sneak_attack", "glorious_attack", "revolt")
REVOLT_FARMERS = 6
# the most cards each card can bring its own player's hand: one taken from a hand, or one that fits nowhere (K14)
MOST_TO_HAND = {"donation": 1, "tactical_swap": 2, "sneak_attack": 2, "glorious_attack": 0, "revolt": 1}


# ---------------------------------------------------------------- what may be picked

def open_tops(area: list[list[int]]) -> list[tuple[int, int]]:
    """(stack, card) of every top card outside full stacks: what Swap and Sneak Attack may take."""
    return [(i, s[-1]) for i, s in enumerate(area) if not is_full(s)]


def protected(area: list[list[int]], roles: dict) -> bool:
    """A Ruler pair is immune to Glorious Attack with a clean full Knight set and a clean full Archer set."""
    return (any(is_clean_full(s, KNIGHT_SET) for s in area)
            and any(is_clean_full(s, ARCHER_SET) for s in area))


def glorious_targets(area: list[list[int]], mine: list[list[int]], roles: dict) -> list[int]:
    """The full stacks of `area` a Glorious Attack may steal into `mine` (whether a Ruler pair is protected is asked
    only of a Ruler pair)."""
    return [i for i, s in enumerate(area)
            if is_full(s) and not (is_ruler_pair(s, roles) and protected(area, roles)) and may_arrive(mine, s, roles)]


def has_open_top(area: list[list[int]]) -> bool:
    """Whether any top card is outside a full stack (open_tops is not empty)."""
    return not all(map(is_full, area))


def _movable_thieves(area: list[list[int]]) -> list[int]:
    return [s[-1] for s in area if NAMES[s[-1]] == "thief"]


def play_moves(state: dict, seat: int, card_id: int) -> list[dict]:
    """The ways to play one of the interactive action cards now."""
    name = NAMES[card_id]
    players = state["players"]
    me = players[seat]
    others = [t for t in range(len(players)) if t != seat]
    moves = []
    if name == "donation":
        for t in others:
            moves += [{"type": "play", "card": card_id, "target": t, "zone": zone}
                      for zone, cards in (("hand", players[t]["hand"]), ("area", players[t]["area"])) if cards]
    elif name == "tactical_swap":
        if has_open_top(me["area"]):  # "give 1 of yours in exchange" (K13)
            moves += [{"type": "play", "card": card_id, "target": t} for t in others if has_open_top(players[t]["area"])]
    elif name == "sneak_attack":
        for t in others:
            if has_open_top(players[t]["area"]):
                moves.append({"type": "play", "card": card_id, "target": t})
            moves += [{"type": "play", "card": card_id, "target": t, "thief": thief}
                      for thief in _movable_thieves(me["area"])]
    elif name == "glorious_attack":
        for t in others:
            moves += [{"type": "play", "card": card_id, "target": t, "stack": i}
                      for i in glorious_targets(players[t]["area"], me["area"], state["roles"])]
    elif name == "revolt" and farmers(me["area"], state["roles"]) >= REVOLT_FARMERS:
        moves.append({"type": "play", "card": card_id})
    return moves


# ---------------------------------------------------------------- decisions

def decider(state: dict, step: dict) -> int:
    """The one seat whose decision a step awaits."""
    if step["kind"] == "place":
        return state["transit"][step["owner"]][0]["placer"]
    return step["seat"]


def _passable(state: dict, owner: int, receiver: int) -> list[dict]:
    """A Revolt pass: a stack (a lone card is placed by its receiver), or its top card alone (K15)."""
    received = set(state["received"][owner])
    into = state["players"][receiver]["area"]
    options = []
    for i, stack in enumerate(state["players"][owner]["area"]):
        if received & set(stack):
            continue
        if len(stack) == 1 or may_arrive(into, stack, state["roles"]):
            options.append({"type": "pass_on", "stack": i})
        if len(stack) > 1:
            options.append({"type": "pass_on", "stack": i, "card": stack[-1]})
    return options


def step_moves(state: dict, step: dict) -> list[dict]:
    """Every option of the pending decision, as POST /moves accepts it."""
    kind = step["kind"]
    players = state["players"]
    if kind == "respond":
        hand = players[step["seat"]]["hand"]
        return [{"type": "shield", "card": c} for c in hand if NAMES[c] == "shield"] + [{"type": "pass"}]
    if kind == "give":
        giver = players[step["seat"]]
        if step["zone"] == "hand":
            return [{"type": "give", "card": c} for c in giver["hand"]]
        return [{"type": "give", "card": s[-1]} for s in giver["area"]]
    if kind == "take":
        return [{"type": "take", "card": c} for _, c in open_tops(players[step["target"]]["area"])
                if c != step.get("except")]
    if kind == "hand_over":
        return [{"type": "hand_over", "card": c} for _, c in open_tops(players[step["seat"]]["area"])]
    if kind == "place":
        owner = step["owner"]
        waiting = state["transit"][owner]
        options = []
        for card_id in [w["card"] for w in waiting if w["placer"] == waiting[0]["placer"]]:
            spots = placements(players[owner]["area"], card_id, state["roles"])
            if not spots:
                options.append({"type": "place", "card": card_id, "to": "hand"})
            options += [place_move(card_id, s, r) for s, r in spots]
        return options
    if kind == "pass_on":
        return _passable(state, step["owner"], step["to"])
    if kind == "steal":
        return []  # inside a Glorious Attack's move: the rules take the stack, nobody decides
    if kind == "reposition":
        options = [{"type": "pass"}]
        for card_id, source, target, role in moves_within(players[step["seat"]]["area"], state["roles"]):
            if card_id == step["joker"]:
                options.append(compact({"type": "reposition", "card": card_id, "from_stack": source,
                                         "stack": target, "role": role}))
        return options
    raise ValueError(f"unknown step {kind}")


def describe(state: dict, step: dict) -> str:
    """Whose decision is awaited, and on what, in a player's words."""
    seat = decider(state, step)
    who = f"{state['players'][seat]['name']} (seat {seat})"
    what = {"respond": "whether to play a Shield", "give": "which card to give", "take": "which card to take",
            "hand_over": "which card to give in exchange", "place": "where a received card goes",
            "pass_on": "what passes on in the Revolt", "reposition": "whether to reposition a Joker"}[step["kind"]]
    return f"waiting for {who} to decide {what}"


def pending(state: dict) -> dict | None:
    """The pending decision as views show it."""
    if not state["steps"]:
        return None
    step = state["steps"][0]
    shown = {"kind": step["kind"], "seat": decider(state, step)}
    # public details: the zone a Donation demanded, whose area, who receives, how many Shields so far
    shown.update({key: step[key] for key in ("zone", "target", "owner", "to", "shields") if key in step})
    if state["resolving"]:
        shown["card"] = state["resolving"]["card"]
        shown["attacker"] = state["resolving"]["seat"]
    return shown


# ---------------------------------------------------------------- effects as steps

def respond_step(seat: int, attacker: int, defender: int, shields: int) -> dict:
    return {"kind": "respond", "seat": seat, "attacker": attacker, "defender": defender, "shields": shields}


def response_steps(state: dict, play: dict, seat: int) -> list[dict]:
    """Who may answer with a Shield: the target, or for a Revolt every other player clockwise."""
    if "target" in play:
        return [respond_step(play["target"], seat, play["target"], 0)]
    count = len(state["players"])
    return [respond_step((seat + k) % count, seat, (seat + k) % count, 0) for k in range(1, count)]


def effect_steps(state: dict, resolving: dict) -> list[dict]:
    """The decisions a card makes once no Shield stopped it."""
    name, a, t = resolving["name"], resolving["seat"], resolving.get("target")
    if name == "donation":
        return [{"kind": "give", "seat": t, "to": a, "zone": resolving["zone"]}, {"kind": "place", "owner": a}]
    if name == "tactical_swap":
        take = {"kind": "take", "seat": a, "target": t}
        return [take, take, {"kind": "hand_over", "seat": a, "to": t}, {"kind": "place", "owner": a},
                {"kind": "place", "owner": t}]
    if name == "sneak_attack":
        take = {"kind": "take", "seat": a, "target": t}
        if resolving.get("thief") is not None:  # the Thief just sent is not stolen back (K19)
            return [{"kind": "place", "owner": t}, {**take, "except": resolving["thief"]}, {"kind": "place", "owner": a}]
        return [take, take, {"kind": "place", "owner": a}]
    if name == "glorious_attack":
        return [{"kind": "steal", "seat": a}]
    if name == "revolt":
        count = len(state["players"])
        order = [(a + k) % count for k in range(count)]
        return [{"kind": "pass_on", "seat": a if k == 0 else order[k - 1], "owner": order[k],
                 "to": order[(k + 1) % count]} for k in range(count)]
    return []


def settle(state: dict) -> None:
    """Drop decisions nobody can make (nothing to take, give or place); end the card when none are left."""
    steps = state["steps"]
    while steps and not _has_options(state, steps[0]):
        steps.pop(0)
    if not steps and state["resolving"] and state["resolving"].get("effect"):
        state["resolving"] = None
        state["received"] = [[] for _ in state["players"]]


def _has_options(state: dict, step: dict) -> bool:
    if step["kind"] == "steal":
        return True
    if step["kind"] == "place":
        return bool(state["transit"][step["owner"]])
    return bool(step_moves(state, step))


# ---------------------------------------------------------------- decide

def decide_step(table, seat: int, move: dict) -> None:
    """Record the events of one decision on the pending step (the move is already known to be legal)."""
    state = table.state
    step = state["steps"][0]
    kind = move["type"]
    if step["kind"] == "respond":
        if kind == "shield":
            event = ShieldPlayed if seat == step["defender"] else ShieldCountered
            table.emit(event, seat=seat, card=card(move["card"]), against=state["resolving"]["card"])
            return
        table.emit(ResponsePassed, seat=seat, shields=step["shields"])
        if step["shields"] % 2 == 1:
            table.emit(ActionCancelled, seat=state["resolving"]["seat"], card=card(state["resolving"]["card"]),
                       by=step["defender"])
        elif not state["steps"]:
            resolving = state["resolving"]
            table.emit(ActionTookEffect, seat=resolving["seat"], card=card(resolving["card"]))
            if resolving["name"] == "glorious_attack":
                stolen = state["players"][resolving["target"]]["area"][resolving["stack"]]
                table.emit(StackStolen, seat=resolving["seat"], **{"from": resolving["target"]},
                           to=resolving["seat"], stack=resolving["stack"], step=True,
                           cards=[card(c, state["roles"]) for c in stolen])
        return
    area_of = lambda s: state["players"][s]["area"]
    if kind == "give":
        source = None
        if step["zone"] == "area":
            source = next(i for i, s in enumerate(area_of(seat)) if s[-1] == move["card"])
        table.emit(CardGiven, seat=seat, to=step["to"], zone=step["zone"], card=card(move["card"], state["roles"]),
                   from_stack=source)
    elif kind == "take":
        source = next(i for i, s in enumerate(area_of(step["target"])) if s[-1] == move["card"])
        table.emit(CardTaken, seat=seat, **{"from": step["target"]}, from_stack=source,
                   card=card(move["card"], state["roles"]))
    elif kind == "hand_over":
        source = next(i for i, s in enumerate(area_of(seat)) if s[-1] == move["card"])
        table.emit(CardHandedOver, seat=seat, to=step["to"], from_stack=source,
                   card=card(move["card"], state["roles"]))
    elif kind == "place":
        table.emit(ReceivedCardPlaced, seat=seat, owner=step["owner"], card=card(move["card"]),
                   stack=move.get("stack"), role=move.get("role"), to=move.get("to"))
    elif kind == "pass_on":
        owner = step["owner"]
        passed = area_of(owner)[move["stack"]]
        if len(passed) == 1 or "card" in move:
            table.emit(CardPassed, seat=seat, **{"from": owner}, to=step["to"], stack=move["stack"],
                       card=card(passed[-1], state["roles"]))
        else:
            table.emit(StackPassed, seat=seat, **{"from": owner}, to=step["to"], stack=move["stack"], step=True,
                       cards=[card(c, state["roles"]) for c in area_of(owner)[move["stack"]]])
    elif kind == "reposition":
        table.emit(JokerRepositioned, seat=seat, card=card(move["card"]), from_stack=move["from_stack"],
                   stack=move.get("stack"), role=move.get("role"))
    elif kind == "pass":
        table.emit(JokerKept, seat=seat, card=card(step["joker"], state["roles"]))


