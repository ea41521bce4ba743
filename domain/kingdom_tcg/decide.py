"""Kingdom TCG's decisions: the setup, the events each legal move records, and every step the rules take alone (the
turn's stages and rolls, opening and closing windows, resolving the stack last in first out, the end)."""
from __future__ import annotations

from domain.errors import IllegalMove
from domain.events import MatchFinished
from domain.moves import compact
from domain.stack import all_passed, resolving, top
from domain.table import Table

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
from .moves import DECISIONS, awaiting, before_done, current_step, explain, legal_moves, referee_moves
from .state import COMBAT, SEATS, copy_state, die_of, distance, other

AUDACIA = "audacia"


def start(state: dict, rng) -> list[tuple[str, dict]]:
    """Each strategy deck shuffled (3.1: "debe mezclarse siempre antes de cada partida"), the Coronados on their home
    rows, the first player drawn, opening hands dealt; then the first turn."""
    table = Table(state, copy_state, rng)
    s = table.state
    for seat in SEATS:
        table.emit(StrategyDeckShuffled, seat=seat, random=[rng.shuffle(s["players"][seat]["deck"])])
    board = s["board"]
    first = rng.choice(len(SEATS))
    table.emit(CoronadosPlaced, spaces=[[row, board["coronado_column"]] for row in board["home_rows"]],
               first=first["result"], random=[first])
    for seat in SEATS:
        _draw(table, seat, board["opening_hand"])
    table.emit(TurnStarted, turn=1, seat=s["current"])
    run(table)
    return table.events


def _draw(table: Table, seat: int, count: int) -> None:
    deck = table.state["players"][seat]["deck"]
    taken = deck[:count]
    table.emit(CardsDrawn, seat=seat, count=len(taken), cards=taken)


def decide(state: dict, seat: int, move: dict, rng) -> list[tuple[str, dict]]:
    """The events that follow from a legal move, then every step the rules take alone; IllegalMove otherwise."""
    move = compact(move)
    if move not in legal_moves(state, seat):
        raise IllegalMove(explain(state, seat, move))
    table = Table(state, copy_state, rng)
    s = table.state
    kind = move["type"]
    if kind == "activate":
        _activate(table, seat, move)
    elif kind == "pass":
        table.emit(PriorityPassed, seat=seat)
    elif kind == "control":
        table.emit(ControlSet, seat=seat, full=bool(move["full"]))
    elif kind == "discard":
        table.emit(CardsDiscarded, seat=seat, cards=[move["card"]], reason="hand_limit")
    elif kind == "skip":
        table.emit(StepSkipped, seat=seat, step=current_step(s)["trigger"])
    elif kind == "summon":
        table.emit(TroopSummoned, seat=seat, combatant=move["combatant"], space=move["space"])
    elif kind == "move":
        table.emit(CombatantMoved, seat=seat, combatant=move["combatant"],
                   source=s["combatants"][move["combatant"]]["at"], target=move["to"])
    elif kind == "attack":
        table.emit(AttackDeclared, seat=seat, attacker=move["attacker"], target=move["target"])
    run(table)
    return table.events


def record(state: dict, seat: int, move: dict, rng) -> list[tuple[str, dict]]:
    """What the referee records for a seat (RULINGS KT7): a card drawn or seen by mistake goes face up to the used pile,
    unused; then every step the rules take alone."""
    if move not in referee_moves(state, seat):
        raise IllegalMove("the referee may record a card of this seat's hand, or its deck's top card, seen by mistake")
    table = Table(state, copy_state, rng)
    card = move["card"] if "card" in move else table.state["players"][seat]["deck"][0]
    table.emit(CardsDiscarded, seat=seat, cards=[card], reason="mistake")
    run(table)
    return table.events


def _activate(table: Table, seat: int, move: dict) -> None:
    s = table.state
    card = s["cards"][move["card"]]
    extra = {k: move[k] for k in ("thrower", "target") if k in move}
    effect = card["effect"]
    if effect["kind"] in ("increase", "reduction"):
        extra["combatant"] = s["combat"][effect["roll"]]["combatant"]
    elif effect["kind"] == "cancel":
        extra["target"] = top(s["stack"])["card"]
    table.emit(CardActivated, seat=seat, card=card["id"], name=card["name"], **extra)


