"""Issue 41, fourth part: names and reasons are never blank nor hold control characters, on every route and as
OpenAPI says; a token of another match or tournament is 403 whether Redis is up or down; creation is limited per
client address (429 with Retry-After), in Redis, across workers, and goes on while Redis is down."""
from __future__ import annotations

import functools
import html
import json
import re

import jsonschema_rs
import marshmallow as ma
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.matches import Matches
from projections.connection import EmbeddedRedis, connect
from projections.projector import Projector
from service import schemas
from service.app import Herald, create_app
from service.config import Settings
from tests.conftest import herald_context
from tests.helpers.api import Table, assert_problem, auth
from tests.helpers.console_forms import post_form
from tests.helpers.server import RedisServer, Server, call

SPEC = {"name": "Tuesday Swiss", "game": "korona", "format": "swiss", "rounds": 2, "table_size": 2, "top_cut": 0}
BLANK = ["", "   ", "\t\n \u3000"]
NAMES_REFUSED = [*BLANK, "\x00", "Ana\nBo", "Ana\tBo", "Ana\x07", "Ana\u2028Bo", "A" * 65]
REASONS_REFUSED = [*BLANK, "\x00", "misdealt\x1b[2J", "\x7f"]


def tournament(client, players: int, **changes) -> tuple[str, str, list[str]]:
    """A new tournament with players registered: its id, the organiser's token, the players' ids."""
    created = client.post("/tournaments", json={**SPEC, **changes})
    assert created.status_code == 201, created.get_json()
    tid, organiser = created.get_json()["tournament_id"], created.get_json()["organiser_token"]
    ids = []
    for i in range(players):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": f"P{i + 1}"}, headers=auth(organiser))
        assert answer.status_code == 201, answer.get_json()
        ids.append(answer.get_json()["player_id"])
    return tid, organiser, ids


class Scene:
    """A match with a dispute (d1) and an undo request (u1) open, a tournament registering players and one whose first
    round is paired: somewhere to send every name and reason."""

    def __init__(self, client):
        self.client = client
        self.table = Table(client, ["Ana", "Bo"])
        self.seat = self.table.view()["awaiting_seat"]
        self.start = self.table.version()
        for path, body in (("/disputes", {"version": 2, "claim": "unfair"}),
                           ("/undo-requests", {"to_version": self.start, "reason": "oops"})):
            answer = client.post(f"/matches/{self.table.id}{path}", json=body, headers=auth(self.table.tokens[self.seat]))
            assert answer.status_code == 201, answer.get_json()
        self.registering, self.registrar, _ = tournament(client, 0)
        self.paired, self.organiser, _ = tournament(client, 4)
        answer = client.post(f"/tournaments/{self.paired}/rounds", headers=auth(self.organiser))
        assert answer.status_code == 201, answer.get_json()
        self.tables = [t["players"] for t in answer.get_json()["tables"]]

    def state(self) -> tuple:
        """Everything a refused request must leave as it was."""
        get = self.client.get
        events = get(f"/matches/{self.table.id}/events", headers=auth(self.table.referee)).get_json()
        return (events, get("/matches").get_json(), get("/tournaments").get_json(),
                *([json.loads(line) for line in get(f"/tournaments/{t}/export").get_data().splitlines()]
                  for t in (self.registering, self.paired)))


