"""A posted move read by its game's move schema (service/moves.py): the reading of a flat body is kept, and a kept
reading answers exactly as the schema would."""
from __future__ import annotations

import marshmallow as ma
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.exceptions import HTTPException

from domain.registry import GAMES
from service.moves import _taken, move_schema, read_move


@pytest.fixture(autouse=True)
def nothing_kept():
    """Each test begins with no reading kept, so the order it reads in is the order that counts."""
    _taken.cache_clear()


def read_outcome(read, game: str, body: dict):
    """What reading the body gives: the move (its keys in order), or the errors each field got."""
    try:
        return "move", list(read(game, dict(body)).items())
    except ma.ValidationError as error:
        return "refused", error.messages
    except HTTPException as error:
        return "refused", getattr(error, "data", {}).get("errors") or error.description


def schema_read(game: str, body: dict) -> dict:
    return move_schema(game).load(body)


def test_a_move_read_twice_reads_the_same_and_each_reading_is_its_own():
    """The second reading of a body comes from the kept one, and a caller that changes its reading (the platform pops
    expected_version) changes nothing for the next."""
    body = {"type": "discard", "card": 4, "expected_version": 9}
    first = read_move("korona", dict(body))
    first.pop("expected_version")
    first.pop("card")
    assert read_move("korona", dict(body)) == body
    assert read_move("korona", {**body, "expected_version": 10}) == {**body, "expected_version": 10}
    assert _taken.cache_info().hits == 2  # the move's own keys were read once: expected_version is read each time

@pytest.mark.parametrize("first", [1, True, 1.0])
def test_values_python_finds_equal_are_read_apart(first):
    """1, True and 1.0 are equal (and hash alike) in Python, but only 1 is a card: whichever is read first, and so
    kept if taken, 1 is taken and the others refused as the schema refuses them."""
    read_outcome(read_move, "korona", {"type": "discard", "card": first})
    assert read_outcome(read_move, "korona", {"type": "discard", "card": 1}) == ("move", [("type", "discard"), ("card", 1)])
    for other in (True, 1.0):
        assert read_outcome(read_move, "korona", {"type": "discard", "card": other}) == \
            read_outcome(schema_read, "korona", {"type": "discard", "card": other})
        assert read_outcome(read_move, "korona", {"type": "discard", "card": other})[0] == "refused"


@pytest.mark.parametrize("value", [[1], {"id": 1}])
def test_a_body_holding_a_list_or_an_object_is_read_by_the_schema(value):
    """Such a body cannot be kept (it has no hash); the schema reads it and refuses it with its own words."""
    assert read_outcome(read_move, "korona", {"type": "discard", "card": value}) == \
        read_outcome(schema_read, "korona", {"type": "discard", "card": value})


flat_values = st.one_of(st.none(), st.booleans(), st.integers(-3, 70), st.floats(allow_nan=False, width=16),
                        st.sampled_from(["pile", "market", "hand", "area", "knight", "ruler", "default"]))
flat_bodies = st.dictionaries(
    st.sampled_from(["type", "card", "source", "stack", "role", "draw", "take", "target", "zone", "to", "unit",
                     "expected_version", "resolve_for", "colour"]), flat_values, max_size=5)
move_types = st.sampled_from(["draw", "place", "discard", "play", "end_turn", "pass", "give", "take", "default",
                              "activate", "move", "attack", "summon"])


@pytest.mark.parametrize("game", list(GAMES))
@settings(max_examples=150, deadline=None)
@given(body=flat_bodies, kind=move_types)
def test_a_kept_reading_answers_as_the_schema_does(game, body, kind):
    """For any flat body, read once and again (the second from what was kept), the move (its keys in the schema's
    order) or the refusal is the schema's own."""
    body = {**body, "type": kind}
    name = "default" if kind == "default" else game
    expected = read_outcome(schema_read, name, body)
    for _ in range(2):
        got = read_outcome(read_move, game, body)
        assert got[0] == expected[0]
        if expected[0] == "move" or isinstance(got[1], dict):  # a 400 names the schema's errors (a 422, another game)
            assert got == expected
