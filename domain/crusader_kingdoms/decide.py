"""Crusader Kingdoms' rules (3-8): the setup, the events a move decides, and the steps that follow alone.

Kingdoms are indexed like seats; in the 1- and 2-player games the automated Muslims are the last kingdom
(index = number of players). Every die, shuffle and random card is a herald-fair-v1 draw recorded in its event.
"""
from __future__ import annotations

from domain.errors import IllegalMove
from domain.moves import compact

from .actions import incursion, play_event
from .combat import attack_step, combat
from .data import RELIGIONS
from .events import (
    AttackDeclared,
    BonusChanged,
    CardCommitted,
    CardDiscarded,
    CardsRemoved,
    CastleFlipped,
    CastlesDeployed,
    CommitClosed,
    DeckShuffled,
    FlipsDone,
    LeaderDone,
    LeaderPointAdded,
    Passed,
    ResponsePlaced,
    ResponsesDone,
)
from .moves import decider, explain, legal_moves
from .muslims import muslim_round
from .state import card, coop
from .table import Table
from .turns import begin_turn, next_round


def start(state: dict, rng) -> list[tuple[str, dict]]:
    """Remove the 1-2 player cards, shuffle both decks, deploy the castles, begin turn 1."""
    table = Table(state, rng)
    s = table.state
    if coop(s):
        for deck in RELIGIONS:
            removed = [card(s, c["id"]) for c in s["cards"] if c["deck"] == deck and c["solo_removed"]]
            if removed:
                table.emit(CardsRemoved, deck=deck, cards=removed)
    for deck in RELIGIONS:
        table.emit(DeckShuffled, deck=deck, random=[rng.shuffle(s["piles"][deck])])
    for k, kingdom in enumerate(s["kingdoms"]):
        if kingdom["automated"]:
            rest = [int(a) for a, area in s["areas"].items() if area["owner"] is None]
            table.emit(CastlesDeployed, seat=k, areas=sorted(rest), castles=False)
        else:
            table.emit(CastlesDeployed, seat=k, areas=list(kingdom["start"]), castles=True)
    begin_turn(table, 1)
    _advance(table)
    return table.events


def _advance(table: Table) -> None:
    """Run every step the rules take alone until a player must decide or the match is over."""
    s = table.state
    for _ in range(100000):
        if s["status"] != "active" or decider(s) is not None:
            return
        if s["attack"]:
            attack_step(table)
        elif s["phase"] == "end_round":
            next_round(table)
        elif s["phase"] == "muslim":
            muslim_round(table)
        else:
            raise AssertionError(f"nothing to do in phase {s['phase']}")
    raise AssertionError("the rules did not settle")


def decide(state: dict, seat: int, move: dict, rng) -> list[tuple[str, dict]]:
    """The events that follow from a legal move, then every automatic step; IllegalMove with the reason otherwise."""
    move = compact(move)
    if move not in legal_moves(state, seat):
        raise IllegalMove(explain(state, seat, move))
    table = Table(state, rng)
    s = table.state
    kind = move["type"]
    attack = s["attack"]
    if attack:
        stage = attack["stage"]
        if stage == "commit":
            if kind == "commit":
                table.emit(CardCommitted, seat=seat, card=card(s, move["card"]))
            else:
                table.emit(CommitClosed, seat=seat)
        elif stage == "respond":
            if kind == "respond":
                table.emit(ResponsePlaced, seat=seat, card=card(s, move["card"]), side=move["side"])
            else:
                table.emit(ResponsesDone, seat=seat)
        elif stage == "flip":
            if kind == "turn_castle":
                table.emit(CastleFlipped, seat=seat, area=move["area"], plus=False, reason="defence")
            else:
                table.emit(FlipsDone, seat=seat)
        elif stage == "leaders":
            side = attack["leaders"][0][1]
            if kind == "leader_point":
                table.emit(LeaderPointAdded, seat=seat, side=side, die=move["die"],
                           value=attack["dice"][side][move["die"]] + 1)
            else:
                table.emit(LeaderDone, seat=seat, side=side)
            if not s["attack"]["leaders"]:
                combat(table)
        elif stage == "gain":
            if kind == "reward_bonus":
                table.emit(BonusChanged, seat=seat, delta=1, bonus=s["kingdoms"][seat]["bonus"] + 1,
                           reason="conquest")
            else:
                table.emit(CastleFlipped, seat=seat, area=move["area"], plus=True, reason="conquest")
    elif kind == "pass":
        table.emit(Passed, seat=seat)
    elif kind == "discard":
        table.emit(CardDiscarded, seat=seat, card=card(s, move["card"]), reason="action")
    elif kind == "attack":
        area = move["area"]
        table.emit(AttackDeclared, seat=seat, area=area, defender=s["areas"][str(area)]["owner"])
    elif kind == "incursion":
        incursion(table, seat, move)
    else:
        play_event(table, seat, move)
    _advance(table)
    return table.events