# route -> (its path, the body around a value, whose token sends it, the field a refusal names)
ROUTES = {
    "match player": ("/matches", lambda s, v: {"game": "korona", "players": ["Ana", v]}, None, "players"),
    "match player object": ("/matches", lambda s, v: {"game": "korona", "players": [{"name": v}, "Bo"]}, None,
                            "players"),
    "tournament name": ("/tournaments", lambda s, v: {**SPEC, "name": v}, None, "name"),
    "registration": ("/tournaments/{registering}/players", lambda s, v: {"name": v}, "registrar", "name"),
    "result": ("/tournaments/{paired}/results",
               lambda s, v: {"round": 1, "table": 1, "placements": [[p] for p in s.tables[0]], "reason": v},
               "organiser", "reason"),
    "swap": ("/tournaments/{paired}/pairings", lambda s, v: {"swap": [s.tables[0][0], s.tables[1][0]], "reason": v},
             "organiser", "reason"),
    "backup": ("/matches/{match}/undo", lambda s, v: {"to_version": s.start, "reason": v}, "referee", "reason"),
    "undo request": ("/matches/{match}/undo-requests", lambda s, v: {"to_version": s.start, "reason": v}, "seat",
                     "reason"),
    "undo answer": ("/matches/{match}/undo-requests/u1", lambda s, v: {"decision": "decline", "reason": v}, "referee",
                    "reason"),
    "dispute": ("/matches/{match}/disputes", lambda s, v: {"version": 2, "claim": v}, "seat", "claim"),
    "ruling": ("/matches/{match}/disputes/d1/ruling", lambda s, v: {"ruling": "rejected", "explanation": v},
               "referee", "explanation"),
    "resolve for": ("/matches/{match}/moves", lambda s, v: {**s.table.moves(s.seat)[0], "resolve_for": s.seat,
                                                            "reason": v}, "referee", "reason"),
    "remedy": ("/matches/{match}/disputes/d1/ruling",
               lambda s, v: {"ruling": "upheld", "explanation": "the roll was redone", "remedy": v}, "referee",
               "remedy"),
}
NAMED = {"match player", "match player object", "tournament name", "registration"}


def send(scene: Scene, route: str, value: str):
    path, body, holder, _ = ROUTES[route]
    tokens = {None: None, "registrar": scene.registrar, "organiser": scene.organiser, "referee": scene.table.referee,
              "seat": scene.table.tokens[scene.seat]}
    path = path.format(match=scene.table.id, registering=scene.registering, paired=scene.paired)
    return scene.client.post(path, json=body(scene, value), headers=auth(tokens[holder]) if tokens[holder] else {})


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_blank_and_control_character_names_and_reasons_are_400_and_change_nothing(sqlite_client, route):
    """Each value is refused with a problem document naming the field, and nothing is recorded."""
    scene = Scene(sqlite_client)
    before = scene.state()
    for value in NAMES_REFUSED if route in NAMED else REASONS_REFUSED:
        problem = assert_problem(send(scene, route, value), 400)
        assert ROUTES[route][3] in problem["detail"], (value, problem)
        assert re.search("blank|control character|at most 64", problem["detail"]), (value, problem)
    assert scene.state() == before


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_names_and_reasons_are_kept_trimmed(sqlite_client, route):
    """Spaces around a name or a reason are dropped; a name may have spaces inside it, a reason several lines."""
    scene = Scene(sqlite_client)
    sent, kept = (" \u3000Ana  María\n", "Ana  María") if route in NAMED else \
        ("\n  the dice fell off the table;\nplayed again \t", "the dice fell off the table;\nplayed again")
    answer = send(scene, route, sent)
    assert answer.status_code in (200, 201), answer.get_json()
    said = json.dumps([answer.get_json(), *scene.state(), *everything_shown(scene, answer.get_json())],
                      ensure_ascii=False)
    assert json.dumps(kept, ensure_ascii=False)[1:-1] in said
    assert json.dumps(sent, ensure_ascii=False)[1:-1] not in said


def everything_shown(scene: Scene, answer: dict) -> list:
    """Where a name or reason shows besides the match's log and the tournaments' logs."""
    get = scene.client.get
    shown = [get(f"/matches/{scene.table.id}/undo-requests", headers=auth(scene.table.referee)).get_json(),
             get(f"/tournaments/{scene.registering}/standings").get_json()]
    if "tournament_id" in answer:
        shown.append(get(f"/tournaments/{answer['tournament_id']}").get_json())
    return shown


TRICKY = st.sampled_from(" \t\n\r\x0b\x0c\x1c\x1f\x00\x07\x7f\x85\x9f\xa0\u1680\u2000\u200a\u200b\u2028\u2029\u202f"
                         "\u3000\ufeffaé字😀")
