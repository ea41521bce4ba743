"""The resolution stack of domain/stack.py, as Kingdom TCG's chapter 3.1.1 describes it ("Siempre la última carta ...
activada será la primera en resolver su acción") and any game may use it."""
from __future__ import annotations

from domain.stack import all_passed, close_window, new_stack, open_window, pass_priority, pop, push, resolving, top

SEATS = [0, 1]


def test_three_activations_resolve_last_in_first_out():
    """A activates, B responds, A answers: once both pass, A's answer resolves, then B's response, then A's card."""
    stack = new_stack()
    open_window(stack, 0)
    push(stack, {"seat": 0, "card": "A1"}, SEATS)
    assert stack["priority"] == 1  # the opponent is asked whether to respond
    push(stack, {"seat": 1, "card": "B1"}, SEATS)
    push(stack, {"seat": 0, "card": "A2"}, SEATS)
    pass_priority(stack, SEATS)
    assert not resolving(stack, SEATS)  # one pass is not enough: the other may still respond
    pass_priority(stack, SEATS)
    assert resolving(stack, SEATS)
    assert [pop(stack, 0)["card"] for _ in range(3)] == ["A2", "B1", "A1"]
    assert top(stack) is None and stack["priority"] == 0 and not resolving(stack, SEATS)


def test_a_response_after_a_pass_starts_the_passing_again():
    """Any number of responses: a pass followed by a response needs both players to pass again."""
    stack = new_stack()
    open_window(stack, 1)
    push(stack, {"seat": 1, "card": "B1"}, SEATS)
    pass_priority(stack, SEATS)  # seat 0 passes...
    assert stack["priority"] == 1
    push(stack, {"seat": 1, "card": "B2"}, SEATS)  # ...seat 1 adds another
    assert stack["passes"] == 0 and stack["priority"] == 0
    pass_priority(stack, SEATS)
    pass_priority(stack, SEATS)
    assert resolving(stack, SEATS) and top(stack)["card"] == "B2"


def test_a_window_nobody_uses_closes_after_every_player_passes():
    """An empty stack: both passing closes the moment without anything to resolve."""
    stack = new_stack()
    open_window(stack, 0)
    pass_priority(stack, SEATS)
    pass_priority(stack, SEATS)
    assert all_passed(stack, SEATS) and not resolving(stack, SEATS)
    close_window(stack)
    assert stack == new_stack()


def test_three_players_pass_in_seat_order():
    """With more players, the priority goes round the table and all of them must pass."""
    seats = [0, 1, 2]
    stack = new_stack()
    open_window(stack, 2)
    push(stack, {"seat": 2, "card": "C"}, seats)
    assert stack["priority"] == 0
    pass_priority(stack, seats)
    pass_priority(stack, seats)
    assert not resolving(stack, seats)
    pass_priority(stack, seats)
    assert resolving(stack, seats)
