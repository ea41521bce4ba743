"""Crusader Kingdoms through the platform: export and verify, import, disputes over dice, replay, take-back, backup."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from tests.helpers.api import Table, auth, export, play_through
from tests.helpers.stores import second_server


def to_the_first(table: Table, players: int, kind: str, chooser: random.Random) -> tuple[dict, int]:
    """Play random legal moves until an event of that kind is in a response; return it and the version before
    that move."""
    for _ in range(3000):
        seat = table.view()["awaiting_seat"]
        events = table.play(seat, chooser.choice(table.moves(seat)))["events"]
        found = [e for e in events if e["type"] == kind]
        if found:
            return found[0], events[0]["version"] - 1
    raise AssertionError(f"no {kind} in 3000 moves")


@pytest.fixture
def finished(client):
    """A finished 3-player match and its seat-exported log."""
    table = Table(client, ["Saladin", "Baldwin", "Raymond"], game="crusader_kingdoms")
    play_through(table, 3, random.Random(21).choice)
    return table, export(table, table.tokens[2])


def test_every_combat_die_verifies_offline(finished, tmp_path):
    """"every die is a `dice` draw of herald-fair-v1 recorded in its event": the stdlib verifier recomputes them."""
    _, lines = finished
    rolls = [json.loads(line) for line in lines[1:] if json.loads(line)["type"] == "DiceRolled"]
    assert rolls and all(e["payload"]["random"][0]["kind"] == "dice" for e in rolls if e["payload"]["count"])
    log = tmp_path / "ck.ndjson"
    log.write_text("\n".join(lines) + "\n")
    run = subprocess.run([sys.executable, "-m", "replays.verify", str(log)], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    tampered = [json.loads(line) for line in lines]
    row = next(r for r in tampered[1:] if r["type"] == "DiceRolled" and r["payload"]["count"])
    entry = row["payload"]["random"][0]
    entry["result"] = [7 - d for d in entry["result"]]
    log.write_text("\n".join(json.dumps(r) for r in tampered) + "\n")
    run = subprocess.run([sys.executable, "-m", "replays.verify", str(log)], capture_output=True, text=True,
                         check=False)
    assert run.returncode != 0 and f"version {row['version']}" in run.stdout + run.stderr


def test_an_import_re_referees_a_crusader_match(finished, tmp_path):
    """An imported Crusader Kingdoms log yields the same views, chain head and audit bundle on another server."""
    table, lines = finished
    with second_server(tmp_path) as (other, _):
        imported = other.post("/matches/import", data="\n".join(lines), headers=auth("admin-secret"))
        assert imported.status_code == 201, imported.get_json()
        body = imported.get_json()
        theirs = other.get(f"/matches/{table.id}/view", headers=auth(body["referee_token"])).get_json()
        assert theirs == table.view()
        audit = other.get(f"/matches/{table.id}/audit", headers=auth(body["referee_token"])).get_json()
        assert audit == table.get("/audit", table.referee).get_json()


def test_a_seat_disputes_a_combat_roll(client):
    """A disputed combat roll shows its evidence; the referee's recomputation from the seed matches it."""
    table = Table(client, ["Saladin", "Baldwin", "Raymond"], game="crusader_kingdoms")
    rolled, _ = to_the_first(table, 3, "DiceRolled", random.Random(4))
    version = rolled["version"]
    opened = client.post(f"/matches/{table.id}/disputes", json={"version": version, "claim": "too many ones"},
                         headers=auth(table.tokens[1]))
    assert opened.status_code == 201
    dispute = opened.get_json()
    assert dispute["evidence"]["random"] == rolled["payload"]["random"] and "server_seed" not in dispute["evidence"]
    seen = client.get(f"/matches/{table.id}/disputes/{dispute['dispute_id']}", headers=auth(table.referee))
    recomputed = seen.get_json()["evidence"]["recomputation"][0]
    assert recomputed["matches"] and recomputed["result"] == rolled["payload"]["random"][0]["result"]


def test_a_seat_replays_only_its_own_hand(client):
    """Replay at a past version shows a seat its own hand then and only the size of the others'."""
    table = Table(client, ["Saladin", "Baldwin", "Raymond"], game="crusader_kingdoms")
    version = table.version()
    mine = table.get(f"/replay?version={version}", table.tokens[1]).get_json()
    assert mine["version"] == version and "hand" in mine["kingdoms"][1]
    assert all("hand" not in mine["kingdoms"][k] for k in (0, 2))
    assert table.get(f"/replay?version={version}", table.referee).get_json()["kingdoms"][0]["hand"]


def test_a_seat_takes_back_an_attack_before_anyone_responds(client):
    """An attack declared and a troop committed face down, taken back before the responses, leave the state as it
    was; a discard, which ends the round, cannot be taken back (docs/RULINGS.md U1)."""
    table = Table(client, ["Saladin", "Baldwin", "Raymond"], game="crusader_kingdoms")
    seat = table.view()["awaiting_seat"]
    before = table.view()
    table.play(seat, next(m for m in table.moves(seat) if m["type"] == "attack"))
    table.play(seat, next(m for m in table.moves(seat) if m["type"] == "commit"))
    taken = client.post(f"/matches/{table.id}/undo", json={}, headers=auth(table.tokens[seat]))
    assert taken.status_code == 200, taken.get_json()
    assert taken.get_json()["events"][-1]["type"] == "ActionsRetracted"
    after = table.view()
    assert {k: v for k, v in after.items() if k not in ("version", "chain_head")} == \
        {k: v for k, v in before.items() if k not in ("version", "chain_head")}
    table.play(seat, next(m for m in table.moves(seat) if m["type"] == "discard"))
    refused = client.post(f"/matches/{table.id}/undo", json={}, headers=auth(table.tokens[seat]))
    assert refused.status_code == 422 and "your own turn" in refused.get_json()["detail"]