FIELDS = {"name": schemas.Name(), "reason": schemas.Reason(5), "long reason": schemas.Reason(2000)}


def taken(field, value: str) -> bool:
    try:
        field.deserialize(value)
    except ma.ValidationError:
        return False
    return True


@pytest.mark.parametrize("field", sorted(FIELDS))
@settings(max_examples=400, deadline=None)
@given(value=st.text(st.one_of(TRICKY, st.characters(exclude_categories=["Cs"])), max_size=70))
def test_the_documented_pattern_takes_exactly_what_the_server_takes(field, value):
    """Python's re (which schemathesis generates from) and a JSON Schema validator (jsonschema_rs) read the pattern
    OpenAPI gives a name or a reason as the server reads the value."""
    pattern = FIELDS[field].metadata["pattern"]
    expected = taken(FIELDS[field], value)
    assert (re.search(pattern, value) is not None) == expected
    assert schema_validator(pattern).is_valid(value) == expected


@functools.cache
def schema_validator(pattern: str):
    """jsonschema_rs's validator of a string with this pattern, built once: a reason's {0,1998} takes it 20 ms."""
    return jsonschema_rs.validator_for({"type": "string", "pattern": pattern})


def test_openapi_gives_every_name_and_reason_its_pattern(sqlite_client):
    """Every name and reason of every body, the players of POST /matches among them."""
    spec = sqlite_client.get("/openapi.json").get_json()
    name, reason = schemas.Name().metadata["pattern"], schemas.Reason(500).metadata["pattern"]
    components = spec["components"]["schemas"]
    assert components["CreateTournament"]["properties"]["name"]["pattern"] == name
    assert components["RegisterPlayer"]["properties"]["name"]["pattern"] == name
    assert components["Result"]["properties"]["reason"]["pattern"] == reason
    assert components["Swap"]["properties"]["reason"]["pattern"] == reason
    player = spec["paths"]["/matches"]["post"]["requestBody"]["content"]["application/json"]["schema"]["oneOf"][0]
    assert player["properties"]["players"]["items"]["oneOf"][0]["pattern"] == name
    for kind, field, longest in (("Undo", "reason", 2000), ("UndoRequest", "reason", 2000),
                                 ("UndoAnswer", "reason", 2000), ("OpenDispute", "claim", 2000),
                                 ("Ruling", "explanation", 4000), ("Ruling", "remedy", 2000)):
        assert components[kind]["properties"][field]["pattern"] == schemas.Reason(longest).metadata["pattern"]


def test_a_token_of_another_tournament_or_match_is_403_on_a_tournament(sqlite_client):
    """Another tournament's organiser or player, or a match's seat: 403 and nothing changes; a token no one was
    given: 401."""
    client = sqlite_client
    tid, organiser, players = tournament(client, 4)
    other, other_organiser, _ = tournament(client, 2)
    other_player = client.post(f"/tournaments/{other}/players", json={"name": "Cy"}, headers=auth(other_organiser))
    match = Table(client, ["Ana", "Bo"])
    before = client.get(f"/tournaments/{tid}/export").get_data()
    for token in (other_organiser, other_player.get_json()["token"], match.referee, match.tokens[0]):
        assert_problem(client.post(f"/tournaments/{tid}/rounds", headers=auth(token)), 403)
        assert_problem(client.post(f"/tournaments/{tid}/players/{players[0]}/drop", headers=auth(token)), 403)
        assert_problem(client.post(f"/tournaments/{tid}/players", json={"name": "Di"}, headers=auth(token)), 403)
    assert_problem(client.post(f"/tournaments/{tid}/rounds", headers=auth("no-one-was-given-this")), 401)
    assert client.get(f"/tournaments/{tid}/export").get_data() == before
    assert client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).status_code == 201


@pytest.fixture
def embedded(tmp_path):
    """An app on the embedded Redis, which a test stops and starts as an outage would."""
    redis = EmbeddedRedis(tmp_path / "redis").start()
    client = connect(redis.url, pause=0)  # the breaker off: the client finds Redis down at once, and back
    matches = Matches(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "e.sqlite")})
    context = Herald(matches, Projector(matches, client), client, "sqlite", "embedded")
    yield redis, context
    redis.stop()
    matches.close()


