"""A round's card actions (4.3 Incursion, 4.4 Events), and the random discard an incursion or a Raid causes."""
from __future__ import annotations

from .events import (
    BonusChanged,
    CardTaken,
    CastleFlipped,
    EventAttackDeclared,
    EventPlayed,
    IncursionMade,
    RandomCardDiscarded,
)
from .state import HIT, MAX_BONUS, MIN_BONUS, card, effect
from .table import Table


def incursion(table: Table, seat: int, move: dict) -> None:
    """Roll the incursion's die: on a hit the target discards a random card (4.3)."""
    s = table.state
    entry = table.rng.dice(6, 1)
    hit = entry["result"][0] >= HIT
    target = move["target"]
    table.emit(IncursionMade, seat=seat, target=target, card=card(s, move["card"]), hit=hit, random=[entry])
    if hit and s["kingdoms"][target]["hand"]:
        random_discard(table, target)


def play_event(table: Table, seat: int, move: dict) -> None:
    """Play an event card and apply what it does at once (4.4)."""
    s = table.state
    card_id = move["card"]
    kind = effect(s, card_id)
    # its payload names the area "stack", as logs have recorded it from the first version on
    details = {"target": move["target"]} if "target" in move else {"stack": move["area"]} if "area" in move else {}
    table.emit(EventPlayed, seat=seat, card=card(s, card_id), **details)
    kingdom = s["kingdoms"][seat]
    target = move.get("target")
    if kind == "raid" and s["kingdoms"][target]["hand"]:
        random_discard(table, target)
    elif kind == "bonus_up":
        if kingdom["bonus"] < MAX_BONUS:
            table.emit(BonusChanged, seat=seat, delta=1, bonus=kingdom["bonus"] + 1, reason="event")
        elif "area" in move:
            table.emit(CastleFlipped, seat=seat, area=move["area"], plus=True, reason="bonus_overflow")
    elif kind == "bonus_down" and s["kingdoms"][target]["bonus"] > MIN_BONUS:
        table.emit(BonusChanged, seat=target, delta=-1, bonus=s["kingdoms"][target]["bonus"] - 1, reason="event")
    elif kind == "walls":
        table.emit(CastleFlipped, seat=seat, area=move["area"], plus=True, reason="event")
    elif kind == "steal":
        hand = s["kingdoms"][target]["hand"]
        pick = table.rng.choice(len(hand))
        table.emit(CardTaken, seat=seat, **{"from": target}, card=card(s, hand[pick["result"]]), random=[pick])
    elif kind == "attack_event":
        area = move["area"]
        table.emit(EventAttackDeclared, seat=seat, area=area, defender=s["areas"][str(area)]["owner"], event=card_id,
                   extra=s["cards"][card_id]["value"], allies=s["cards"][card_id]["allies"])


def random_discard(table: Table, k: int) -> None:
    """A random card from kingdom k's hand is discarded."""
    hand = table.state["kingdoms"][k]["hand"]
    pick = table.rng.choice(len(hand))
    table.emit(RandomCardDiscarded, seat=k, card=card(table.state, hand[pick["result"]]), random=[pick])
