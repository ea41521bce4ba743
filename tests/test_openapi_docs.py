"""/openapi.json says what the API does (tokens, problem documents, bodies) and /docs renders with no network."""
from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import jsonschema_rs
import pytest

from tests.helpers.api import Table, play_to_the_end

PUBLIC = {("get", "/matches"), ("post", "/matches"), ("get", "/matches/{match_id}"),
          ("get", "/matches/{match_id}/spectator-view"), ("get", "/matches/{match_id}/spectator-timeline"),
          ("get", "/health"), ("post", "/decklists/check"),
          ("post", "/tournaments"), ("get", "/tournaments"), ("get", "/tournaments/{tournament_id}"),
          ("get", "/tournaments/{tournament_id}/rounds/{number}"), ("get", "/tournaments/{tournament_id}/standings"),
          ("get", "/tournaments/{tournament_id}/export"), ("get", "/tournaments/{tournament_id}/timeline"),
          ("get", "/tournaments/{tournament_id}/reports")}
OPTIONAL = {("get", "/matches/{match_id}/stream"),  # a spectator's without a token, a holder's with it
            ("get", "/tournaments/{tournament_id}/stream")}


@pytest.fixture
def spec(sqlite_client):
    return sqlite_client.get("/openapi.json").get_json()


def operations(spec):
    for path, ops in spec["paths"].items():
        for method, operation in ops.items():
            if method != "parameters":
                yield method, path, operation


def test_bearer_tokens_are_declared_where_they_are_needed(spec):
    assert spec["components"]["securitySchemes"]["bearer"] == {
        "type": "http", "scheme": "bearer", "description": "a seat's or the referee's token, as POST /matches returned it"}
    for method, path, operation in operations(spec):
        expected = None if (method, path) in PUBLIC else [{}, {"bearer": []}] if (method, path) in OPTIONAL else \
            [{"bearer": []}]
        assert (operation.get("security") or None) == expected, (method, path)


def test_every_error_is_declared_as_a_problem_document(spec):
    problem = {"$ref": "#/components/schemas/Problem"}
    assert set(spec["components"]["schemas"]["Problem"]["properties"]) == {"type", "title", "status", "detail",
                                                                           "errors"}
    for method, path, operation in operations(spec):
        for status, response in operation["responses"].items():
            if status == "default" or status >= "400":
                name = response["$ref"].rsplit("/", 1)[1]
                declared = spec["components"]["responses"][name]["content"]
                assert declared == {"application/problem+json": {"schema": problem}}, (method, path, status)


def test_the_import_body_is_documented(spec):
    body = spec["paths"]["/matches/import"]["post"]["requestBody"]
    assert body["required"] and body["content"]["application/x-ndjson"]["schema"]["type"] == "string"


BODIES = [
    ({"game": "korona", "players": ["Ana", "Bo"]}, True),
    ({"game": "korona", "players": [None, "Bo"]}, False),
    ({"game": "korona", "players": ["Ana"]}, False),
    ({"game": "korona", "players": ["Ana", "Bo"], "options": {"map": {}}}, False),
    ({"game": "korona", "players": ["Ana", {"name": "Bo", "client_seed": "s-1"}]}, True),
    ({"game": "korona", "players": ["Ana", {"name": "Bo", "client_seed": "s 1"}]}, False),
    ({"game": "korona", "players": ["Ana", "Bo"], "await_client_seeds": 1}, False),
    ({"game": "crusader_kingdoms", "players": ["Ana"]}, True),
    ({"game": "crusader_kingdoms", "players": ["Ana"], "options": {"colour": {}}}, False),
]


@pytest.mark.parametrize(("body", "valid"), BODIES)
def test_the_create_schema_and_the_server_agree(sqlite_client, spec, body, valid):
    """players: [null] was valid by the schema but refused; a body is valid by the schema exactly when the server
    does not answer 400."""
    schema = spec["paths"]["/matches"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert jsonschema_rs.validator_for(schema).is_valid(body) == valid
    assert (sqlite_client.post("/matches", json=body).status_code != 400) == valid


class Links(HTMLParser):
    """Every src and href of a page."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found += [value for name, value in attrs if name in ("src", "href") and value]


def test_docs_render_from_the_app_alone(sqlite_client):
    """/docs loaded swagger-ui from a CDN, so it was blank without internet: every asset now comes from the app."""
    page = sqlite_client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    links = Links()
    links.feed(html)
    assert len(links.found) == 3 and not [link for link in links.found if re.match(r"(\w+:)?//", link)]
    assert '"validatorUrl": null' in html and 'url: "/openapi.json"' in html  # no validator badge fetched online
    for link in links.found:
        asset = sqlite_client.get(link)
        assert asset.status_code == 200 and len(asset.data) > 1000, link
        if link.endswith(".css"):
            urls = re.findall(r"url\(\s*['\"]?([^'\")]+)", asset.get_data(as_text=True))
            assert all(url.startswith("data:") for url in urls), urls
    assert sqlite_client.get("/docs/assets/../setup.cfg").status_code == 404


def documented_keys(spec, component: str) -> set[str]:
    return set(spec["components"]["schemas"][component]["properties"])


@pytest.mark.parametrize(("game", "players"), [("korona", ("Ana", "Bo")), ("crusader_kingdoms", ("Ana", "Bo", "Cy"))])
def test_each_game_documents_its_view_and_every_key_a_view_shows(sqlite_client, spec, game, players):
    """Issue 16, per-game views: the view routes answer one of the games' views, told apart by `game`, and every
    key a seat, a spectator, the referee or a replay is shown is documented in that game's component."""
    component = component_of(game)
    for path in ("/matches/{match_id}/view", "/matches/{match_id}/spectator-view", "/matches/{match_id}/replay"):
        schema = spec["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert schema["discriminator"]["propertyName"] == "game"
        assert schema["discriminator"]["mapping"][game] == f"#/components/schemas/{component}"
        assert {"$ref": f"#/components/schemas/{component}"} in schema["oneOf"]
    table = Table(sqlite_client, players, game)
    play_to_the_end(table, random.Random(3))
    shown = [table.view(), table.view(table.tokens[0]), sqlite_client.get(f"/matches/{table.id}/spectator-view"),
             table.get("/replay?version=2", table.tokens[1])]
    documented = documented_keys(spec, component)
    for view in shown:
        view = view if isinstance(view, dict) else view.get_json()
        assert view["game"] == game
        assert set(view) <= documented, set(view) - documented


def component_of(game: str) -> str:
    return "".join(part.title() for part in game.split("_")) + "View"
