"""Kingdom TCG through the HTTP API: a match between two decklists from the catalogue played to its end from GET
/legal-moves, its export verified and audited, no hand or deck order shown to the other seat,
a backup that reshuffles a strategy deck a draw was undone from, and a card seen by mistake recorded by the referee."""
from __future__ import annotations

import json
import random
import subprocess
import sys

from domain.kingdom_tcg import GAME as KINGDOM_TCG
from domain.kingdom_tcg.data import DATA, default_decklists
from replays import verify
from replays.referee import rereferee
from tests.helpers.api import Table, assert_problem, auth, export, play_through
from tests.helpers.kingdom_tcg import onward
from tests.helpers.stores import memory_app

VIEW_KEYS = {"game", "status", "turn", "stage", "window", "awaiting_seat", "winner", "stack", "battlefield", "players"}
PLAYER_KEYS = {"seat", "name", "coronado", "deck_count", "hand_count", "used", "pit", "names_used_this_turn"}


def test_a_whole_match_over_http_verifies_audits_and_hides_hands(sqlite_client, tmp_path):
    table = Table(sqlite_client, ["Ana", "Bo"], game="kingdom_tcg")
    first = table.view(table.tokens[0])
    assert VIEW_KEYS <= set(first) and all(PLAYER_KEYS <= set(p) for p in first["players"])
    assert "hand" in first["players"][0] and "hand" not in first["players"][1]
    events = play_through(table, 2, random.Random(3).choice)
    final = table.view()
    assert final["status"] == "finished" and final["winners"] == ([final["winner"]] if final["winner"] is not None
                                                                  else [])
    lines = export(table, table.tokens[0])
    checks = []
    assert verify.verify(lines, (), checks.append), checks
    assert rereferee(lines).chain == final["chain_head"]
    (tmp_path / "match.ndjson").write_text("\n".join(lines) + "\n")
    audited = subprocess.run([sys.executable, "-m", "service.cli", "audit", str(tmp_path / "match.ndjson")],
                             capture_output=True, text=True, check=False)
    assert audited.returncode == 0 and f"under {KINGDOM_TCG.rules}" in audited.stdout, audited.stdout + audited.stderr
    assert any(e["type"] == "CardActivated" for e in events) and any(e["type"] == "DiceRolled" for e in events)
    timeline = [entry["summary"] for entry in table.get("/timeline", table.tokens[0]).get_json()]
    assert timeline[0] == "Ana and Bo sat down to play Kingdom TCG."
    assert any(line.startswith("The match ended with ") for line in timeline[-3:])


def test_no_view_or_log_shows_a_hand_or_a_deck_order_to_the_other_seat(sqlite_client):
    table = Table(sqlite_client, ["Ana", "Bo"], game="kingdom_tcg")
    for _ in range(40):
        seat = table.view()["awaiting_seat"]
        table.play(seat, onward(table.moves(seat)))
    for viewer in (0, 1):
        log = table.get("/events", table.tokens[viewer]).get_json()["events"]
        for event in log:
            payload = event["payload"]
            if event["type"] == "CardsDrawn" and payload["seat"] != viewer:
                assert "cards" not in payload
            if event["type"] == "StrategyDeckShuffled":
                assert payload["random"][0]["result"] is None
        shown = table.view(table.tokens[viewer])["players"][1 - viewer]
        assert not {"hand", "deck", "reserve"} & set(shown)
    spectator = sqlite_client.get(f"/matches/{table.id}/spectator-view").get_json()
    assert all(not {"hand", "deck", "reserve"} & set(p) for p in spectator["players"])


def test_a_backup_over_a_draw_reshuffles_that_strategy_deck():
    """A referee backup to before a turn's draw: the cards drawn go back and the deck is shuffled again (RULINGS KT7)."""
    app = memory_app()
    match, _ = app.create("kingdom_tcg", [{"name": "Ana"}, {"name": "Bo"}],
                          options={"decklists": default_decklists()})
    chooser = random.Random(5)
    target, drawn = None, False
    while not drawn:
        seat = match.game.awaiting(match.state)
        if target is None and match.state["turn"] == 2:
            target = match.version
        match, recorded = app.play(match.id, seat, chooser.choice(match.game.legal_moves(match.state, seat)))
        drawn = target is not None and any(e["type"] == "CardsDrawn" and e["payload"]["count"] for e in recorded)
    app.back_up(match.id, target, "a misplay")
    performed = app.history(match.id)[-1]["payload"]
    assert performed["reshuffled"] and "strategy deck" in performed["reshuffled"][0]["zone"]
    assert performed["random"][0]["nonce"] > 0