@pytest.mark.parametrize("redis_up", [True, False], ids=["Redis up", "Redis down"])
def test_a_token_of_another_match_or_tournament_is_403_on_a_match_with_redis_up_or_down(embedded, tmp_path, redis_up):
    """With Redis down the token indexes are read from the event store, as the views are, and read on to what was
    created since; a token no one was given stays 401, and the match's own tokens still see it."""
    redis, context = embedded
    client = create_app(Settings(data_dir=tmp_path), context).test_client()
    table, other = Table(client, ["Ana", "Bo"]), Table(client, ["Cy", "Di"])
    tid, organiser, _ = tournament(client, 2)
    player = client.post(f"/tournaments/{tid}/players", json={"name": "Ed"}, headers=auth(organiser)).get_json()
    version = table.version()
    if not redis_up:
        redis.stop()
    strangers = [other.referee, *other.tokens, organiser, player["token"]]
    for token in strangers:
        assert_problem(client.get(f"/matches/{table.id}/view", headers=auth(token)), 403)
        assert_problem(table.post({"type": "draw", "source": "pile"}, token), 403)
    later = Table(client, ["Fy", "Gu"])  # created after the first look-up (with Redis down, while it is down)
    assert_problem(client.get(f"/matches/{table.id}/legal-moves", headers=auth(later.tokens[1])), 403)
    other_tid, other_organiser, _ = tournament(client, 1)
    assert_problem(client.post(f"/tournaments/{tid}/rounds", headers=auth(other_organiser)), 403)
    assert_problem(client.post(f"/tournaments/{other_tid}/rounds", headers=auth(table.referee)), 403)
    assert_problem(client.get(f"/matches/{table.id}/view", headers=auth("no-one-was-given-this")), 401)
    assert table.view(table.tokens[0])["version"] == version


def creations(client) -> dict:
    """What a client at one address creates: a match, a tournament, a player registered (in a tournament created from
    another address)."""
    made = client.post("/tournaments", json=SPEC, environ_base={"REMOTE_ADDR": "198.51.100.1"}).get_json()
    tid, organiser = made["tournament_id"], made["organiser_token"]
    return {"matches": lambda body=None, **kw: client.post("/matches", json=body or {"game": "korona",
                                                                                      "players": ["Ana", "Bo"]}, **kw),
            "tournaments": lambda body=None, **kw: client.post("/tournaments", json=body or SPEC, **kw),
            "registrations": lambda body=None, **kw: client.post(f"/tournaments/{tid}/players",
                                                                  json=body or {"name": "Ana"},
                                                                  headers=auth(organiser), **kw)}


def counted(client) -> tuple:
    """How many matches, tournaments and players this server holds."""
    listed = client.get("/tournaments").get_json()
    return len(client.get("/matches").get_json()), len(listed), sum(t["players"] for t in listed)


def refused_past_the_limit(response) -> None:
    problem = assert_problem(response, 429)
    assert 1 <= int(response.headers["Retry-After"]) <= 61
    assert "too many" in problem["detail"] and "from your address" in problem["detail"]


