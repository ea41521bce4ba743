"""Swiss pods: tables of 3 to 5 players grouped by standing (RULINGS T6). The fewest byes that let every table seat
between the game's least and the table size; the byes to the lowest-standing players who have not had one; then
the seating with the fewest repeated table-mates and, after that, the closest points at each table: searched
exhaustively on fields of up to 12 players, improved by swapping players between tables beyond."""
from __future__ import annotations

import itertools

REPEAT = 10 ** 9
EXHAUSTIVE = 12


def table_sizes(players: int, size: int, smallest: int) -> tuple[list[int], int]:
    """Tables of `size` and `size - 1` (not below `smallest`) seating as many players as possible; the byes left."""
    for byes in range(players + 1):
        seated = players - byes
        tables = -(-seated // size)
        short = tables * size - seated
        sizes = [size] * (tables - short) + [size - 1] * short
        if seated and short <= tables and all(s >= smallest for s in sizes):
            return sizes, byes
    return [], players


def _cost(tables, points, met) -> int:
    cost = 0
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            cost += REPEAT * met.get(frozenset((a, b)), 0) + round(4 * (points[a] - points[b]) ** 2)
    return cost


def _partitions(players: list[str], sizes: list[int]):
    """Every way to seat the players at tables of these sizes, each seating once."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes), reverse=True):
        remaining = list(sizes)
        remaining.remove(size)
        for mates in itertools.combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for tail in _partitions(others, remaining):
                yield [[first, *mates], *tail]


def _improve(tables: list[list[str]], points, met) -> list[list[str]]:
    """Swap two players of different tables while it lowers the cost, in a fixed order (deterministic)."""
    best = _cost(tables, points, met)
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                trial = [list(t) for t in tables]
                trial[i][a], trial[j][b] = trial[j][b], trial[i][a]
                cost = _cost(trial, points, met)
                if cost < best:
                    tables, best, improved = trial, cost, True
    return tables


def pods(order: list[str], points: dict, met: dict[frozenset, int], byes_had: set[str], size: int,
         smallest: int) -> tuple[list[list[str]], list[str]]:
    """The round's tables (best standing first, each in standing order) and byes, for players in standing order."""
    sizes, count = table_sizes(len(order), size, smallest)
    fresh = [p for p in reversed(order) if p not in byes_had] + [p for p in reversed(order) if p in byes_had]
    byes = fresh[:count]
    seated = [p for p in order if p not in byes]
    if len(seated) <= EXHAUSTIVE:
        tables = min(_partitions(seated, sizes), key=lambda candidate: _cost(candidate, points, met))
    else:
        start, tables = 0, []
        for s in sizes:
            tables.append(seated[start:start + s])
            start += s
        tables = _improve(tables, points, met)
    place = {p: i for i, p in enumerate(order)}
    tables = sorted((sorted(t, key=place.get) for t in tables), key=lambda t: place[t[0]])
    return tables, byes
