"""Stacking rules: where a Build card may go in a play area (stacks are lists of card ids, bottom first).

A play area's list is changed in place, a stack never is: a changed stack is a new list, so that a copy of the state
shares its stacks with the original (state.copy_state)."""
from __future__ import annotations

from .cards import JOKER_ROLES, NAMES, ROLE_BASE, STACK_MAX

KNIGHT_SET, ARCHER_SET = "stable", "tower"


def effective(card_id: int, roles: dict) -> str:
    """What a card counts as: its name, or a stacked Joker's role."""
    return roles.get(str(card_id), NAMES[card_id])


def base(stack: list[int]) -> str:
    return NAMES[stack[0]]


def is_full(stack: list[int]) -> bool:
    """Full at its maximum size; standalone cards that cannot grow are not stacks, so never full."""
    return len(stack) == STACK_MAX.get(NAMES[stack[0]], 0)


def has_thief(stack: list[int]) -> bool:
    return any(NAMES[c] == "thief" for c in stack)


def is_ruler_pair(stack: list[int], roles: dict) -> bool:
    return len(stack) == 2 and NAMES[stack[0]] == "ruler" and effective(stack[1], roles) == "ruler"


def has_ruler_pair(area: list[list[int]], roles: dict) -> bool:
    for stack in area:
        if len(stack) == 2 and NAMES[stack[0]] == "ruler" and is_ruler_pair(stack, roles):  # most stacks are not
            return True
    return False


def may_arrive(area: list[list[int]], stack: list[int], roles: dict) -> bool:
    """Whether a whole stack may arrive intact in an area: never as a second Ruler pair or Healer stack (K15)."""
    if is_ruler_pair(stack, roles):
        return not has_ruler_pair(area, roles)
    return base(stack) != "healer" or not any(base(s) == "healer" for s in area)


def is_clean_full(stack: list[int], base_name: str) -> bool:
    """A full set of the given base with no Thief: what protection and combos count."""
    return base(stack) == base_name and is_full(stack) and not has_thief(stack)


def _lone(area: list[list[int]], name: str) -> list[int]:
    return [i for i, s in enumerate(area) if len(s) == 1 and base(s) == name]


ALONE = ("stable", "tower", "field")  # the bases that are only ever placed as a new stack


def _open(area: list[list[int]], base_name: str | None = None, role: str | None = None) -> list[tuple[int, str | None]]:
    """(index, role) of each stack that may still grow (of that base, if given), for a card taking that role."""
    if base_name is None:
        return [(i, role) for i, s in enumerate(area) if len(s) < STACK_MAX.get(NAMES[s[0]], 0)]
    most = STACK_MAX[base_name]
    return [(i, role) for i, s in enumerate(area) if NAMES[s[0]] == base_name and len(s) < most]


def placements(area: list[list[int]], card_id: int, roles: dict) -> list[tuple[int | None, str | None]]:
    """Every (stack index or None for standalone, Joker role) where the card may be placed."""
    name = NAMES[card_id]
    if name in ALONE:
        return [(None, None)]
    if name == "thief":
        return [(None, None), *_open(area)]
    if name in ("knight", "archer", "farmer"):
        return [(None, None), *_open(area, ROLE_BASE[name])]
    if name in ("ruler", "healer"):
        if name == "ruler" and has_ruler_pair(area, roles):
            return [(None, None)]
        lone = _lone(area, name)
        if lone:
            return [(i, None) for i in lone]
        if name == "healer" and any(base(s) == "healer" for s in area):
            return []  # the second Healer must stack on the first, whose stack is full (K2)
        return [(None, None)]
    if name == "joker":
        options = []
        for role in JOKER_ROLES:
            if role != "ruler" or not has_ruler_pair(area, roles):
                options += _open(area, ROLE_BASE[role], role)
        return options
    return []


def place_move(card_id: int, stack: int | None, role: str | None) -> dict:
    """The move placing a card at one of its placements, as POST /moves accepts it (no key without a value)."""
    move = {"type": "place", "card": card_id}
    if stack is not None:
        move["stack"] = stack
    if role is not None:
        move["role"] = role
    return move


def movable(area: list[list[int]]) -> list[tuple[int, int]]:
    """(stack, position) of each card Internal Move may pick up: every top card, and any Joker."""
    picks = []
    for i, stack in enumerate(area):
        for pos, card_id in enumerate(stack):
            if pos == len(stack) - 1 or NAMES[card_id] == "joker":
                picks.append((i, pos))
    return picks


def without(area: list[list[int]], stack: int, card_id: int) -> list[list[int]]:
    """A copy of the area with one card lifted out (an emptied stack disappears)."""
    rest = list(area)
    lift(rest, stack, card_id)
    return rest


def moves_within(area: list[list[int]], roles: dict) -> list[tuple[int, int, int | None, str | None]]:
    """Every Internal Move as (card, from stack, to stack or None, Joker role), indexes of the area as it is."""
    options = []
    for i, pos in movable(area):
        stack = area[i]
        card_id = stack[pos]
        emptied = len(stack) == 1
        if emptied and NAMES[card_id] in ALONE:
            continue  # its one placement is where it stands
        for target, role in placements(without(area, i, card_id), card_id, _roles_without(roles, card_id)):
            if target is None:
                if emptied:
                    continue
            else:
                target = target + 1 if emptied and target >= i else target
                if target == i:
                    continue
            options.append((card_id, i, target, role))
    return options


def _roles_without(roles: dict, card_id: int) -> dict:
    key = str(card_id)
    return {k: v for k, v in roles.items() if k != key} if key in roles else roles


def put(area: list[list[int]], card_id: int, stack: int | None) -> None:
    """Place a card on a stack or as a new standalone card, in the area."""
    if stack is None:
        area.append([card_id])
    else:
        area[stack] = [*area[stack], card_id]


def lift(area: list[list[int]], stack: int, card_id: int) -> None:
    """Take a card out of a stack in the area (an emptied stack disappears)."""
    rest = list(area[stack])
    rest.remove(card_id)  # ValueError, as list.remove in place gave, for a card the stack does not hold
    if rest:
        area[stack] = rest
    else:
        del area[stack]


def move(area: list[list[int]], card_id: int, source: int, target: int | None) -> None:
    """Internal Move in the area: put on the target (indexes before the move), then lift from the source."""
    put(area, card_id, target)
    lift(area, source, card_id)