@pytest.mark.parametrize("kind", ["matches", "tournaments", "registrations"])
def test_the_creation_past_the_limit_is_429_with_retry_after_and_creates_nothing(redis_client, tmp_path,
                                                                                monkeypatch, kind):
    """HERALD_CREATE_LIMIT lowered to 3 a minute: three bodies refused by the schema use up nothing, three are created,
    the fourth is refused with Retry-After and nothing is created; another address still may create, and so may this
    one something else."""
    monkeypatch.setenv("HERALD_CREATE_LIMIT", "3 per minute")
    context = herald_context({"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                              "SQLITE_DBNAME": str(tmp_path / "events.sqlite")}, redis_client)
    client = create_app(Settings(data_dir=tmp_path), context).test_client()
    create = creations(client)
    for _ in range(3):
        assert_problem(create[kind]({"name": " ", "players": [" "], "game": "korona"}), 400)
    for _ in range(3):
        assert create[kind]().status_code == 201
    before = counted(client)
    refused_past_the_limit(create[kind]())
    assert counted(client) == before
    assert create[kind](environ_base={"REMOTE_ADDR": "192.0.2.7"}).status_code == 201
    assert all(create[other]().status_code == 201 for other in create if other != kind)
    context.matches.close()


def test_the_limit_holds_across_workers_in_their_shared_redis(redis_client, tmp_path):
    """Two workers (apps of their own on one event store and one Redis): what one created counts in the other."""
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "events.sqlite")}
    first = herald_context(store, redis_client)
    matches = Matches(env=store)
    second = Herald(matches, Projector(matches, redis_client), redis_client, "sqlite", "test redis")
    limited = Settings(data_dir=tmp_path, create_limit="3 per minute")
    workers = [create_app(limited, context).test_client() for context in (first, second, first)]
    for worker in workers:
        assert worker.post("/matches", json={"game": "korona", "players": ["Ana", "Bo"]}).status_code == 201
    for worker in workers[:2]:
        refused_past_the_limit(worker.post("/matches", json={"game": "korona", "players": ["Ana", "Bo"]}))
    first.matches.close()
    matches.close()


def test_a_real_server_answers_429_with_retry_after(tmp_path, monkeypatch):
    """`herald serve` with two workers and HERALD_CREATE_LIMIT=3 per minute, over HTTP."""
    monkeypatch.setenv("HERALD_CREATE_LIMIT", "3 per minute")
    redis = RedisServer(tmp_path).start()
    server = Server(tmp_path, {"PERSISTENCE_MODULE": "eventsourcing.sqlite"}, redis.url, workers=2).start()
    try:
        statuses = [call(server.base, "POST", "/matches", {"game": "korona", "players": ["Ana", "Bo"]})
                    for _ in range(5)]
        listed = call(server.base, "GET", "/matches")[1]
    finally:
        server.kill()  # its stop is not what this test looks at
        redis.stop()
    assert [status for status, _ in statuses] == [201, 201, 201, 429, 429]
    assert "too many matches created" in statuses[3][1]["detail"] and len(listed) == 3


def test_creation_goes_on_while_redis_is_down_each_worker_counting_alone(embedded, tmp_path):
    """With Redis down a worker counts in its own memory: creation is not refused for want of Redis, and the limit
    still holds in that worker."""
    redis, context = embedded
    client = create_app(Settings(data_dir=tmp_path, create_limit="2 per minute"), context).test_client()
    redis.stop()
    body = {"game": "korona", "players": ["Ana", "Bo"]}
    assert [client.post("/matches", json=body).status_code for _ in range(2)] == [201, 201]
    refused_past_the_limit(client.post("/matches", json=body))
    assert len(context.matches.recorder.select_notifications(start=1, limit=100, topics=[
        "domain.match:Match.MatchCreated"])) == 2


def test_a_limit_that_says_no_limit_stops_the_start(embedded, tmp_path):
    """A HERALD_CREATE_LIMIT flask-limiter cannot read stops the app at its start, not every creation later."""
    with pytest.raises(ValueError):
        create_app(Settings(data_dir=tmp_path, create_limit="a hundred a minute"), embedded[1])


def test_the_console_s_forms_meet_the_same_refusal(sqlite_client):
    """A reason of spaces or with a control character sent from the console's form is refused by the API's schema,
    and the page says why; nothing is asked."""
    table = Table(sqlite_client, ["Ana", "Bo"])
    seat, start = table.view()["awaiting_seat"], table.version()
    post_form(sqlite_client, "/console/sign-in", {"token": table.tokens[seat]})
    for reason in ("   ", "oops\x00"):
        page = post_form(sqlite_client, f"/console/matches/{table.id}/undo-requests",
                         {"to_version": str(start), "reason": reason})
        assert page.status_code == 400
        assert re.search("must not be blank|control character", html.unescape(page.get_data(as_text=True)))
    assert table.get("/undo-requests", table.referee).get_json() == []
