"""The listing of legal moves a decision is checked against (domain/moves.remembered), and the chain's canonical
bytes where orjson would write otherwise than json (domain/chain.py): two speed levers of issue 21 that must not
change what the rules allow or what a link is."""
import hashlib
import json

import pytest

from domain import fair
from domain.chain import GENESIS, link
from domain.errors import IllegalMove
from domain.korona import GAME as KORONA
from domain.korona.cards import card
from domain.korona.state import copy_state, new_state
from tests.helpers.korona import FARMER, FIELD, INTERNAL_MOVE, KNIGHT, table
from tests.helpers.korona_cards import Cards


def _actions(hand):
    state = new_state({"players": ["Ana", "Bo"]})
    state["players"][0]["hand"] = list(hand)
    state.update(phase="actions", current=0, pile=[], market=[])
    return state


def _rng():
    return fair.Generator(bytes(32), "kept", ["a", "b"])


def test_a_move_listed_then_gone_by_an_event_is_refused():
    """Korona, "Discard" (an action): a card discarded is no longer in hand, so a move with it is refused, though
    the listing made before the discard offered it: evolving a state forgets its listing."""
    c = Cards()
    knight, farmer = c("knight"), c("farmer")
    state = _actions([knight, farmer])
    assert {"type": "discard", "card": knight} in KORONA.legal_moves(state, 0)
    KORONA.evolve(state, "CardDiscarded", {"seat": 0, "card": card(knight), "reason": "action"})
    with pytest.raises(IllegalMove, match="not in your hand"):
        KORONA.decide(state, 0, {"type": "discard", "card": knight}, _rng())


def test_a_listing_answers_only_its_own_state_and_seat():
    """Korona, "Turn order": the listing of one state and seat never answers for another state (a copy evolved
    apart) or another seat, whose moves are its own."""
    c = Cards()
    knight = c("knight")
    state = _actions([knight])
    listed = KORONA.legal_moves(state, 0)
    assert {"type": "discard", "card": knight} in listed
    other = copy_state(state)
    other["players"][0] = {**other["players"][0], "hand": []}  # a copy shares each player until it replaces it
    with pytest.raises(IllegalMove):
        KORONA.decide(other, 0, {"type": "discard", "card": knight}, _rng())
    with pytest.raises(IllegalMove, match="turn"):
        KORONA.decide(state, 1, {"type": "discard", "card": knight}, _rng())
    assert KORONA.decide(state, 0, {"type": "discard", "card": knight}, _rng())


def test_the_listing_a_caller_got_is_its_own():
    """Korona, "Discard": a caller filtering the list it was given (here keeping only the places) changes nothing
    that is legal: the discard it dropped is still accepted."""
    state = table([[KNIGHT[2]], [], []], [[], [], []])
    listed = KORONA.legal_moves(state, 0)
    listed[:] = [m for m in listed if m["type"] == "place"]
    assert KORONA.decide(state, 0, {"type": "discard", "card": KNIGHT[2]}, _rng())


def test_an_event_naming_a_card_not_where_it_says_is_refused():
    """A logged event whose card is not in the market, or not on the stack it is moved from, fails to fold (the
    log is malformed) rather than copy the card: the market and the stacks are replaced, never changed in place, and
    still refuse a card they do not hold."""
    state = table([[], []], [[], []])
    state["phase"] = "draw"
    with pytest.raises(ValueError):
        KORONA.evolve(state, "CardsDrawn", {"seat": 0, "source": "market", "cards": [card(state["pile"][0])],
                                             "step": "draw", "draws_left": 0})
    state = table([[INTERNAL_MOVE[0]], []], [[[FIELD[0], FARMER[0]], [FIELD[1]]], []])
    with pytest.raises(ValueError):
        KORONA.evolve(state, "CardMoved", {"seat": 0, "card": card(FARMER[0]), "from_stack": 1, "stack": None,
                                           "role": None})


@pytest.mark.parametrize("payload", [
    {"x": float("nan")}, {"x": float("inf")}, {"x": [float("-inf"), None]}, {"x": 1e-07}, {"x": 1e16},
    {"x": 2.5e-10}, {"x": 2**70}, {"x": {"1": 2, "a": {3: 4}}}, {"x": None}, {"x": "a.b e+1 e-2 null"},
    {"x": "\x1f\u2028\x7f é \U0001f600"}, {"x": -0.0},
])
def test_a_link_is_jsons_bytes_where_orjson_writes_otherwise(payload):
    """docs/FAIRNESS.md: a link hashes the canonical JSON json.dumps writes (sorted keys, no spaces, UTF-8), also
    where orjson would write a float otherwise (NaN and Infinity as null, an exponent's digits) or refuses to write
    (an integer past 64 bits, a key not a string)."""
    body = json.dumps({"version": 7, "type": "T", "payload": payload}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode()
    assert link(GENESIS, 7, "T", payload) == hashlib.sha256(bytes.fromhex(GENESIS) + body).hexdigest()
