"""The automated Muslims (8.2-8.4): their rounds, their army's attack and how each of their cards comes out."""
from __future__ import annotations

from .actions import random_discard
from .events import ArmyRolled, BonusChanged, CardTaken, MuslimAttackDeclared, MuslimCardRevealed, WallsBuilt
from .state import MAX_BONUS, MIN_BONUS, adjacent, card, effect, humans, owned, truce, value
from .table import Table
from .turns import next_round

FAVOURABLE = ("raid", "bonus_up", "bonus_down", "walls", "steal")


def muslim_round(table: Table) -> None:
    """The Muslims' round: reveal and play their next card, then roll for their army (8.3)."""
    s = table.state
    m = s["current"]
    slot = s["slot"]
    _muslim_play(table, m, slot, s["kingdoms"][m]["hand"][0], "turn")
    if s["status"] != "active":
        return
    kingdom = s["kingdoms"][m]
    strength = sum(value(s, c) for c in kingdom["army"] if effect(s, c) == "troop")
    crusader_areas = any(owned(s, k) for k in humans(s))
    if strength and crusader_areas:
        entry = table.rng.dice(6, 1)
        die = entry["result"][0]
        target = None
        if die < strength and not truce(s, m, slot):
            muslim_areas = set(owned(s, m))
            targets = [a for a in owned(s, slot) if muslim_areas & set(adjacent(s, a))]
            target = min(targets) if targets else None
        table.emit(ArmyRolled, seat=m, slot=slot, strength=strength, die=die, area=target, random=[entry])
        if target is not None:
            table.emit(MuslimAttackDeclared, seat=m, area=target, defender=slot,
                       army=[card(s, c) for c in kingdom["army"]])
            return
    next_round(table)


def _muslim_play(table: Table, m: int, slot: int, card_id: int, source: str) -> None:
    """Reveal a Muslim card and play it: events at once, responses and troops face up on the table."""
    s = table.state
    kingdom = s["kingdoms"][m]
    kind = effect(s, card_id)
    army = any(effect(s, c) == "troop" for c in kingdom["army"])
    if kind == "troop":
        placed = "army"
    elif kind == "leader":
        placed = "army" if army else "responses"
    elif kind == "regroup":
        placed = "army" if army else "discard"
    elif kind == "defence_dice":
        placed = "responses"
    elif kind in FAVOURABLE:
        placed = "event"
    elif kind == "defence_bonus" or kind == "attack_dice":
        placed = "persistent"
    else:
        placed = "discard"
    table.emit(MuslimCardRevealed, seat=m, slot=slot, card=card(s, card_id), placed=placed, source=source)
    if placed != "event":
        return
    target = s["kingdoms"][slot]
    if kind == "raid" and target["hand"]:
        random_discard(table, slot)
    elif kind == "bonus_up" and kingdom["bonus"] < MAX_BONUS:
        table.emit(BonusChanged, seat=m, delta=1, bonus=kingdom["bonus"] + 1, reason="event")
    elif kind == "bonus_down" and target["bonus"] > MIN_BONUS:
        table.emit(BonusChanged, seat=slot, delta=-1, bonus=target["bonus"] - 1, reason="event")
    elif kind == "walls" and kingdom["supply"] > 0:
        spots = [a for a in owned(s, m) if not s["areas"][str(a)]["castle"]]
        if spots:
            table.emit(WallsBuilt, seat=m, area=min(spots))
    elif kind == "steal" and target["hand"]:
        pick = table.rng.choice(len(target["hand"]))
        taken = target["hand"][pick["result"]]
        table.emit(CardTaken, seat=m, **{"from": slot}, card=card(s, taken), random=[pick])
        _muslim_play(table, m, slot, taken, "seduction")
