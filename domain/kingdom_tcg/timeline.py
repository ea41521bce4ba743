"""Plain English sentences for Kingdom TCG's events, written from what the viewer may see of them."""
from __future__ import annotations

from domain.adjudication import timed_outcome
from domain.events import describes

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

WORDS = {"stage_start": "the start of the stage", "draw": "the strategy draw", "summoning_roll": "the summoning roll",
         "summon": "the summon", "movement_roll": "the movement roll", "move": "the move",
         "designation": "naming the main attacker and enemy", "attack_roll": "the attack roll",
         "defence_roll": "the defence roll", "defeat": "the defeat"}


def _name(state: dict, seat: int) -> str:
    return state["players"][seat]["name"]


def _who(state: dict, combatant: int) -> str:
    c = state["combatants"][combatant]
    return f"{_name(state, c['owner'])}'s {c['name'].title()}"


def _cards(n: int) -> str:
    return f"{n} strategy card{'s' if n != 1 else ''}"


@describes(StrategyDeckShuffled)
def _shuffled(p, state, viewer):
    return f"{_name(state, p['seat'])}'s strategy deck was shuffled face down."


@describes(CoronadosPlaced)
def _placed(p, state, viewer):
    return f"The Coronados took their places; {_name(state, p['first'])} plays first."


@describes(TurnStarted)
def _turn(p, state, viewer):
    return f"Turn {p['turn']}: {_name(state, p['seat'])}'s turn."


@describes(StageStarted)
def _stage(p, state, viewer):
    return f"The {p['stage']} stage began."


@describes(CardsDrawn)
def _drawn(p, state, viewer):
    names = f" ({', '.join(state['cards'][c]['name'] for c in p['cards'])})" if p.get("cards") else ""
    empty = " from an empty deck" if p["count"] == 0 else ""
    return f"{_name(state, p['seat'])} drew {_cards(p['count'])}{names}{empty}."


@describes(DiceRolled)
def _rolled(p, state, viewer):
    again = f" (Audacia, rolled again: {p['faces'][-1]})" if len(p["faces"]) > 1 else ""
    whose = f" for {_who(state, p['combatant'])}" if "combatant" in p else ""
    return f"{_name(state, p['seat'])} rolled the {p['roll'].replace('_', ' ')} die{whose}: {p['value']}{again}."


@describes(TroopSummoned)
def _summoned(p, state, viewer):
    return f"{_name(state, p['seat'])} summoned {state['combatants'][p['combatant']]['name'].title()} at {p['space']}."


@describes(CombatantMoved)
def _moved(p, state, viewer):
    return f"{_who(state, p['combatant'])} moved from {p['source']} to {p['target']}."


@describes(StepSkipped)
def _skipped(p, state, viewer):
    what = {"summon": "summoned nothing", "move": "moved nothing", "designation": "attacked nothing"}[p["step"]]
    return f"{_name(state, p['seat'])} {what}."


@describes(AttackDeclared)
def _declared(p, state, viewer):
    return f"{_who(state, p['attacker'])} attacks {_who(state, p['target'])}."


def _side(side: dict) -> str:
    parts = [str(side["raw"])] + ([f"+{side['increase']}"] if side["increase"] else [])
    shown = " ".join(parts) + (", halved" if side["reduced"] else "")
    return f"{shown} = {side['result']}"


@describes(CombatResolved)
def _combat(p, state, viewer):
    outcome = "the defender falls" if p["defeated"] else "the defender holds"
    return f"Attack {_side(p['attack'])} against defence {_side(p['defence'])}: {outcome}."


@describes(CombatantDefeated)
def _defeated(p, state, viewer):
    return f"{_who(state, p['combatant'])} was defeated and went to the pit."


def _moment(state: dict, trigger: str) -> str:
    """A moment in words; while a card's own moments interrupt a window, they are the Throw's or the card's."""
    if not state.get("suspended"):
        return WORDS[trigger]
    return "the card's draw" if trigger == "draw" else f"the Throw's {WORDS[trigger].removeprefix('the ')}"


@describes(WindowOpened)
def _opened(p, state, viewer):
    return f"Strategy cards may be used {p['timing']} {_moment(state, p['trigger'])}."


@describes(WindowSuspended)
def _suspended(p, state, viewer):
    if p["moment"] == "draw":
        return f"{_name(state, p['seat'])} draws {_cards(p['count'])} by the card's effect, with a window before and after."
    return (f"{_who(state, p['thrower'])} throws at {_who(state, p['target'])}: an attack roll and a defence roll "
            "follow, each with its windows.")


@describes(WindowResumed)
def _resumed(p, state, viewer):
    return f"The card's effect is over; strategy cards may be used {p['timing']} {WORDS[p['trigger']]} again."


@describes(ThrowStopped)
def _stopped(p, state, viewer):
    return f"The throw at {_who(state, p['target'])} was left without effect: a combatant left the battlefield."


@describes(ControlSet)
def _control(p, state, viewer):
    if p["full"]:
        return f"{_name(state, p['seat'])} chose full control: asked at every window while holding a card."
    return f"{_name(state, p['seat'])} gave up full control: asked only when holding a usable card."


@describes(WindowClosed)
def _closed(p, state, viewer):
    return "Both players passed; play goes on."


@describes(CardActivated)
def _activated(p, state, viewer):
    card = state["cards"][p["card"]]
    aim = f" at {_who(state, p['target'])}" if card["effect"]["kind"] == "throw" else ""
    return f"{_name(state, p['seat'])} used {p['name']}{aim}."


@describes(PriorityPassed)
def _passed(p, state, viewer):
    return f"{_name(state, p['seat'])} passed."


@describes(CardResolved)
def _resolved(p, state, viewer):
    effect = p["effect"]
    what = {"increase": lambda: f"+{effect['amount']} to the {effect['roll']} of {_who(state, effect['combatant'])}",
            "reduction": lambda: f"the {effect['roll']} of {_who(state, effect['combatant'])} is halved",
            "draw": lambda: f"its owner draws {_cards(effect['count'])}",
            "cancel": lambda: f"{state['cards'][effect['cancelled']]['name']} is cancelled",
            "throw": lambda: f"thrown at {_who(state, effect['target'])}"}[effect["kind"]]()
    return f"{p['name']} resolved: {what}."


@describes(CardWithoutEffect)
def _fizzled(p, state, viewer):
    return f"{p['name']} was left without effect: {p['why']}."


@describes(CardsDiscarded)
def _discarded(p, state, viewer):
    names = ", ".join(state["cards"][c]["name"] for c in p["cards"])
    why = "down to the hand limit of 7" if p["reason"] == "hand_limit" else "drawn or seen by mistake"
    return f"{_name(state, p['seat'])} discarded {names}, {why}."


@describes(TurnEnded)
def _ended(p, state, viewer):
    return f"{_name(state, p['seat'])}'s turn ended."


def outcome(p: dict) -> str:
    """How a match ended, in words, from MatchFinished's payload."""
    if p["reason"] == "coronado":
        return "a Coronado's defeat"
    return timed_outcome(p, "defeated", "troop levels defeated") or "the turn limit"
