"""service/hot_path.py answers POST /moves and GET /legal-moves before Flask's request machinery (issue 21): its answers
must be the routes' own, byte for byte. Two twin matches (same ids, seeds and tokens, each on its own event store and
Redis) are played with the same moves, one through the hot path and one through the Flask routes alone."""
from __future__ import annotations

import random
import secrets
import uuid

import pytest

from domain.matches import VersionConflict
from domain.registry import GAMES
from service.app import create_app
from service.config import Settings
from tests.conftest import herald_context
from tests.helpers.api import assert_problem, auth
from tests.helpers.stores import own_redis

MOVES = 60  # a match's first moves: each game's setup, turns, and the decisions other seats make


def same_randomness(monkeypatch, same: random.Random) -> None:
    """Match ids, seeds and tokens drawn from `same` instead of the operating system."""
    monkeypatch.setattr(secrets, "token_bytes", lambda n=32: same.randbytes(n))
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n=32: same.randbytes(n).hex())
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=same.getrandbits(128), version=4))


@pytest.fixture
def other_redis():
    with own_redis() as (client, _):
        yield client


@pytest.fixture
def twins(tmp_path, redis_client, other_redis, monkeypatch):
    """A client of the app with the hot path, one of the routes alone, a function making twin matches, and the paths
    of the requests the hot path declined."""
    apps = []
    for name, redis in (("hot", redis_client), ("flask", other_redis)):
        context = herald_context({"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                  "SQLITE_DBNAME": str(tmp_path / f"{name}.sqlite")}, redis)
        apps.append((create_app(Settings(data_dir=tmp_path / name), context), context))
    flask_only = apps[1][0]
    flask_only.wsgi_app = flask_only.wsgi_app.app  # the routes alone, as before the hot path

    def create(game: str, players: list[str]) -> list[dict]:
        made = []
        for app, _ in apps:
            same_randomness(monkeypatch, random.Random(game))
            answer = app.test_client().post("/matches", json={"game": game, "players": players})
            assert answer.status_code == 201
            made.append(answer.get_json())
        monkeypatch.undo()
        assert made[0] == made[1]
        return made[0]

    hot_path = apps[0][0].wsgi_app
    inner, hot_path.declined = hot_path.app, []

    def counted(environ, start_response):
        hot_path.declined.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    hot_path.app = counted
    yield apps[0][0].test_client(), flask_only.test_client(), create, hot_path.declined
    for _, context in apps:
        context.matches.close()


def both(clients, method: str, path: str, token: str, move: dict | None = None):
    """The same request to both apps: their answers, which must be the same bytes."""
    answers = [getattr(client, method)(path, json=move, headers=auth(token)) for client in clients]
    hot, routes = answers
    assert (hot.status_code, hot.content_type, hot.get_data()) == (routes.status_code, routes.content_type,
                                                                   routes.get_data()), path
    return hot


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_hot_path_answers_moves_and_legal_moves_as_the_routes_do(twins, game):
    hot, routes, create, declined = twins
    rules = GAMES[game]
    created = create(game, ["Ana", "Bo", "Cy", "Di"][:min(rules.min_players + 1, rules.max_players)])
    match, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    chooser = random.Random(game)
    seat = routes.get(f"/matches/{match}/view", headers=auth(created["referee_token"])).get_json()["awaiting_seat"]
    includes = ["", "?include=legal_moves", "?include=view,legal_moves", "?include=view"]
    played_moves = 0
    for number in range(MOVES):
        if seat is None:
            break
        played_moves += 1
        legal = both((hot, routes), "get", f"/matches/{match}/legal-moves", tokens[seat]).get_json()["moves"]
        other = (seat + 1) % len(tokens)
        both((hot, routes), "get", f"/matches/{match}/legal-moves", tokens[other])
        refused = both((hot, routes), "post", f"/matches/{match}/moves", tokens[other], legal[0])
        assert refused.status_code in (409, 422) or not legal
        played = both((hot, routes), "post", f"/matches/{match}/moves{includes[number % 4]}", tokens[seat],
                      chooser.choice(legal))
        assert played.status_code == 200
        seat = played.get_json()["awaiting_seat"]
    assert declined == ["/matches"] + [f"/matches/{match}/moves"] * played_moves, "only the refusals went on"


def test_refusals_reach_the_routes_and_record_nothing(twins):
    """Whatever is not plain (a stale version, another match's token, a query the schema refuses, no JSON) is answered
    by the routes, exactly as they answer it alone."""
    hot, routes, create, _ = twins
    created = create("korona", ["Ana", "Bo"])
    match, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    seat = routes.get(f"/matches/{match}/view", headers=auth(tokens[0])).get_json()["awaiting_seat"]
    path = f"/matches/{match}/moves"
    draw = {"type": "draw", "source": "pile"}
    assert_problem(both((hot, routes), "post", path, tokens[seat], {**draw, "expected_version": 1}), 409)
    assert_problem(both((hot, routes), "post", path, "not-a-token", draw), 401)
    assert_problem(both((hot, routes), "post", path + "?include=hands", tokens[seat], draw), 400)
    assert_problem(both((hot, routes), "post", path, tokens[seat], {"type": "fly"}), 400)
    for client in (hot, routes):
        assert_problem(client.post(path, data="{", headers={**auth(tokens[seat]), "Content-Type": "application/json"}),
                       400)
        assert_problem(client.post(path, data="type=draw", headers={**auth(tokens[seat]),
                                                                     "Content-Type": "text/plain"}), 415)
    assert both((hot, routes), "post", path, tokens[seat], draw).get_json()["version"] == created["version"] + 1


@pytest.mark.parametrize("error, status", [(RuntimeError("the answer could not be built"), 500),
                                           (VersionConflict("the tournament changed at the same time"), 409)])
def test_an_error_after_the_move_is_recorded_is_answered_as_the_routes_answer_it(twins, monkeypatch, error, status):
    """What fails once the move is recorded (telling its tournament's desk) is answered as the routes answer it, and
    the move stands on both."""
    hot, routes, create, _ = twins
    created = create("korona", ["Ana", "Bo"])
    match, referee = created["match_id"], created["referee_token"]
    seat = hot.get(f"/matches/{match}/view", headers=auth(referee)).get_json()["awaiting_seat"]

    def broken(*args):
        raise error

    monkeypatch.setattr("domain.tournaments.desk.finished", broken)
    assert_problem(both((hot, routes), "post", f"/matches/{match}/moves", created["seats"][seat]["token"],
                        {"type": "draw", "source": "pile"}), status)
    for client in (hot, routes):
        assert client.get(f"/matches/{match}/view", headers=auth(referee)).get_json()["version"] == \
            created["version"] + 1
