"""A whole Shield chain over HTTP, played by three different tokens."""
from __future__ import annotations

import uuid

from domain import fair
from domain.korona import GAME as KORONA
from domain.korona.cards import NAMES
from domain.korona.state import new_state
from tests.helpers.api import Table

MATCH_ID = uuid.UUID("6f1c2a7e-1111-4222-8333-944455556666")
CLIENT_SEEDS = ["ana", "bo", "cy"]


def dealt(server_seed: bytes) -> dict:
    state = new_state({"players": ["Ana", "Bo", "Cy"]})
    for type_, payload in KORONA.start(state, fair.Generator(server_seed, str(MATCH_ID), CLIENT_SEEDS)):
        KORONA.evolve(state, type_, payload)
    return state


def holds(state, seat, name) -> list[int]:
    return [c for c in state["players"][seat]["hand"] if NAMES[c] == name]


def seed_for_a_shield_chain() -> bytes:
    """A server seed whose deal gives the first seat a Donation and a Shield, and the next seat a Shield."""
    for n in range(1, 100_000):
        seed = n.to_bytes(32, "big")
        state = dealt(seed)
        first = state["current"]
        target = (first + 1) % 3
        if holds(state, first, "donation") and holds(state, first, "shield") and len(holds(state, target, "shield")) >= 2:
            return seed
    raise AssertionError("no seed found")


def test_shield_counter_shield_and_a_wrong_seat_over_http(client, monkeypatch):
    """"If it shields, the attacker may counter with a Shield of its own, and so on, alternating, until one side
    passes; the last unanswered Shield decides" — here the target's second Shield cancels the Donation; a third
    seat trying to answer is refused with 422 naming whose decision is awaited, and nothing changes."""
    seed = seed_for_a_shield_chain()
    monkeypatch.setattr("domain.matches.uuid.uuid4", lambda: MATCH_ID)
    monkeypatch.setattr("domain.matches.fair.new_server_seed", lambda: seed)
    created = client.post("/matches", json={"game": "korona", "players": [
        {"name": n, "client_seed": c} for n, c in zip(["Ana", "Bo", "Cy"], CLIENT_SEEDS)]})
    assert created.status_code == 201
    table = Table.__new__(Table)
    table.client, table.created = client, created.get_json()
    table.id, table.referee = table.created["match_id"], table.created["referee_token"]
    table.tokens = [s["token"] for s in table.created["seats"]]
    expected = dealt(seed)
    attacker = expected["current"]
    target, bystander = (attacker + 1) % 3, (attacker + 2) % 3
    donation = holds(expected, attacker, "donation")[0]
    attacker_shield = holds(expected, attacker, "shield")[0]
    target_shields = holds(expected, target, "shield")

    table.play(attacker, {"type": "draw", "source": "pile"})
    table.play(attacker, {"type": "play", "card": donation, "target": target, "zone": "hand"})
    assert table.view()["pending"]["seat"] == target

    before = table.view()
    refused = table.post({"type": "pass"}, table.tokens[bystander])
    assert refused.status_code == 422
    detail = refused.get_json()["detail"]
    assert table.created["seats"][target]["name"] in detail and f"seat {target}" in detail, detail
    assert table.view() == before
    assert table.moves(bystander) == [] and table.moves(attacker) == []

    shielded = table.play(target, {"type": "shield", "card": target_shields[0]})
    assert [e["type"] for e in shielded["events"]] == ["ShieldPlayed"]
    countered = table.play(attacker, {"type": "shield", "card": attacker_shield})
    assert [e["type"] for e in countered["events"]] == ["ShieldCountered"]
    again = table.play(target, {"type": "shield", "card": target_shields[1]})
    assert [e["type"] for e in again["events"]] == ["ShieldPlayed"]
    passed = table.play(attacker, {"type": "pass"})
    assert [e["type"] for e in passed["events"]][:2] == ["ResponsePassed", "ActionCancelled"]
    view = table.view()
    assert view["pending"] is None
    assert donation in [c["id"] for c in view["discard_pile"]]
    assert view["actions_taken"] == 1
    assert len(view["players"][target]["hand"]) == 5 - 2