def run(table: Table) -> None:
    """Run every step the rules take alone until a seat must decide or the match is over."""
    s = table.state
    for _ in range(100000):
        if s["status"] != "active" or awaiting(s) is not None:
            return
        if s["window"]:
            _window(table)
            continue
        step = current_step(s)
        if step is None:
            _next_turn(table)
        elif step["at"] == "after":
            table.emit(WindowOpened, trigger=step["trigger"], timing="after")
        elif not before_done(s, step):
            table.emit(WindowOpened, trigger=step["trigger"], timing="before")
        else:
            _act(table, step)
    raise AssertionError("the rules did not settle")


def _window(table: Table) -> None:
    """The open window: resolve the stack once every player passed, close it once it is empty, or pass for a seat
    holding no usable card (RULINGS KT3)."""
    s = table.state
    stack = s["stack"]
    if resolving(stack, SEATS):
        _resolve(table, top(stack))
    elif all_passed(stack, SEATS):
        table.emit(WindowClosed, **s["window"])
    else:
        table.emit(PriorityPassed, seat=stack["priority"])


def _act(table: Table, step: dict) -> None:
    """What happens at a moment of the turn, or of a resolving card, once its "before" window is over."""
    s = table.state
    seat, trigger, board, combat = s["current"], step["trigger"], s["board"], s["combat"]
    if trigger in COMBAT and combat and combat.get("kind") == "throw" and _thrown_away(s, combat, trigger):
        table.emit(ThrowStopped, thrower=combat["attacker"], target=combat["target"])
    elif trigger == "stage_start":
        table.emit(StageStarted, stage=step["stage"])
    elif trigger == "draw":
        _draw(table, step.get("seat", seat), step.get("count", board["draws_per_turn"]))
    elif trigger == "resume":
        table.emit(WindowResumed, **s["suspended"][-1]["window"])
    elif trigger in ("summoning_roll", "movement_roll"):
        _roll(table, seat, trigger.split("_")[0], "d6")
    elif trigger in DECISIONS:
        table.emit(StepSkipped, seat=seat, step=trigger)  # no option: a seat with one is awaited
    elif trigger in ("attack_roll", "defence_roll"):
        roll = trigger.split("_")[0]
        combatant = s["combatants"][combat[roll]["combatant"]]
        die = combat["die"] if roll == "attack" and "die" in combat else die_of(s, combatant, roll)
        _roll(table, combatant["owner"], roll, die, combatant=combatant["id"])
    elif trigger == "combat":
        attack, defence = _result(combat["attack"]), _result(combat["defence"])
        table.emit(CombatResolved, kind=combat.get("kind", "battle"), attack=attack, defence=defence,
                   defeated=attack["result"] > defence["result"])
    elif trigger == "defeat":
        _defeat(table, combat["target"])
    elif trigger == "end":
        table.emit(TurnEnded, seat=seat)


def _roll(table: Table, seat: int, roll: str, die: str, **extra) -> int:
    """One seeded roll of a die; an Audacia face is rolled again once and the second face kept, an Audacia again
    counting 0 (RULINGS KT4)."""
    faces = table.state["board"]["dice"][die]
    entries = [table.rng.choice(len(faces))]
    shown = [faces[entries[0]["result"]]]
    if shown[0] == AUDACIA:
        entries.append(table.rng.choice(len(faces)))
        shown.append(faces[entries[1]["result"]])
    value = 0 if shown[-1] == AUDACIA else shown[-1]
    table.emit(DiceRolled, seat=seat, roll=roll, die=die, faces=shown, value=value, random=entries, **extra)
    return value