def test_a_referee_backup_over_a_roll_never_reuses_it(client):
    """A backup over a combat roll restores the state before it; replaying the attack rolls with a new nonce."""
    table = Table(client, ["Saladin", "Baldwin", "Raymond"], game="crusader_kingdoms")
    rolled, target = to_the_first(table, 3, "DiceRolled", random.Random(9))
    before = table.get(f"/replay?version={target}", table.referee).get_json()
    backed = client.post(f"/matches/{table.id}/undo", json={"to_version": target, "reason": "wrong area attacked"},
                         headers=auth(table.referee))
    assert backed.status_code == 200, backed.get_json()
    assert backed.get_json()["events"][-1]["type"] == "BackupPerformed"
    now = table.view()
    assert now["kingdoms"] == before["kingdoms"] and now["map"] == before["map"] and now["attack"] == before["attack"]
    seat = now["awaiting_seat"]
    nonce = rolled["payload"]["random"][0]["nonce"]
    chooser = random.Random(1)
    for _ in range(200):
        events = table.play(seat, chooser.choice(table.moves(seat)))["events"]
        again = [e for e in events if e["payload"].get("random")]
        if again:
            assert all(r["nonce"] > nonce for e in again for r in e["payload"]["random"])
            break
        seat = table.view()["awaiting_seat"]
    timeline = table.get("/timeline", table.referee).get_json()
    assert any(entry["retracted"] for entry in timeline if entry["version"] == rolled["version"])
    assert timeline[0]["summary"] == "Saladin, Baldwin and Raymond sat down to play Crusader Kingdoms."


def test_bad_map_options_are_refused_and_custom_decks_accepted(client):
    """A referee may start a match with its own map or decks; a broken one is refused with the reason, storing nothing."""
    bad = {"name": "x", "areas": [{"id": 1, "name": "A", "defence": 1, "adjacent": [2]},
                                  {"id": 2, "name": "B", "defence": 1, "adjacent": []}], "setups": {}}
    refused = client.post("/matches", json={"game": "crusader_kingdoms", "players": ["a", "b", "c"],
                                            "options": {"map": bad}})
    assert refused.status_code == 422
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert "borders 2 but not the other way round" in refused.get_json()["detail"]
    decks = {"christian": [{"name": "Knight", "effect": "troop", "value": 2, "count": 40}],
             "muslim": [{"name": "Mamluk", "effect": "troop", "value": 3, "count": 40}]}
    created = client.post("/matches", json={"game": "crusader_kingdoms", "players": ["a", "b", "c"],
                                            "options": {"decks": decks}})
    assert created.status_code == 201
    body = created.get_json()
    view = client.get(f"/matches/{body['match_id']}/view", headers=auth(body["seats"][0]["token"])).get_json()
    assert {c["name"] for c in view["kingdoms"][0]["hand"]} == {"Mamluk"}


# events whose cards only their own seat may see: draws, face-down commitments and discards, stolen cards, shuffles
SECRET_EVENTS = {"CardsDrawn", "CardCommitted", "ResponsePlaced", "CardDiscarded", "RandomCardDiscarded",
                 "CardTaken", "DeckShuffled", "DeckReshuffled"}


def test_no_seat_response_leaks_the_seed_a_pile_a_discard_or_another_hand(sqlite_client):
    """Across a whole 3-player match, no response to a seat holds the server seed, a card of a draw pile or of
    the face-down discards, or another seat's hand card that was never shown (every endpoint a seat can call)."""
    from tests.helpers.crusader import ids_in

    table = Table(sqlite_client, ["Saladin", "Baldwin", "Raymond"], game="crusader_kingdoms")
    seed = table.get("/audit", table.referee).get_json()["server_seed"]
    chooser = random.Random(5)
    paths = ["/view", "/events", "/audit", "/legal-moves", "/timeline", "/disputes", "/undo-requests", ""]
    for step in range(3000):
        referee = table.view()
        if referee["status"] == "finished":
            break
        if step % 7 == 0:
            log = table.get("/events", table.referee).get_json()["events"][1:]
            public = set().union(*(ids_in(e["payload"]) for e in log if e["type"] not in SECRET_EVENTS))
            hidden = {c["id"] for deck in ("christian", "muslim")
                      for c in referee["draw_piles"][deck] + referee["discard_piles"][deck]}
            for seat, token in enumerate(table.tokens):
                own = set().union(*(ids_in(e["payload"]) for e in log if seat in (e["payload"].get("seat"),
                                                                                    e["payload"].get("from"))))
                others = {c["id"] for k in referee["kingdoms"] if k["seat"] != seat for c in k["hand"]}
                secret = (hidden | others) - public - own
                for path in [*paths, f"/replay?version={referee['version']}"]:
                    response = table.get(path, token)
                    assert seed not in response.get_data(as_text=True), path
                    assert not ids_in(response.get_json()) & secret, (path, seat)
        seat = referee["awaiting_seat"]
        table.play(seat, chooser.choice(table.moves(seat)))
    assert table.view()["status"] == "finished"
