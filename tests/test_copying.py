"""domain/copying.py: the deep copy every game's working table starts from."""
from __future__ import annotations

from domain.copying import copy_sharing


def test_a_copy_is_deep_except_for_the_shared_keys():
    """Changing the copy anywhere below the top level leaves the original alone, but a shared key's value is the
    original's own object (a match's card list, which never changes); types and key order are kept."""
    cards = [{"id": 0, "name": "Knight"}]
    state = {"players": [{"hand": [1, 2], "at": (0, 1)}], "cards": cards, "flag": True, "none": None, "x": 1.5}
    copy = copy_sharing(state, ("cards",))
    assert copy == state and list(copy) == list(state)
    copy["players"][0]["hand"].append(3)
    assert state["players"][0]["hand"] == [1, 2]
    assert copy["cards"] is cards and copy["players"][0]["at"] == (0, 1) and copy["flag"] is True
    assert copy_sharing(state)["cards"] is not cards
