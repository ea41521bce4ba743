"""The authorisation matrix: every endpoint with no token, another match's, another seat's, the seat's and the referee's."""
from __future__ import annotations

import pytest

from domain.matches import token_hash
from tests.helpers.api import Table, auth

# endpoint -> (method, path, body, expected status for: none, other match, other seat, own seat, referee)
# "own seat" is the seat whose decision is awaited; "other seat" a seat that is waiting. Before each row the own
# seat has opened dispute d1 and undo request u1. AT_REST stands for the version where the first seat began to play
# (an undo request goes where a move begins, as a backup does).
AT_REST = "version at rest"
MATRIX = {
    "view": ("GET", "/view", None, (401, 403, 200, 200, 200)),
    "legal-moves": ("GET", "/legal-moves", None, (401, 403, 200, 200, 200)),
    "events": ("GET", "/events", None, (401, 403, 200, 200, 200)),
    "move": ("POST", "/moves", {"type": "draw", "source": "pile"}, (401, 403, 422, 200, 403)),
    "export": ("GET", "/export", None, (401, 403, 403, 403, 200)),
    "audit": ("GET", "/audit", None, (401, 403, 200, 200, 200)),
    "timeline": ("GET", "/timeline", None, (401, 403, 200, 200, 200)),
    "replay": ("GET", "/replay?version=2", None, (401, 403, 200, 200, 200)),
    "disputes": ("GET", "/disputes", None, (401, 403, 200, 200, 200)),
    "open dispute": ("POST", "/disputes", {"version": 2, "claim": "unfair"}, (401, 403, 201, 201, 403)),
    "undo requests": ("GET", "/undo-requests", None, (401, 403, 200, 200, 200)),
    "take back": ("POST", "/undo", {}, (401, 403, 422, 422, 403)),
    "start": ("POST", "/start", None, (401, 403, 403, 403, 422)),
    "client seed": ("POST", "/client-seed", {"client_seed": "abc"}, (401, 403, 422, 422, 403)),
    "summary": ("GET", "", None, (200, 200, 200, 200, 200)),
    "dispute": ("GET", "/disputes/d1", None, (401, 403, 404, 200, 200)),
    "ruling": ("POST", "/disputes/d1/ruling", {"ruling": "rejected", "explanation": "the roll recomputes"},
               (401, 403, 403, 403, 200)),
    "request undo": ("POST", "/undo-requests", {"to_version": AT_REST, "reason": "misclick"},
                     (401, 403, 201, 201, 403)),
    "answer undo": ("POST", "/undo-requests/u1", {"decision": "decline", "reason": "no"}, (401, 403, 403, 403, 200)),
}
HOLDERS = ("none", "other match", "other seat", "own seat", "referee")


@pytest.mark.parametrize("endpoint", sorted(MATRIX))
def test_every_endpoint_answers_each_holder_as_the_contract_says(client, endpoint):
    table = Table(client, ["Ana", "Bo"])
    other = Table(client, ["Cy", "Di"])
    own = table.view()["awaiting_seat"]
    start = table.version()
    for path, body in (("/disputes", {"version": 2, "claim": "unfair"}), ("/undo-requests",
                                                                           {"to_version": start, "reason": "oops"})):
        assert client.post(f"/matches/{table.id}{path}", json=body, headers=auth(table.tokens[own])).status_code == 201
    tokens = {"none": None, "other match": other.tokens[0], "other seat": table.tokens[1 - own],
              "own seat": table.tokens[own], "referee": table.referee}
    method, path, body, expected = MATRIX[endpoint]
    body = body and {key: start if value == AT_REST else value for key, value in body.items()}
    got = []
    for holder in HOLDERS:
        headers = auth(tokens[holder]) if tokens[holder] else {}
        response = client.open(f"/matches/{table.id}{path}", method=method, json=body, headers=headers)
        got.append(response.status_code)
        if response.status_code >= 400:
            assert response.headers["Content-Type"] == "application/problem+json"
            assert response.get_json()["detail"]
    assert dict(zip(HOLDERS, got)) == dict(zip(HOLDERS, expected))


def test_listing_and_creating_matches_need_no_token(client):
    """The match list and match creation are public: a tournament organiser creates matches without a token."""
    created = client.post("/matches", json={"game": "korona", "players": ["Ana", "Bo"]})
    assert created.status_code == 201
    listed = client.get("/matches")
    assert listed.status_code == 200
    assert [m["match_id"] for m in listed.get_json()] == [created.get_json()["match_id"]]


def test_tokens_are_stored_only_as_hashes(context):
    """No token appears in the event store; only its SHA-256 does."""
    match, tokens = context.matches.create("korona", [{"name": "Ana"}, {"name": "Bo"}])
    stored = match.secret["tokens"]
    assert stored["referee"] == token_hash(tokens["referee"])
    assert stored["seats"] == [token_hash(t) for t in tokens["seats"]]
    raw = b"".join(bytes(n.state) for n in context.matches.recorder.select_notifications(start=1, limit=100))
    for token in [tokens["referee"], *tokens["seats"]]:
        assert token.encode() not in raw


def test_tokens_are_compared_in_constant_time():
    """Token checks go through hmac.compare_digest on hashes, never ==."""
    import inspect

    from domain.matches import Matches

    source = inspect.getsource(Matches.role_of)
    assert "compare_digest" in source and "==" not in source
