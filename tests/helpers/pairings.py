"""An exhaustive search over pairings, to check the matching engine's on small fields."""
from __future__ import annotations

from domain.tournaments.pairing import BYE


def all_pairings(players: list[str]):
    """Every way to pair the players, with one bye (None) when their count is odd."""
    if not players:
        yield []
        return
    if len(players) % 2:
        for i, lone in enumerate(players):
            for rest in all_pairings(players[:i] + players[i + 1:]):
                yield [(lone, BYE), *rest]
        return
    first, others = players[0], players[1:]
    for i, partner in enumerate(others):
        for rest in all_pairings(others[:i] + others[i + 1:]):
            yield [(first, partner), *rest]


def rematches(pairs, met) -> int:
    return sum(frozenset(pair) in met for pair in pairs if BYE not in pair)


def bye_of(pairs):
    return next((a for a, b in pairs if b is BYE), None)
