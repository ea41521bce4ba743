"""How each Kingdom TCG event changes the state (in place): the pure "given a state and an event, evolve the state"."""
from __future__ import annotations

from domain.events import evolves
from domain.stack import close_window, new_stack, open_window, pass_priority, pop, push

from .events import (
    AttackDeclared,
    CardActivated,
    CardResolved,
    CardsDiscarded,
    CardsDrawn,
    CardWithoutEffect,
    CombatantDefeated,
    CombatantMoved,
    CombatResolved,
    ControlSet,
    CoronadosPlaced,
    DiceRolled,
    PriorityPassed,
    StageStarted,
    StepSkipped,
    StrategyDeckShuffled,
    ThrowStopped,
    TroopSummoned,
    TurnEnded,
    TurnStarted,
    WindowClosed,
    WindowOpened,
    WindowResumed,
    WindowSuspended,
)
from .state import COMBAT, SEATS, other, turn_steps


def _settle(state: dict) -> dict:
    """Drop the moments already past whose "after" window did not open; the head step is the one acting now."""
    while state["steps"] and state["steps"][0]["at"] == "after":
        state["steps"].pop(0)
    return state["steps"][0]


def _done(state: dict) -> None:
    """The head step happened: its "after" window comes next."""
    _settle(state)["at"] = "after"


def _used(state: dict, card_id: int) -> None:
    """A card leaves the hand (or, seen by mistake, the deck) for its owner's used pile, face up, never to be used."""
    player = state["players"][state["cards"][card_id]["owner"]]
    (player["hand"] if card_id in player["hand"] else player["deck"]).remove(card_id)
    player["used"].append(card_id)


@evolves(StrategyDeckShuffled)
def _shuffled(state, p):
    state["players"][p["seat"]]["deck"] = list(p["random"][0]["result"])


@evolves(CoronadosPlaced)
def _placed(state, p):
    for seat, space in enumerate(p["spaces"]):
        state["combatants"][state["players"][seat]["coronado"]]["at"] = list(space)
    state["current"] = p["first"]


@evolves(TurnStarted)
def _turn(state, p):
    state.update(turn=p["turn"], current=p["seat"], stage=None, steps=turn_steps(), combat=None, roll=None,
                 roll_face=None)


@evolves(StageStarted)
def _stage(state, p):
    _done(state)
    state["stage"] = p["stage"]


@evolves(CardsDrawn)
def _drawn(state, p):
    player = state["players"][p["seat"]]
    taken = player["deck"][:p["count"]]
    if "cards" in p and p["cards"] != taken:
        raise ValueError("the cards drawn are not the top of the deck")
    del player["deck"][:p["count"]]
    player["hand"] += taken
    if state["steps"] and not state["window"] and _settle(state)["trigger"] == "draw":
        _done(state)


@evolves(DiceRolled)
def _rolled(state, p):
    roll = p["roll"]
    if roll in ("summoning", "movement"):
        state["roll"] = p["value"]
        state["roll_face"] = p["random"][-1]["result"]  # the d6's face kept: the tables are read by face (KT2)
        _done(state)
    elif roll in ("attack", "defence") and state["combat"] and not state["combat"]["done"]:
        state["combat"][roll]["raw"] = p["value"]
        _done(state)


@evolves(TroopSummoned)
def _summoned(state, p):
    state["players"][p["seat"]]["reserve"].remove(p["combatant"])
    state["combatants"][p["combatant"]]["at"] = list(p["space"])
    _done(state)


@evolves(CombatantMoved)
def _moved(state, p):
    state["combatants"][p["combatant"]]["at"] = list(p["target"])
    _done(state)


@evolves(StepSkipped)
def _skipped(state, p):
    _done(state)
    if p["step"] == "designation":
        state["steps"] = [s for s in state["steps"] if s["trigger"] not in COMBAT]


@evolves(AttackDeclared)
def _declared(state, p):
    state["combat"] = {"attacker": p["attacker"], "target": p["target"], "done": False,
                       **_sides(p["attacker"], p["target"])}
    _done(state)


def _sides(attacker: int, target: int) -> dict:
    """A combat's two rolls still to make: each side's combatant, raw value, increases and reduction (3.1.2)."""
    return {roll: {"combatant": c, "raw": None, "increases": [], "reduced": False}
            for roll, c in (("attack", attacker), ("defence", target))}


