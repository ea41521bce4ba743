"""For a Crown through the HTTP API and the platform: whole matches of 3, 4 and 5 families picked from GET
/legal-moves, their exports verified and re-refereed, a take-back inside a recruit and a backup across a reveal."""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest

from domain.for_a_crown import GAME as FOR_A_CROWN
from domain.for_a_crown.data import DATA
from replays import verify
from replays.referee import rereferee
from tests.helpers.api import Table, assert_problem, auth, export, play_through
from tests.helpers.stores import memory_app

VIEW_KEYS = {"game", "status", "round", "phase", "awaiting_seat", "winner", "winners", "gallery", "reserve",
             "royal_square", "shared_deck_count", "revealed", "event_stack_count", "players"}

PAID = re.compile(r"^[A-Z][\w ]+ recruited a level-[1-5] Mercenary for (?P<total>\d) "
                  r"\((?:(?P<coins>\d) Coins?)?(?:, )?(?:(?P<rubies>\d) Rub(?:y|ies))?\)\.$")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_whole_match_over_http_verifies_and_audits(sqlite_client, players, tmp_path):
    """A match to its end over HTTP: the view holds the issue's keys (chest for one's own seat only), the export
    passes replays.verify and herald audit (the re-referee), and the timeline reads in plain English."""
    names = ["Ana", "Bo", "Cy", "Di", "Ed"][:players]
    table = Table(sqlite_client, names, game="for_a_crown")
    first = table.view(table.tokens[0])
    assert VIEW_KEYS <= set(first) and first["round"] == 1
    assert "chest" in first["players"][0] and "chest" not in first["players"][1]
    assert [len(level["face_up"]) for level in first["royal_square"][1:]] == [2, 2, 2, 2]
    events = play_through(table, players, random.Random(players).choice)
    final = table.view()
    assert final["winners"] == [final["winner"]]
    lines = export(table, table.tokens[0])
    checks = []
    assert verify.verify(lines, (), checks.append), checks
    assert rereferee(lines).chain == final["chain_head"]
    (tmp_path / "crown.ndjson").write_text("\n".join(lines) + "\n")
    audited = subprocess.run([sys.executable, "-m", "service.cli", "audit", str(tmp_path / "crown.ndjson")],
                             capture_output=True, text=True, check=False)
    assert audited.returncode == 0 and f"under {FOR_A_CROWN.rules}" in audited.stdout, audited.stdout + audited.stderr
    timeline = table.get("/timeline", table.tokens[0]).get_json()
    sentences = [entry["summary"] for entry in timeline]
    paid = [m for m in map(PAID.match, sentences) if m]
    assert paid and all(int(m["total"]) == int(m["coins"] or 0) + int(m["rubies"] or 0) for m in paid)
    rolled = [event for event in events if event["type"] == "DieRolled"]
    assert rolled and len(rolled) == sum(" rolled: the magic die showed " in s for s in sentences)
    assert any(s.startswith("Revealed: ") for s in sentences)
    assert sentences[0] == f"{', '.join(names[:-1])} and {names[-1]} sat down to play For a Crown."


def test_a_seat_takes_back_its_recruit_before_paying(sqlite_client):
    """A take-back inside a recruit: the face-up Mercenary goes back to the Royal Square and the seat recruits
    again; nothing random happened and nobody else answered."""
    table = Table(sqlite_client, ["Ana", "Bo", "Cy"], game="for_a_crown")
    seat = table.view()["awaiting_seat"]
    before = table.view()
    recruit = next(m for m in table.moves(seat) if m["type"] == "recruit" and "card" in m)
    table.play(seat, recruit)
    assert table.moves(seat)[0]["type"] == "pay"
    response = sqlite_client.post(f"/matches/{table.id}/undo", json={}, headers=auth(table.tokens[seat]))
    assert response.status_code == 200, response.get_json()
    after = table.view()
    assert after["royal_square"] == before["royal_square"] and recruit in table.moves(seat)


