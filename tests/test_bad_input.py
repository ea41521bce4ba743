"""Hostile input: schemathesis with all its checks over /openapi.json, generated move bodies, oversized and unknown
fields."""
from __future__ import annotations

import json
import re
import threading

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import events
from werkzeug.serving import WSGIRequestHandler, make_server

from domain.registry import GAMES
from tests.helpers.api import Table, auth

# The API's contract (README): a request valid by the schema may still be refused, 422 when the rules forbid it now
# (and 401/403/404/409 as schemathesis expects); never 400, which means "not valid by the schema".
ACCEPTED = ["2xx", "401", "403", "404", "409", "422"]
# schemathesis' statuses for refusing a request the schema does not allow, and 413: texts generated over their length
# limits, escaped as JSON (12 bytes a character outside the BMP), can make a body over the 64 KiB a request may send
REJECTED = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]
STREAMS = r"/stream$"  # server-sent events
# the operations whose answers hang on the token's match and holder: that match's, and whose token it is
HOLDER_OPERATIONS = r"^/matches/\{match_id\}|^/whoami$"
FIRST_GAME = next(iter(GAMES))  # the one game whose referee's run also covers the operations that name no match
EXAMPLES = 20  # fuzzing examples an operation a run: the coverage phase already tries each schema's edges


def players_of(game: str) -> list[str]:
    """Three players, or as many as the game takes."""
    return ["Ana", "Bo", "Cy"][:GAMES[game].max_players]


schemathesis.serializer.alias("application/x-ndjson", "text/plain")  # POST /matches/import takes the log as text

@pytest.mark.parametrize("holder", ["referee", "seat"])
@pytest.mark.parametrize("game", list(GAMES))
def test_schemathesis_with_all_its_checks_finds_nothing(sqlite_client, game, holder):
    """Every phase (examples, coverage, fuzzing, stateful) and every check of schemathesis, against Herald served
    over HTTP on the loopback with a real referee or seat token of a match of each game: that match's operations and
    /whoami for every game and holder, the others (to which a match's token is a stranger's) once."""
    every_operation = game == FIRST_GAME and holder == "referee"
    table = Table(sqlite_client, players_of(game), game=game)
    token = table.referee if holder == "referee" else table.tokens[table.view()["awaiting_seat"]]
    config = SchemathesisConfig.from_dict({
        "headers": {"Authorization": f"Bearer {token}"}, "parameters": {"path.match_id": table.id},
        "generation": {"max-examples": EXAMPLES},
        "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED},
                   "negative_data_rejection": {"expected-statuses": REJECTED}},
    })
    server = make_server("127.0.0.1", 0, sqlite_client.application, threaded=True, request_handler=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        schema = schemathesis.openapi.from_url(f"http://127.0.0.1:{server.server_port}/openapi.json", config=config)
        schema = schema.exclude(path_regex=STREAMS)  # a running match's stream does not end: tests/test_live.py
        if not every_operation:
            schema = schema.include(path_regex=HOLDER_OPERATIONS)
        failures, checked, stop = findings(schemathesis.engine.from_schema(schema).execute())
    finally:
        server.shutdown()
    assert failures == [], "\n\n".join(failures)
    assert stop == "completed" and checked >= {
        f"{m.upper()} {p}" for p, ops in schema.raw_schema["paths"].items() for m in ops
        if m != "parameters" and not re.search(STREAMS, p) and (every_operation or re.search(HOLDER_OPERATIONS, p))}


class Quiet(WSGIRequestHandler):
    """Werkzeug's request handler without a log line per request."""

    def log_request(self, *args, **kwargs):
        pass


def findings(stream) -> tuple[list[str], set[str], str]:
    """The failed checks and errors of a schemathesis run, the operations whose responses were checked, why it
    stopped."""
    failures, checked, stop = [], set(), None
    for event in stream:
        if isinstance(event, events.ScenarioFinished):
            for case_checks in event.recorder.checks.values():
                checked.add(event.recorder.label)
                failures += [f"{event.phase.value} {event.recorder.label} {check.name}: {check.failure_info.failure}"
                             for check in case_checks if check.failure_info]
        elif isinstance(event, (events.NonFatalError, events.FatalError)):
            failures.append(f"error: {getattr(event, 'value', None) or event.exception!r}")
        elif isinstance(event, events.EngineFinished):
            stop = event.stop_reason.value
    return failures, checked, stop


move_values = st.one_of(st.none(), st.booleans(), st.integers(-5, 120), st.text(max_size=12),
                        st.sampled_from(["pile", "market", "hand", "area", "farmer"]))
move_bodies = st.dictionaries(
    st.sampled_from(["type", "card", "source", "stack", "role", "draw", "take", "moved_card", "from_stack",
                     "target", "zone", "thief", "to", "expected_version", "colour"]),
    move_values, max_size=5)
move_types = st.sampled_from(["draw", "place", "discard", "play", "end_turn", "shield", "pass", "give", "take",
                              "pass_on", "reposition", "activate", "skip", "summon", "move", "attack"])


@pytest.mark.parametrize("game", list(GAMES))
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
            made[game] = Table(client, players_of(game), game=game)
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