@evolves(CombatResolved)
def _combat(state, p):
    combat = state["combat"]
    if p["kind"] != "battle" and not (combat and combat.get("kind") == p["kind"]):
        return  # a Throw of rules before kingdom_tcg/4, resolved in one block without windows
    combat["done"] = True
    _done(state)
    if not p["defeated"]:
        state["steps"].remove(next(s for s in state["steps"] if s["trigger"] == "defeat"))


@evolves(CombatantDefeated)
def _defeated(state, p):
    combatant = state["combatants"][p["combatant"]]
    combatant["at"] = None
    state["players"][p["owner"]]["pit"].append(p["combatant"])
    state["players"][other(p["owner"])]["defeated_levels"] += combatant["level"] or 0
    if state["steps"] and not state["window"] and _settle(state)["trigger"] == "defeat":
        _done(state)


@evolves(WindowOpened)
def _opened(state, p):
    if p["timing"] == "before":
        _settle(state)
    while state["steps"][0]["trigger"] != p["trigger"]:
        state["steps"].pop(0)
    state["window"] = {"trigger": p["trigger"], "timing": p["timing"]}
    if p["trigger"] == "stage_start":
        state["stage"] = state["steps"][0]["stage"]  # the moment before a stage starts belongs to it
    open_window(state["stack"], state["current"])


@evolves(WindowClosed)
def _closed(state, p):
    state["window"] = None
    close_window(state["stack"])
    step = state["steps"][0]
    if p["timing"] == "before":
        step["opened"] = True
    else:
        state["steps"].pop(0)


@evolves(CardActivated)
def _activated(state, p):
    card = state["cards"][p["card"]]
    player = state["players"][p["seat"]]
    player["hand"].remove(p["card"])
    player["names_used"].append(card["name"])
    item = {"seat": p["seat"], "card": p["card"], "cancelled": False,
            **{k: p[k] for k in ("combatant", "target", "thrower") if k in p}}
    push(state["stack"], item, SEATS)


@evolves(PriorityPassed)
def _passed(state, p):
    pass_priority(state["stack"], SEATS)


@evolves(CardResolved, CardWithoutEffect)
def _resolved(state, p):
    item = pop(state["stack"], state["current"])
    state["players"][item["seat"]]["used"].append(item["card"])
    effect = p.get("effect") or {}
    if effect.get("kind") in ("increase", "reduction"):
        side = state["combat"][effect["roll"]]
        if effect["kind"] == "increase":
            side["increases"].append(effect["amount"])
        else:
            side["reduced"] = True
    elif effect.get("kind") == "cancel":
        for below in state["stack"]["items"]:
            if below["card"] == effect["cancelled"]:
                below["cancelled"] = True


@evolves(WindowSuspended)
def _suspended(state, p):
    frame = {"window": state["window"], "stack": state["stack"]}  # waits beneath the card's own moments
    if p["moment"] == "throw":
        frame["combat"] = state["combat"]
        state["combat"] = {"kind": "throw", "attacker": p["thrower"], "target": p["target"], "die": p["die"],
                           "done": False, **_sides(p["thrower"], p["target"])}
        steps = [{"trigger": trigger, "at": "before"} for trigger in COMBAT]
    else:
        steps = [{"trigger": "draw", "at": "before", "seat": p["seat"], "count": p["count"]}]
    state.setdefault("suspended", []).append(frame)
    state["steps"][:0] = [*steps, {"trigger": "resume", "at": "before"}]
    state["window"], state["stack"] = None, new_stack()


@evolves(WindowResumed)
def _resumed(state, p):
    _settle(state)
    state["steps"].pop(0)  # the card's own moments are over
    frame = state["suspended"].pop()
    state["window"], state["stack"] = frame["window"], frame["stack"]
    if "combat" in frame:
        state["combat"] = frame["combat"]


@evolves(ThrowStopped)
def _stopped(state, p):
    state["combat"]["done"] = True
    while state["steps"][0]["trigger"] != "resume":
        state["steps"].pop(0)


@evolves(ControlSet)
def _control(state, p):
    state["players"][p["seat"]]["full_control"] = p["full"]


@evolves(CardsDiscarded)
def _discarded(state, p):
    for card in p["cards"]:
        _used(state, card)


@evolves(TurnEnded)
def _ended(state, p):
    _settle(state)
    state["steps"] = []
    state["stage"] = None
    for player in state["players"]:
        player["names_used"] = []
