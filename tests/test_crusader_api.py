"""Crusader Kingdoms through the HTTP API: whole matches picked from GET /legal-moves of the awaited seat."""
from __future__ import annotations

import random

from tests.helpers.api import Table, play_through


def test_a_three_player_match_is_played_to_its_end(client):
    """Saladin, Jerusalem and Antioch play a whole match over HTTP; it ends with winners and a revealed seed."""
    table = Table(client, ["Saladin", "Baldwin", "Raymond"], game="crusader_kingdoms")
    first = table.view(table.tokens[1])
    assert first["mode"] == "three" and first["kingdoms"][0]["name"] == "Saladin"
    assert "hand" in first["kingdoms"][1] and "hand" not in first["kingdoms"][0]
    assert "draw_piles" not in first and "draw_piles" in table.view()
    chooser = random.Random(3)
    play_through(table, 3, chooser.choice)
    final = table.view()
    assert final["winners"] and final["result"]["reason"] in ("turn3", "sudden")
    log = table.get("/events", table.tokens[0]).get_json()["events"]
    assert [e["type"] for e in log[-2:]] == ["MatchFinished", "SeedRevealed"]
    timeline = table.get("/timeline", table.tokens[0]).get_json()
    assert all(entry["summary"] for entry in timeline)
    assert client.get(f"/matches/{table.id}").get_json()["status"] == "finished"


def test_a_solo_match_where_the_automated_muslims_attack(client):
    """The 1st Crusade plays alone; the Muslims' rounds (and their army's attacks) run inside the player's moves."""
    for _ in range(3):
        table = Table(client, ["Godfrey"], game="crusader_kingdoms")
        assert table.view()["mode"] == "solo"

        def pick(moves):
            return {"type": "pass"} if {"type": "pass"} in moves else moves[0]

        events = play_through(table, 1, pick)
        attacks = [e for e in events if e["type"] == "AttackDeclared" and "army" in e["payload"]]
        if attacks:
            break
    assert attacks, "the automated Muslims attacked"
    attack = attacks[0]["payload"]
    assert attack["seat"] == 1 and attack["defender"] == 0
    rolled = [e for e in events if e["type"] == "ArmyRolled"]
    assert rolled and all(e["payload"]["random"][0]["kind"] == "dice" for e in rolled)
    final = table.view(table.tokens[0])
    assert final["result"]["level"] in ("victory", "marginal_victory", "defeat")
    assert "hand" not in final["kingdoms"][1] and "army" in final["kingdoms"][1]
