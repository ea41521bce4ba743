"""POST /moves?include=view,legal_moves (issue 21): the answer carries the mover's view and next legal moves, the
same as GET /view and GET /legal-moves would answer, saving a request a move; a bad include changes nothing."""
from __future__ import annotations

from tests.helpers.api import Table, assert_problem, auth


def test_a_move_answers_with_the_movers_view_and_legal_moves_when_asked(client):
    table = Table(client, ["Ana", "Bo"])
    seat = table.view()["current_seat"]
    answer = client.post(f"/matches/{table.id}/moves?include=view,legal_moves", json={"type": "draw", "source": "pile"},
                         headers=auth(table.tokens[seat]))
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["view"] == table.view(table.tokens[seat]) and "hand" not in body["view"]["players"][1 - seat]
    assert body["legal_moves"] == table.moves(seat) and body["legal_moves"]
    plain = table.play(seat, body["legal_moves"][0])
    assert "view" not in plain and "legal_moves" not in plain


def test_an_unknown_include_is_refused_and_records_nothing(client):
    table = Table(client, ["Ana", "Bo"])
    seat = table.view()["current_seat"]
    version = table.version()
    refused = client.post(f"/matches/{table.id}/moves?include=hands", json={"type": "draw", "source": "pile"},
                          headers=auth(table.tokens[seat]))
    assert_problem(refused, 400)
    assert table.version() == version