def _result(side: dict) -> dict:
    """3.1.2: the highest increase only, then a reduction halves the roll with it, rounded down."""
    increase = max(side["increases"], default=0)
    total = side["raw"] + increase
    return {"combatant": side["combatant"], "raw": side["raw"], "increase": increase, "reduced": side["reduced"],
            "result": total // 2 if side["reduced"] else total}


def _defeat(table: Table, combatant_id: int) -> None:
    s = table.state
    combatant = s["combatants"][combatant_id]
    table.emit(CombatantDefeated, combatant=combatant_id, owner=combatant["owner"])
    if combatant["coronado"]:
        winner = other(combatant["owner"])
        table.emit(MatchFinished, reason="coronado", winner=winner, winners=[winner],
                   defeated=[p["defeated_levels"] for p in s["players"]])


def _resolve(table: Table, item: dict) -> None:
    """The top card of the stack: without effect if cancelled or made impossible, else its effect (3.1.1)."""
    s = table.state
    card = s["cards"][item["card"]]
    effect, seat = card["effect"], item["seat"]
    why = _impossible(s, item, card)
    if why:
        table.emit(CardWithoutEffect, seat=seat, card=card["id"], name=card["name"], why=why)
        return
    kind = effect["kind"]
    if kind in ("increase", "reduction"):
        table.emit(CardResolved, seat=seat, card=card["id"], name=card["name"],
                   effect={**effect, "combatant": item["combatant"]})
    elif kind == "draw":
        table.emit(CardResolved, seat=seat, card=card["id"], name=card["name"], effect=effect)
        table.emit(WindowSuspended, moment="draw", seat=seat, count=effect["count"])
    elif kind == "cancel":
        table.emit(CardResolved, seat=seat, card=card["id"], name=card["name"],
                   effect={**effect, "cancelled": item["target"]})
    else:
        table.emit(CardResolved, seat=seat, card=card["id"], name=card["name"],
                   effect={**effect, "thrower": item["thrower"], "target": item["target"]})
        table.emit(WindowSuspended, moment="throw", seat=seat, thrower=item["thrower"], target=item["target"],
                   die=effect["die"])


def _impossible(s: dict, item: dict, card: dict) -> str | None:
    """Why a card's action cannot be carried out any more ("quedará sin efecto"), or None."""
    if item["cancelled"]:
        return "a card resolved before it cancelled it"
    effect = card["effect"]
    kind = effect["kind"]
    if kind in ("increase", "reduction"):
        combat = s["combat"]
        if combat is None or combat["done"] or s["combatants"][item["combatant"]]["at"] is None:
            return "its combatant is no longer fighting"
        if kind == "reduction" and combat[effect["roll"]]["reduced"]:
            return f"the {effect['roll']} roll already has its one reduction"
    if kind == "draw" and not s["players"][item["seat"]]["deck"]:
        return "the strategy deck is empty"
    if kind == "cancel" and not any(below["card"] == item["target"] for below in s["stack"]["items"]):
        return "the card it answered has already resolved"
    if kind == "throw":
        thrower, target = s["combatants"][item["thrower"]], s["combatants"][item["target"]]
        if thrower["at"] is None or target["at"] is None:
            return "its thrower or its target has left the battlefield"
        if distance(thrower["at"], target["at"]) != effect["distance"]:
            return "its target is no longer at the card's distance in the thrower's cross"
    return None


def _thrown_away(s: dict, combat: dict, trigger: str) -> bool:
    """Whether a Throw lost its target, or before its attack roll its thrower, in a window (3.1.1: "sin efecto")."""
    gone = s["combatants"][combat["target"]]["at"] is None
    return gone or (trigger == "attack_roll" and s["combatants"][combat["attacker"]]["at"] is None)


def standing(state: dict) -> dict:
    """Each player's levels of enemy troops defeated so far, as the turn limit compares them (RULINGS KT2): also how a
    position is scored when time is called (RULINGS KT8)."""
    return {"defeated": [p["defeated_levels"] for p in state["players"]]}


def _next_turn(table: Table) -> None:
    """The next turn, or the end at the turn limit: the player who defeated more levels wins, else a draw (KT6)."""
    s = table.state
    if s["turn"] >= s["board"]["turn_limit"]:
        levels = standing(s)["defeated"]
        winners = [seat for seat in SEATS if levels[seat] == max(levels) and levels.count(max(levels)) == 1]
        table.emit(MatchFinished, reason="turn_limit", winner=winners[0] if winners else None, winners=winners,
                   defeated=levels)
        return
    table.emit(TurnStarted, turn=s["turn"] + 1, seat=other(s["current"]))

