"""A small HTTP client for tests: create a match, read views and legal moves, post moves."""
from __future__ import annotations


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """One match seen through the HTTP API."""

    def __init__(self, client, players=("Ana", "Bo", "Cy"), game="korona"):
        self.client = client
        created = client.post("/matches", json={"game": game, "players": list(players)})
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