def test_a_backup_over_a_deck_card_seen_by_mistake_reshuffles_that_deck():
    """RULINGS KT7: the deck's top card recorded as seen by mistake went face up to the used pile in everyone's sight;
    a backup to before the record puts it back in the deck, which is shuffled again, so its place is unknown (a card
    of the hand seen by mistake goes back to a hand, which has no order: nothing is shuffled for it, unless the steps
    the rules took alone after it drew)."""
    app = memory_app()
    match, _ = app.create("kingdom_tcg", [{"name": "Ana"}, {"name": "Bo"}])
    before = match.version
    app.play(match.id, 1, {"type": "mistake", "source": "deck"}, by_referee=True)
    app.back_up(match.id, before, "recorded by error")
    performed = app.history(match.id)[-1]["payload"]
    assert performed["reshuffled"] == [{"zone": "Bo's strategy deck", "cards": len(match.state["players"][1]["deck"])}]
    assert app.load(match.id).state["players"][1]["deck"] == performed["random"][0]["result"]
    in_hand = app.load(match.id).state["players"][1]["hand"][0]
    before = app.load(match.id).version
    app.play(match.id, 1, {"type": "mistake", "card": in_hand}, by_referee=True)
    app.back_up(match.id, before, "recorded by error")
    log = app.history(match.id)
    drew = any(e["type"] == "CardsDrawn" and e["payload"]["count"] for e in log[before:-1])  # the steps that follow
    assert bool(log[-1]["payload"]["reshuffled"]) == drew


def test_the_referee_records_a_card_seen_by_mistake(sqlite_client):
    """3.1: "En caso de que una carta del mazo de estrategia sea robada o vista por error, deberá ser instantáneamente
    descartada sin poder utilizarla." The referee records it for a seat (RULINGS KT7): the deck's top card, or a card of
    the hand, goes face up to the used pile, unused; a seat cannot record it itself."""
    table = Table(sqlite_client, ["Ana", "Bo"], game="kingdom_tcg")
    before = table.view(table.referee)["players"][1]
    top = before["deck"][0]["id"]
    response = sqlite_client.post(f"/matches/{table.id}/moves", json={"type": "mistake", "source": "deck",
                                                                      "resolve_for": 1}, headers=auth(table.referee))
    assert response.status_code == 200, response.get_json()
    assert [e["type"] for e in response.get_json()["events"]] == ["RefereeResolved", "CardsDiscarded"]
    after = table.view(table.referee)["players"][1]
    assert after["deck_count"] == before["deck_count"] - 1 and after["used"][-1]["id"] == top
    in_hand = after["hand"][0]["id"]
    response = sqlite_client.post(f"/matches/{table.id}/moves", json={"type": "mistake", "card": in_hand,
                                                                      "resolve_for": 1}, headers=auth(table.referee))
    assert response.status_code == 200, response.get_json()
    events = response.get_json()["events"]
    assert events[1]["payload"] == {"seat": 1, "cards": [in_hand], "reason": "mistake"}
    # Holding nothing usable, both may pass at once (RULINGS KT3) and the seat draw in its next stage.
    drawn = sum(e["payload"]["count"] for e in events if e["type"] == "CardsDrawn" and e["payload"]["seat"] == 1)
    now = table.view(table.referee)["players"][1]
    assert now["hand_count"] == after["hand_count"] - 1 + drawn and now["used"][-1]["id"] == in_hand
    assert in_hand not in [card["id"] for card in now["hand"]]
    seat = table.view()["awaiting_seat"]
    refused = table.post({"type": "mistake", "source": "deck"}, table.tokens[seat])
    assert_problem(refused, 422)
    timeline = [entry["summary"] for entry in table.get("/timeline", table.tokens[0]).get_json()]
    assert any(line.endswith("drawn or seen by mistake.") for line in timeline)


def test_a_referee_brings_the_printed_cards_and_rules_and_a_broken_file_is_refused(sqlite_client):
    """RULINGS KT2 and KT6: the provisional base game and card effects give way to a referee's through the match
    options "board" and "cards"; the view says which are provisional; a broken file is refused (422) with its
    reason."""
    board = json.loads((DATA / "board.json").read_text())
    board.update(provisional=False, rows=9, turn_limit=40)
    cards = json.loads((DATA / "cards.json").read_text())
    cards["provisional"] = False
    created = sqlite_client.post("/matches", json={"game": "kingdom_tcg", "players": ["Ana", "Bo"],
                                                   "options": {"board": board, "cards": cards}})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    view = sqlite_client.get(f"/matches/{body['match_id']}/view", headers=auth(body["seats"][0]["token"])).get_json()
    assert view["provisional"] == {"cards": False, "board": False} and view["battlefield"]["rows"] == 9
    default = Table(sqlite_client, ["Ana", "Bo"], game="kingdom_tcg").view()
    assert default["provisional"] == {"cards": True, "board": True}
    assert [s["space"] for s in default["battlefield"]["spaces"]] == [[0, 2], [6, 2]]  # the Coronados
    board["home_rows"] = [0, 12]
    refused = sqlite_client.post("/matches", json={"game": "kingdom_tcg", "players": ["Ana", "Bo"],
                                                   "options": {"board": board}})
    assert_problem(refused, 422)
    assert "the home rows and the Coronados' column must lie on the battlefield" in refused.get_json()["detail"]