def test_a_backup_across_a_reveal_reshuffles_the_shared_deck():
    """A referee backup to before a reveal un-reveals cards: the shared deck is shuffled again with a fresh nonce,
    as for the other games."""
    app = memory_app()
    match, _ = app.create("for_a_crown", [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}])
    chooser = random.Random(1)
    target, revealed = None, 0
    while target is None or len(match.state["revealed"]) <= revealed:
        seat = match.game.awaiting(match.state)
        if target is None and match.state["phase"] == "reveal":
            target, revealed = match.version, len(match.state["revealed"])
        match, _ = app.play(match.id, seat, chooser.choice(match.game.legal_moves(match.state, seat)))
    backed, _ = app.back_up(match.id, target, "a misplay")
    performed = app.history(match.id)[-1]["payload"]
    assert performed["reshuffled"] and performed["reshuffled"][0]["zone"] == "shared deck"
    assert performed["random"][0]["nonce"] > 0 and backed.state["shared"] == performed["random"][0]["result"]


def test_a_backup_over_a_revealed_event_reshuffles_the_event_stack():
    """RULINGS U3: a round's end moves the Event stack's top card to the shared deck unseen; once revealed, everyone
    knows it, and a backup to before that round's end puts it back on the stack's top, so the stack is shuffled again
    and no one knows the next Event."""
    app = memory_app()
    for attempt in range(10):  # a match (its seed is random) that reveals the Event a round's end moved, before it ends
        match, _ = app.create("for_a_crown", [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}])
        chooser = random.Random(attempt)
        starts, moved, seen = [], None, False
        while not seen and not match.finished:
            starts.append(match.version)
            seat = match.game.awaiting(match.state)
            match, recorded = app.play(match.id, seat, chooser.choice(match.game.legal_moves(match.state, seat)))
            for event in recorded:
                if event["type"] == "RoundEnded" and moved is None:
                    moved, target = event["payload"]["event"], starts[-1]
                seen = seen or (event["type"] == "CardRevealed" and event["payload"]["card"] == moved)
        if seen:
            break
    assert seen
    backed, _ = app.back_up(match.id, target, "a misplay")
    performed = app.history(match.id)[-1]["payload"]
    zones = [z["zone"] for z in performed["reshuffled"]]
    assert "Event stack" in zones and moved in backed.state["event_stack"]
    assert backed.state["event_stack"] == performed["random"][zones.index("Event stack")]["result"]


def test_a_referee_brings_the_printed_board_and_cards_and_a_broken_one_is_refused(sqlite_client):
    """RULINGS F1: the provisional Gallery and card list give way to a referee's printed ones through the match
    options "board" and "cards"; the view says which are provisional; a broken file is refused (422) with its reason."""
    board = json.loads((DATA / "board.json").read_text())
    board.update(provisional=False, gallery={"spaces": 11, "start": 8, "sections": [[0, 3], [4, 7], [8, 10]],
                                             "scandal": [3, 1, 0]})
    cards = json.loads((DATA / "cards.json").read_text())
    cards["provisional"] = False
    cards["mercenaries"][0]["name"] = "Royal Treasurer"
    created = sqlite_client.post("/matches", json={"game": "for_a_crown", "players": ["Ana", "Bo", "Cy"],
                                                   "options": {"board": board, "cards": cards}})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    view = sqlite_client.get(f"/matches/{body['match_id']}/view", headers=auth(body["seats"][0]["token"])).get_json()
    assert view["provisional"] == {"cards": False, "board": False}
    assert len(view["gallery"]["spaces"]) == 11 and [view["gallery"]["spaces"][s] for s in (8, 7, 6)].count(None) == 0
    assert view["royal_square"][0]["face_up"][0]["name"] == "Royal Treasurer"
    default = Table(sqlite_client, ["Ana", "Bo", "Cy"], game="for_a_crown").view()
    assert default["provisional"] == {"cards": True, "board": True}
    listed = len(sqlite_client.get("/matches").get_json())
    board["gallery"]["sections"] = [[0, 3], [5, 7], [8, 10]]
    refused = sqlite_client.post("/matches", json={"game": "for_a_crown", "players": ["Ana", "Bo", "Cy"],
                                                   "options": {"board": board}})
    assert_problem(refused, 422)
    assert "the three sections must cover the Gallery" in refused.get_json()["detail"]
    assert len(sqlite_client.get("/matches").get_json()) == listed
