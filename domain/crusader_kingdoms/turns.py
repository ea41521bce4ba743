"""The course of a turn (3, 5, 6, 7.3, 8.5): drawing, the order of rounds, the end of a turn and of the match."""
from __future__ import annotations

from domain.events import MatchFinished

from .data import RELIGIONS
from .events import BonusReset, CardsDrawn, DeckReshuffled, RoundStarted, TurnEnded, TurnStarted
from .state import MARGINAL, TURNS, VICTORY, card, castles_on_map, coop, humans, muslims, owned
from .table import Table


def begin_turn(table: Table, turn: int) -> None:
    """Start a turn: every kingdom draws (3, 6), the bonuses reset and the first round begins."""
    s = table.state
    table.emit(TurnStarted, turn=turn)
    for k, kingdom in enumerate(s["kingdoms"]):
        kept = 0 if kingdom["automated"] else len(kingdom["hand"])
        wanted = max(0, kingdom["draw"] + kingdom["bonus"] - kept)
        pile = s["piles"][kingdom["religion"]]
        table.emit(CardsDrawn, seat=k, cards=[card(s, c) for c in pile[:wanted]], wanted=wanted, kept=kept,
                   bonus=kingdom["bonus"])
    table.emit(BonusReset)
    table.emit(RoundStarted, seat=0, slot=0)


def _end_turn(table: Table) -> None:
    s = table.state
    table.emit(TurnEnded, turn=s["turn"])
    if s["turn"] >= TURNS:
        _final(table)
        return
    for deck in RELIGIONS:
        gathered = list(s["piles"][deck]) + list(s["discards"][deck])
        for kingdom in s["kingdoms"]:
            gathered += [c for c in kingdom["persistent"] if s["cards"][c]["deck"] == deck]
        table.emit(DeckReshuffled, deck=deck, random=[table.rng.shuffle(gathered)])
    begin_turn(table, s["turn"] + 1)


def next_round(table: Table) -> None:
    """Start the next round, or end the turn once everyone has passed (3, 5; 8.3 in 1-2 players)."""
    s = table.state
    crusaders = humans(s)
    if not coop(s):
        if s["passes"] >= len(crusaders):
            _end_turn(table)
        else:
            seat = (s["current"] + 1) % len(crusaders)
            table.emit(RoundStarted, seat=seat, slot=seat)
        return
    m = muslims(s)
    cards = bool(s["kingdoms"][m]["hand"])
    if all(s["kingdoms"][k]["passed"] for k in crusaders) and not cards:
        _end_turn(table)
        return
    n = len(crusaders)
    # the order of rounds: crusader s, the Muslims' round for s, crusader s + 1, ...
    position = ("muslim", s["slot"]) if s["current"] != m else ("crusader", (s["slot"] + 1) % n)
    for _ in range(2 * n + 2):
        kind, slot = position
        if kind == "muslim":
            if cards:
                table.emit(RoundStarted, seat=m, slot=slot)
                return
            position = ("crusader", (slot + 1) % n)
        else:
            if not s["kingdoms"][slot]["passed"]:
                table.emit(RoundStarted, seat=slot, slot=slot)
                return
            position = ("muslim", slot)
    raise AssertionError("no round to start")


def standing(s: dict) -> dict:
    """Each seat's numbers as the end of the third turn compares them in 3-4 players: its castles on the map, then its
    card bonus (7.3, RULINGS C14); none in 1-2 players, where the crusaders score together (8.5). Also how a position
    is scored when time is called (RULINGS C21)."""
    if coop(s):
        return {}
    kingdoms = humans(s)
    return {"castles": [castles_on_map(s, k) for k in kingdoms], "bonus": [s["kingdoms"][k]["bonus"] for k in kingdoms]}


def _final(table: Table) -> None:
    s = table.state
    if coop(s):
        m = muslims(s)
        crusaders = humans(s)
        area_points = sum(s["map"]["areas"][str(a)]["vp"] for k in crusaders for a in owned(s, k))
        bonus_points = sum(s["kingdoms"][k]["bonus"] - s["kingdoms"][m]["bonus"] for k in crusaders)
        vp = area_points + bonus_points
        level = "victory" if vp >= VICTORY else "marginal_victory" if vp >= MARGINAL else "defeat"
        winners = crusaders if level != "defeat" else []
        table.emit(MatchFinished, reason="turn3", winner=winners[0] if len(winners) == 1 else None,
                   winners=winners, vp=vp, area_vp=area_points, bonus_vp=bonus_points, level=level)
        return
    numbers = standing(s)
    ranking = list(zip(*numbers.values()))
    best = max(ranking)
    winners = [k for k, rank in enumerate(ranking) if rank == best]
    table.emit(MatchFinished, reason="turn3", winner=winners[0] if len(winners) == 1 else None, winners=winners,
               **numbers)
