"""Scoring, colours, Farmers and the three instant-victory combos, as ruled in docs/RULINGS.md."""
from __future__ import annotations

from .cards import NAMES
from .stacking import ARCHER_SET, KNIGHT_SET, base, effective, has_ruler_pair, has_thief, is_full

HEALER_BY_COLOURS = {8: 8, 9: 15, 10: 40}


def colours(area: list[list[int]]) -> int:
    """Distinct card kinds in the play area; a Joker is the colour joker whatever its role."""
    return len({NAMES[c] for stack in area for c in stack})


def healer_value(area: list[list[int]]) -> int:
    return HEALER_BY_COLOURS.get(colours(area), 3)


def _card_points(card_id: int, stack: list[int], roles: dict) -> int:
    kind = effective(card_id, roles)
    if kind == "ruler":
        return 10
    if kind == "stable":
        return 3
    if kind == "tower":
        return 5
    if kind == "knight":
        return 6 if base(stack) == "stable" else 1
    if kind == "archer":
        return 2 if base(stack) == "tower" else 1
    if kind == "farmer":
        return 1
    if kind == "thief":
        return -10
    return 0  # field and healer score per play area and per stack


def score(area: list[list[int]], roles: dict) -> int:
    """A play area's total score."""
    total = sum(_card_points(c, stack, roles) for stack in area for c in stack)
    fields = sum(1 for stack in area for c in stack if NAMES[c] == "field")
    total += min(10 * (fields - 1), 50) if fields else 0
    for stack in area:
        if base(stack) == "healer":
            total += healer_value(area)
            if len(stack) > 1 and effective(stack[1], roles) == "healer":
                total += 3
    return total


def farmers(area: list[list[int]], roles: dict) -> int:
    """Farmers in a play area, Jokers acting as Farmers included (the tie-break)."""
    return sum(1 for stack in area for c in stack if effective(c, roles) == "farmer")


def combo(area: list[list[int]], roles: dict) -> str | None:
    """The instant-victory combo this play area completes, if any (each looked for only where its bases are)."""
    if not has_ruler_pair(area, roles):
        return None
    bases = [base(s) for s in area]
    if "healer" in bases and healer_value(area) == 40:
        return "healer"
    if KNIGHT_SET in bases and bases.count(ARCHER_SET) >= 2:
        clean_full = [name for stack, name in zip(area, bases) if is_full(stack) and not has_thief(stack)]
        if KNIGHT_SET in clean_full and clean_full.count(ARCHER_SET) >= 2:
            return "military"
    if bases.count("field") >= 4:
        farmed = sum(1 for stack, name in zip(area, bases) if name == "field" and not has_thief(stack)
                     and any(effective(c, roles) == "farmer" for c in stack[1:]))
        if farmed >= 4:
            return "production"
    return None
