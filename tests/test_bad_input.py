"""Hostile input: schemathesis over /openapi.json, generated move bodies, oversized and unknown fields."""
from __future__ import annotations

import json

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.api_helpers import Table, auth


@pytest.mark.parametrize("holder", ["referee", "seat"])
@pytest.mark.parametrize("game", ["korona", "crusader_kingdoms"])
def test_schemathesis_finds_no_server_error_and_no_response_off_schema(sqlite_client, game, holder):
    """Every operation, fed generated input with a real referee or seat token of a match of each game, answers
    without 5xx and within its schema."""
    client = sqlite_client
    table = Table(client, ["Ana", "Bo", "Cy"], game=game)
    token = table.referee if holder == "referee" else table.tokens[0]
    schema = schemathesis.openapi.from_wsgi("/openapi.json", client.application)
    failures = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(case=operation.as_strategy())
        def probe(case):
            if "match_id" in (case.path_parameters or {}):
                case.path_parameters["match_id"] = table.id
            response = case.call(headers=auth(token))
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.path}: {response.status_code} {response.text[:200]}")
            elif response.status_code < 400:
                try:
                    response_schema_conformance(None, response, case)
                except AssertionError as error:
                    failures.append(f"{case.method} {case.path}: off schema: {error}")

        probe()
    assert failures == []


move_values = st.one_of(st.none(), st.booleans(), st.integers(-5, 120), st.text(max_size=12),
                        st.sampled_from(["pile", "market", "hand", "area", "farmer"]))
move_bodies = st.dictionaries(
    st.sampled_from(["type", "card", "source", "stack", "role", "draw", "take", "moved_card", "from_stack",
                     "target", "zone", "thief", "to", "expected_version", "colour"]),
    move_values, max_size=5)
move_types = st.sampled_from(["draw", "place", "discard", "play", "end_turn", "shield", "pass", "give", "take",
                              "pass_on", "reposition"])


@pytest.mark.parametrize("game", ["korona", "crusader_kingdoms"])
@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=move_bodies, kind=st.one_of(st.none(), move_types))
def test_generated_move_bodies_change_nothing_unless_legal(client_factory, game, body, kind):
    """A generated move is applied only when it is one of the legal moves; otherwise nothing changes."""
    _client, table = client_factory(game)
    if kind is not None:
        body = {**body, "type": kind}
    seat = table.view()["awaiting_seat"]
    before = table.view()
    legal = table.moves(seat)
    response = table.post(body, table.tokens[seat])
    assert response.status_code in (200, 400, 409, 422), response.get_data(as_text=True)
    if response.status_code == 200:
        assert {k: v for k, v in body.items() if k != "expected_version" and v is not None} in legal
    else:
        assert table.view() == before


@pytest.fixture
def client_factory(sqlite_client):
    client = sqlite_client
    made = {}

    def factory(game="korona"):
        if game not in made:
            made[game] = Table(client, ["Ana", "Bo", "Cy"], game=game)
        return client, made[game]

    return factory


def test_unknown_fields_are_400_and_oversized_bodies_413(sqlite_client):
    client = sqlite_client
    table = Table(client, ["Ana", "Bo"])
    seat = table.view()["awaiting_seat"]
    unknown = table.post({"type": "draw", "source": "pile", "cheat": True}, table.tokens[seat])
    assert unknown.status_code == 400 and "cheat" in json.dumps(unknown.get_json()["errors"])
    huge = client.post(f"/matches/{table.id}/moves", data=json.dumps({"type": "draw", "pad": "x" * 100_000}),
                       headers={**auth(table.tokens[seat]), "Content-Type": "application/json"})
    assert huge.status_code == 413
    assert client.post("/matches", data="[" * 70_000, headers={"Content-Type": "application/json"}).status_code == 413
