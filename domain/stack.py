"""A resolution stack any game can use: activations resolve last in, first out, after every player passes.

The stack is a JSON-ready dict in the game's state, changed only by the game's evolve, so replay and undo treat it as
any other state. An activation goes on top and hands the priority on; once every player has passed in a row, the items
resolve from the top down and the window opens again, the player whose turn it is first. Whether an item can still act
when it resolves is the game's to say: one that cannot is resolved "without effect".
"""
from __future__ import annotations


def new_stack() -> dict:
    """An empty stack: no item, nobody holding the priority."""
    return {"items": [], "priority": None, "passes": 0}


def open_window(stack: dict, seat: int) -> None:
    """A moment when activations are allowed begins: `seat` (whose turn it is) may act first."""
    stack.update(priority=seat, passes=0)


def close_window(stack: dict) -> None:
    stack.update(priority=None, passes=0)


def following(seat: int, seats: list[int]) -> int:
    """The seat after `seat` among those playing, in seat order."""
    return seats[(seats.index(seat) + 1) % len(seats)]


def push(stack: dict, item: dict, seats: list[int]) -> None:
    """`item["seat"]` activates `item`: it goes on top, and the next player may respond to it."""
    stack["items"].append(item)
    stack.update(priority=following(item["seat"], seats), passes=0)


def pass_priority(stack: dict, seats: list[int]) -> None:
    """The seat holding the priority passes it on."""
    stack.update(priority=following(stack["priority"], seats), passes=stack["passes"] + 1)


def all_passed(stack: dict, seats: list[int]) -> bool:
    """Whether every player passed in a row since the last activation or resolution."""
    return stack["passes"] >= len(seats)


def top(stack: dict) -> dict | None:
    return stack["items"][-1] if stack["items"] else None


def resolving(stack: dict, seats: list[int]) -> bool:
    """Whether the stack is resolving: every player passed with items on it."""
    return bool(stack["items"]) and all_passed(stack, seats)


def pop(stack: dict, first: int) -> dict:
    """Take the top item to resolve it; once the last is taken, `first` (whose turn it is) holds the priority again."""
    item = stack["items"].pop()
    if not stack["items"]:
        stack.update(priority=first, passes=0)
    return item
