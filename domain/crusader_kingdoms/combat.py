"""Attacks (4.1, 4.2, 6, 7.3, 8.3): responses, turned castles, dice, Leaders, the combat and the conquest."""
from __future__ import annotations

from domain.events import MatchFinished

from .events import (
    AreaConquered,
    AttackCardsDiscarded,
    AttackEnded,
    BonusChanged,
    CardsRevealed,
    CombatResolved,
    DiceRolled,
    LeaderDone,
    LeaderPointAdded,
    MuslimResponded,
    ResponsesOpened,
)
from .state import (
    HIT,
    MAX_BONUS,
    MIN_BONUS,
    SIDES,
    adjacent,
    card,
    castles_on_map,
    coop,
    effect,
    humans,
    regular_castles,
    value,
)
from .table import Table


def standing_dice(state: dict, k: int) -> int:
    """The dice kingdom k's face-up "P" cards add to each of its attacks (Armed Pilgrims, Mercenaries)."""
    return sum(value(state, c) for c in state["kingdoms"][k]["persistent"] if effect(state, c) == "attack_dice")


def attack_dice(state: dict) -> int:
    """The attack's dice: its troops, the attack event's extra dice and the attacker's face-up cards."""
    attack = state["attack"]
    troops = sum(value(state, c) for _, c in attack["attack"] if effect(state, c) == "troop")
    return troops + attack["extra"] + standing_dice(state, attack["attacker"])


def defence_dice(state: dict) -> int:
    """The defence's dice: the area, a +1 castle there, turned castles, Turcopoles, Watchtowers."""
    attack = state["attack"]
    area = state["areas"][str(attack["area"])]
    count = state["map"]["areas"][str(attack["area"])]["defence"] + (1 if area["plus"] else 0)
    count += len(attack["flipped"])
    count += sum(value(state, c) for _, c in attack["defence"] if effect(state, c) == "defence_dice")
    if attack["defender"] is not None:
        count += sum(value(state, c) for c in state["kingdoms"][attack["defender"]]["persistent"]
                     if effect(state, c) == "defence_bonus")
    return count


def flippable(state: dict) -> list[int]:
    """The defender's +1 castles next to the attacked area that it may still turn for extra dice."""
    attack = state["attack"]
    defender = attack["defender"]
    return [a for a in adjacent(state, attack["area"])
            if state["areas"][str(a)]["owner"] == defender and state["areas"][str(a)]["plus"]
            and a not in attack["flipped"]]


def _responders(state: dict) -> list[int]:
    """Who may put responses into the attack, in order: every other player with cards (in 1-2 player modes
    not one who has passed: §8.2 "Si un jugador pasa, ya no puede jugar")."""
    attack = state["attack"]
    attacker = attack["attacker"]
    crusaders = humans(state)
    if coop(state):
        if state["kingdoms"][attacker]["automated"]:
            defender = attack["defender"]
            order = [defender] + [k for k in crusaders if k != defender]
        else:
            order = [k for k in crusaders if k != attacker]
        order = [k for k in order if not state["kingdoms"][k]["passed"]]
    else:
        order = [(attacker + i) % len(crusaders) for i in range(1, len(crusaders))]
    return [k for k in order if state["kingdoms"][k]["hand"]]


def _leader_die(dice: list[int]) -> int | None:
    """The automated Leader's point goes to the highest die still short of a hit (the cheapest hit)."""
    short = [(v, -i) for i, v in enumerate(dice) if v < HIT]
    if not short:
        return None
    return -max(short)[1]


def attack_step(table: Table) -> None:
    """Take the attack's next automatic step, from opening the responses to ending the attack."""
    s = table.state
    attack = s["attack"]
    stage = attack["stage"]
    rng = table.rng
    if stage == "auto":
        defender = attack["defender"]
        if defender is not None and s["kingdoms"][defender]["automated"] and attack_dice(s) >= 3:
            queue = s["kingdoms"][defender]["queue"]
            usable = [c for c in queue if effect(s, c) in ("leader", "defence_dice")]
            if usable:
                table.emit(MuslimResponded, seat=defender, card=card(s, usable[0]))
        table.emit(ResponsesOpened, responders=_responders(s))
    elif stage in ("flip", "reveal"):
        table.emit(CardsRevealed, attack=[card(s, c) for _, c in attack["attack"]],
                   defence=[card(s, c) for _, c in attack["defence"]])
    elif stage == "roll":
        for side, count, owner in (("attack", attack_dice(s), attack["attacker"]),
                                   ("defence", defence_dice(s), attack["defender"])):
            automated = owner is None or s["kingdoms"][owner]["automated"]
            table.emit(DiceRolled, side=side, seat=owner, count=count,
                       rolled_by="server" if automated else owner,
                       random=[rng.dice(6, count)] if count else [])
    elif stage == "leaders":
        owner, side, _, _ = attack["leaders"][0]
        die = _leader_die(attack["dice"][side])
        if die is None:
            table.emit(LeaderDone, seat=owner, side=side)
        else:
            table.emit(LeaderPointAdded, seat=owner, side=side, die=die, value=attack["dice"][side][die] + 1)
    elif stage == "resolved":
        _conquest(table)
    elif stage == "end":
        table.emit(AttackEnded, seat=attack["attacker"])
    if stage in ("roll", "leaders") and s["attack"]["stage"] == "leaders" and not s["attack"]["leaders"]:
        combat(table)


def combat(table: Table) -> None:
    """Count each side's hits; the attacker wins only with more (4.2)."""
    s = table.state
    attack = s["attack"]
    hits = {side: sum(1 for d in attack["dice"][side] if d >= HIT) for side in SIDES}
    winner = "attack" if hits["attack"] > hits["defence"] else "defence"
    table.emit(CombatResolved, seat=attack["attacker"], attack_hits=hits["attack"],
               defence_hits=hits["defence"], winner=winner)


def _conquest(table: Table) -> None:
    s = table.state
    attack = s["attack"]
    attacker, defender, area_id = attack["attacker"], attack["defender"], attack["area"]
    att_kingdom = s["kingdoms"][attacker]
    gain = False
    if attack["won"]:
        area = s["areas"][str(area_id)]
        removed = {"seat": defender, "plus": area["plus"]} if area["castle"] else None
        placed = not att_kingdom["automated"]
        table.emit(AreaConquered, seat=attacker, area=area_id, defender=defender, removed=removed, placed=placed)
        if not coop(s):
            if att_kingdom["supply"] == 0:
                table.emit(MatchFinished, reason="sudden", winner=attacker, winners=[attacker],
                           castles=[castles_on_map(s, k) for k in humans(s)])
                return
            if defender is not None and s["kingdoms"][defender]["bonus"] > MIN_BONUS:
                table.emit(BonusChanged, seat=defender, delta=-1, bonus=s["kingdoms"][defender]["bonus"] - 1,
                           reason="area_lost")
            gain = att_kingdom["bonus"] < MAX_BONUS or bool(regular_castles(s, attacker))
    used = [c for side in SIDES for _, c in attack[side]]
    returned = None
    if any(effect(s, c) == "regroup" for owner, c in attack["attack"] if owner == attacker):
        troops = [c for owner, c in attack["attack"] if owner == attacker and effect(s, c) == "troop"]
        if troops:
            returned = max(troops, key=lambda c: (value(s, c), -c))
            used.remove(returned)
    table.emit(AttackCardsDiscarded, seat=attacker, cards=[card(s, c) for c in used],
               returned=card(s, returned) if returned is not None else None, gain=gain)
