"""A small HTTP client for tests: create a match, read views and legal moves, post moves."""
from __future__ import annotations

import random

from service.problems import PROBLEM
from tests.helpers.console_forms import post_form


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """One match seen through the HTTP API."""

    def __init__(self, client, players=("Ana", "Bo", "Cy"), game="korona", options: dict | None = None):
        self.client = client
        created = client.post("/matches", json={"game": game, "players": list(players), "options": options or {}})
        assert created.status_code == 201, created.get_json()
        self.created = created.get_json()
        self.id = self.created["match_id"]
        self.tokens = [s["token"] for s in self.created["seats"]]
        self.referee = self.created["referee_token"]

    def get(self, path: str, token: str):
        return self.client.get(f"/matches/{self.id}{path}", headers=auth(token))

    def view(self, token: str | None = None) -> dict:
        response = self.get("/view", token or self.referee)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def version(self) -> int:
        return self.view()["version"]

    def moves(self, seat: int) -> list[dict]:
        response = self.get("/legal-moves", self.tokens[seat])
        assert response.status_code == 200
        return response.get_json()["moves"]

    def post(self, move: dict, token: str):
        return self.client.post(f"/matches/{self.id}/moves", json=move, headers=auth(token))

    def play(self, seat: int, move: dict) -> dict:
        response = self.post(move, self.tokens[seat])
        assert response.status_code == 200, response.get_json()
        return response.get_json()


def play_to_the_end(table: Table, chooser: random.Random, on_response=None) -> list[str]:
    """Play random legal moves until the match ends; returns every chain_head receipt."""
    receipts = []
    while True:
        view = table.view()
        if view["status"] == "finished":
            return receipts
        seat = view["awaiting_seat"]
        result = table.play(seat, chooser.choice(table.moves(seat)))
        receipts.append(result["chain_head"])
        if on_response:
            on_response(seat, result)


def play_random_moves(table: Table, chooser: random.Random, moves: int) -> None:
    """Up to `moves` random legal moves, fewer if the match ends first."""
    for _ in range(moves):
        view = table.view()
        if view["status"] == "finished":
            return
        seat = view["awaiting_seat"]
        table.play(seat, chooser.choice(table.moves(seat)))


def play_until(table: Table, chooser: random.Random, seen, limit: int = 400) -> dict | None:
    """Random legal moves until the referee's view shows what `seen` looks for: that view (None if never)."""
    for _ in range(limit):
        view = table.view()
        if seen(view):
            return view
        if view["status"] == "finished":
            return None
        play_random_moves(table, chooser, 1)
    return None


def view_as(client, table: Table, token: str | None) -> dict:
    """A seat's or the referee's view for a token, the spectator's without one."""
    if token:
        return table.view(token)
    response = client.get(f"/matches/{table.id}/spectator-view")
    assert response.status_code == 200
    return response.get_json()


def export(table: Table, token: str) -> list[str]:
    response = table.get("/export", token)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/x-ndjson")
    return response.get_data(as_text=True).splitlines()


def play_through(table: Table, players: int, pick) -> list[dict]:
    """Play the moves `pick` chooses until the match ends, checking only the awaited seat has any; every event."""
    events = []
    for _ in range(3000):
        view = table.view()
        if view["status"] == "finished":
            break
        seat = view["awaiting_seat"]
        moves = table.moves(seat)
        assert moves
        assert all(table.moves(other) == [] for other in range(players) if other != seat)
        events += table.play(seat, pick(moves))["events"]
    assert table.view()["status"] == "finished"
    return events


def assert_problem(response, status: int):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.headers["Content-Type"] == PROBLEM
    problem = response.get_json()
    assert problem["status"] == status and problem["detail"]
    return problem


def viewers(doc: dict) -> list:
    """Everyone a match document (or {"created": MatchCreated's payload}) has a view for: referee, spectator, seats."""
    return ["referee", None, *range(len(doc["created"]["players"]))]


def page_as(client, table: Table, token: str | None) -> str:
    """The console's page of a match for a token (a seat's or the referee's), or for a spectator without one."""
    post_form(client, "/console/sign-out")
    if token:
        assert post_form(client, "/console/sign-in", {"token": token}).status_code == 303
    response = client.get(f"/console/matches/{table.id}")
    assert response.status_code == 200, response.get_data(as_text=True)[:3000]
    return response.get_data(as_text=True)
