"""Swiss pairings for 2-player tables by maximum-weight matching (networkx), not a greedy pass. Its wishes, in order:
everyone paired, no rematch that can be avoided, the bye to the lowest-standing player who has not had one, players
as close in points as possible, then in standing.

Each wish is a weight band far above the next, so the engine's single optimum honours them in that order. Players come
in standing order (ties broken by the round's seeded draw), so the result is deterministic given the tournament's seed.
"""
from __future__ import annotations

import networkx as nx

ENGINE = f"networkx {nx.__version__} max_weight_matching"
BYE = None  # the bye's place in a pairing: (player, BYE)
REMATCH = 10 ** 18
BYE_RANK = 10 ** 12
POINTS = 10 ** 6
BASE = 10 ** 21
WINDOW = 48  # beyond this many places apart, two players are only paired if nothing closer works


def swiss(order: list[str], points: dict[str, float], met: set[frozenset], byes: set[str]) -> list[tuple]:
    """The round's pairs, best table first: (a, b), or (player, BYE) for the bye when the count is odd."""
    if len(order) < 2:
        return [(p, BYE) for p in order]
    window = WINDOW if len(order) > 2 * WINDOW else len(order)
    pairs = _match(order, points, met, byes, window)
    if window < len(order) and (len(pairs) * 2 < len(order) or _rematches(pairs, met)):
        pairs = _match(order, points, met, byes, len(order))  # the near neighbours did not suffice
    place = {p: i for i, p in enumerate(order)}
    return sorted(pairs, key=lambda pair: (pair[1] is BYE, min(place[p] for p in pair if p is not BYE)))


def _match(order, points, met, byes, window) -> list[tuple]:
    graph = nx.Graph()
    n = len(order)
    # the points term of each pair of point totals, computed once (the totals are exact fractions, and few)
    totals = sorted({points[p] for p in order})
    apart = [[POINTS * round(4 * (x - y) ** 2) for y in totals] for x in totals]
    level = {total: k for k, total in enumerate(totals)}
    levels = [level[points[p]] for p in order]
    for i in range(n):  # each pair within the window, in the order itertools.combinations gives them
        for j in range(i + 1, min(n, i + window + 1)):
            weight = BASE - REMATCH * (frozenset((order[i], order[j])) in met) - apart[levels[i]][levels[j]] - (j - i)
            graph.add_edge(i, j, weight=weight)
    if n % 2:
        fresh = [i for i in range(n) if order[i] not in byes] or list(range(n))
        for i in fresh:
            graph.add_edge(i, n, weight=BASE - BYE_RANK * (n - 1 - i))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = []
    for i, j in matching:
        i, j = sorted((i, j))
        pairs.append((order[i], BYE if j == n else order[j]))
    return pairs


def _rematches(pairs: list[tuple], met: set[frozenset]) -> int:
    return sum(frozenset(pair) in met for pair in pairs if BYE not in pair)
