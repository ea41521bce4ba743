"""Take-backs and referee backups: which versions an undo may return to, and why one is refused.

Every event class declares its role (domain/events.py, `Game.undo_class`): "action" (a seat's own retractable
action), "reveals" (hidden information became known), "random", "response" (another player answered),
"turn" (a turn boundary) or "note" (bookkeeping that changes nothing at the table).
"""
from __future__ import annotations

from domain.errors import IllegalMove

REFUSALS = {
    "reveals": "hidden cards were revealed since (drawn from a face-down pile or turned face up)",
    "random": "something random happened since",
    "response": "another player has responded since",
    "turn": "your turn has ended since",
}


def take_back_target(log: list[dict], seat: int, classify, current_seat) -> int:
    """The version a seat's take-back returns to: just before its latest action of this turn."""
    if current_seat != seat:
        raise IllegalMove("you may only take back actions during your own turn")
    position = len(log) - 1
    while position >= 0:
        event = log[position]
        kind = event["type"]
        if kind in ("ActionsRetracted", "BackupPerformed"):
            position = event["payload"]["to_version"] - 1
            continue
        if event["payload"].get("random"):  # a roll inside the action itself (an incursion's die) is never retaken
            raise IllegalMove(f"that action cannot be taken back: {REFUSALS['random']}")
        role = classify(kind, event["payload"])
        if role == "note":
            position -= 1
            continue
        if role == "action-start" and event["payload"].get("seat") == seat:
            return event["version"] - 1
        if role in ("action-start", "action"):
            position -= 1
            continue
        if role == "draw":
            raise IllegalMove("you have no action this turn that can be taken back (your draw cannot be undone)")
        raise IllegalMove(f"that action cannot be taken back: {REFUSALS.get(role, 'it is not yours')}")
    raise IllegalMove("there is nothing to take back")


def check_backup(to_version: int, current_version: int, retracted: list[list[int]], finished: bool) -> None:
    """Refuse a backup that cannot be done: out of range, into a retracted span, or after the end."""
    if finished:
        raise IllegalMove("the match is over and its seed revealed: a backup would let everyone foresee the draws")
    if not 1 <= to_version < current_version:
        raise IllegalMove(f"a backup goes to an earlier version, 1 to {current_version - 1}")
    for first, last in retracted:
        if first <= to_version <= last:
            raise IllegalMove(f"version {to_version} is inside versions {first}-{last}, which were already undone; "
                              "an undo cannot be undone")


def retracted_flags(count: int, retracted: list[list[int]]) -> list[bool]:
    """For versions 1..count, whether each was undone by a take-back or a backup."""
    flags = [False] * (count + 1)
    for first, last in retracted:
        for version in range(first, min(last, count) + 1):
            flags[version] = True
    return flags[1:]
