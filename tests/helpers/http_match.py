"""A match over HTTP: created and driven by the API alone, as any client does (tests/test_a_new_game.py)."""
from __future__ import annotations

from tests.helpers.api import auth


class HttpMatch:
    """One match seen through the HTTP API."""

    def __init__(self, client, created: dict):
        self.client = client
        self.id = created["match_id"]
        self.tokens = [s["token"] for s in created["seats"]]
        self.referee = created["referee_token"]

    @classmethod
    def create(cls, client, game: str, players=("Ana", "Bo")) -> HttpMatch:
        """POST /matches, as any client creates a match."""
        response = client.post("/matches", json={"game": game, "players": list(players)})
        assert response.status_code == 201, response.get_json()
        return cls(client, response.get_json())

    def get(self, path: str, token: str | None):
        return self.client.get(f"/matches/{self.id}{path}", headers=auth(token) if token else {})

    def ok(self, response, status: int = 200):
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def view(self, token: str | None = None) -> dict:
        return self.ok(self.get("/view", token or self.referee))

    def moves(self, seat: int) -> list[dict]:
        return self.ok(self.get("/legal-moves", self.tokens[seat]))["moves"]

    def post(self, path: str, body: dict, token: str):
        return self.client.post(f"/matches/{self.id}{path}", json=body, headers=auth(token))

    def play(self, seat: int, move: dict) -> dict:
        return self.ok(self.post("/moves", move, self.tokens[seat]))

    def export(self, token: str) -> list[str]:
        response = self.get("/export", token)
        assert response.status_code == 200
        return response.get_data(as_text=True).splitlines()

