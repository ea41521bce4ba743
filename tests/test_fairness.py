"""herald-fair-v1 end to end: seating, commitments, export, audit, the independent verifier, disputes."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest

from domain import fair
from replays import verify
from tests.helpers.api import Table, auth, export, play_to_the_end
from tests.helpers.korona import card_ids, unseen_by
from tests.helpers.logs import rechain

# Chi-square critical values at significance 0.001 (the tests fail wrongly once in a thousand seeds).
CHI2_CRITICAL_0_001 = {5: 20.515, 23: 49.728}


def chi_square(counts: Counter, categories: list, total: int) -> float:
    expected = total / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)


def test_sixty_thousand_d6_rolls_are_uniform():
    """Chi-square over 60,000 d6 rolls from one fixed seed, 5 degrees of freedom, significance 0.001."""
    rng = fair.Generator(b"\x07" * 32, "stats", ["a", "b"])
    rolls = Counter()
    for _ in range(600):
        rolls.update(rng.dice(6, 100)["result"])
    assert sum(rolls.values()) == 60_000
    assert chi_square(rolls, [1, 2, 3, 4, 5, 6], 60_000) < CHI2_CRITICAL_0_001[5]


def test_all_24_orders_of_a_four_card_shuffle_are_equally_likely():
    """Chi-square over 24,000 shuffles of 4 cards from one fixed seed, 23 degrees of freedom, significance 0.001."""
    rng = fair.Generator(b"\x09" * 32, "stats", ["c"])
    orders = Counter(tuple(rng.shuffle([0, 1, 2, 3])["result"]) for _ in range(24_000))
    assert set(orders) == set(permutations(range(4)))
    assert chi_square(orders, list(permutations(range(4))), 24_000) < CHI2_CRITICAL_0_001[23]


def test_seating_waits_for_every_client_seed_before_anything_random(client):
    """"With "await_client_seeds": true the match waits in status "seating" until each seat has posted" its seed."""
    created = client.post("/matches", json={"game": "korona", "await_client_seeds": True,
                                            "players": ["Ana", {"name": "Bo", "client_seed": "bo-seed"}]})
    assert created.status_code == 201
    body = created.get_json()
    assert body["status"] == "seating" and len(body["seed_commitment"]) == 64
    token = body["seats"][0]["token"]
    mid = body["match_id"]
    events = client.get(f"/matches/{mid}/events", headers=auth(body["referee_token"])).get_json()["events"]
    assert [e["type"] for e in events] == ["MatchCreated"]
    assert events[0]["payload"]["client_seeds"] == [None, "bo-seed"]
    moves = client.get(f"/matches/{mid}/legal-moves", headers=auth(token)).get_json()["moves"]
    assert moves == []
    bad = client.post(f"/matches/{mid}/client-seed", json={"client_seed": "no spaces"}, headers=auth(token))
    assert bad.status_code == 400
    posted = client.post(f"/matches/{mid}/client-seed", json={"client_seed": "ana-seed"}, headers=auth(token))
    assert posted.status_code == 200 and posted.get_json()["status"] == "active"
    assert posted.get_json()["client_seeds"] == ["ana-seed", "bo-seed"]
    again = client.post(f"/matches/{mid}/client-seed", json={"client_seed": "other"}, headers=auth(token))
    assert again.status_code == 422
    events = client.get(f"/matches/{mid}/events", headers=auth(body["referee_token"])).get_json()["events"]
    assert [e["type"] for e in events][:3] == ["MatchCreated", "ClientSeedSet", "DeckShuffled"]


def test_the_referee_may_start_a_seating_match(client):
    created = client.post("/matches", json={"game": "korona", "players": ["Ana", "Bo"], "await_client_seeds": True})
    body = created.get_json()
    seat_try = client.post(f"/matches/{body['match_id']}/start", headers=auth(body["seats"][0]["token"]))
    assert seat_try.status_code == 403
    started = client.post(f"/matches/{body['match_id']}/start", headers=auth(body["referee_token"]))
    assert started.status_code == 200 and started.get_json()["status"] == "active"
    assert all(started.get_json()["client_seeds"])


def test_a_finished_match_exports_and_verifies_in_a_subprocess(client, tmp_path):
    """An end-to-end match over HTTP, exported, verified by `python -m replays.verify` with receipts."""
    table = Table(client, ["Ana", "Bo", "Cy"])
    assert table.get("/export", table.tokens[0]).status_code == 403
    referee_export = export(table, table.referee)
    assert json.loads(referee_export[0]) == {"format": "herald-log-v1", "match_id": table.id, "game": "korona"}
    receipts = play_to_the_end(table, random.Random(5))
    lines = export(table, table.tokens[1])
    log = tmp_path / "match.ndjson"
    log.write_text("\n".join(lines) + "\n")
    run = subprocess.run([sys.executable, "-m", "replays.verify", str(log), "--receipt", receipts[0],
                          "--receipt", receipts[-1]], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("ok ") == 5
    audit = table.get("/audit", table.tokens[0]).get_json()
    assert audit["server_seed"] == json.loads(lines[-1])["payload"]["server_seed"]
    assert [e["nonce"] for e in audit["random"]] == list(range(len(audit["random"])))
    assert audit["chain_head"] == receipts[-1]


def test_the_verifier_imports_nothing_of_the_project():
    source = Path(verify.__file__).read_text(encoding="utf-8")
    imports = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert all(not any(pkg in line for pkg in ("domain", "service", "projections", "replays.")) for line in imports)


def test_before_the_end_seats_see_no_seed_and_no_pile_order(client):
    """The server seed is in no seat's response before the end; only the referee's audit shows it."""
    table = Table(client, ["Ana", "Bo"])
    events = table.get("/events", table.referee).get_json()["events"]
    pile = table.view()["draw_pile"]
    seed = table.get("/audit", table.referee).get_json()["server_seed"]
    assert seed and len(seed) == 64
    for token in table.tokens:
        for path in ("/view", "/events", "/audit", "/legal-moves", ""):
            text = table.get(path, token).get_data(as_text=True)
            assert seed not in text
            assert json.dumps([c["id"] for c in pile]) not in text.replace(" ", "")
        assert table.get("/audit", token).get_json()["server_seed"] is None
    assert events[0]["type"] == "MatchCreated" and "server_seed" not in json.dumps(events)


@pytest.fixture(scope="module")
def finished_log():
    """A finished match's export, played through the aggregate."""
    import uuid

    from domain.korona import GAME as KORONA
    from domain.match import Match
    from domain.matches import event_record
    from replays.export import export_lines

    match = Match.create(uuid.uuid4(), "korona", ["Ana", "Bo"], ["a1", "b2"], {}, b"\x05" * 32)
    match.start()
    chooser = random.Random(3)
    while not match.finished:
        seat = KORONA.awaiting(match.state)
        match.play(seat, chooser.choice(KORONA.legal_moves(match.state, seat)))
    events = [event_record(e) for e in match.collect_events()]
    return [json.loads(line) for line in export_lines(str(match.id), "korona", events)]


def run_verifier(rows, receipts=()) -> tuple[bool, str]:
    out = []
    ok = verify.verify([json.dumps(r) for r in rows], receipts, out.append)
    return ok, "\n".join(out)


def test_an_untouched_log_verifies(finished_log):
    ok, out = run_verifier(finished_log, [finished_log[5]["chain"]])
    assert ok, out


def first_random(rows, kind):
    return next(r for r in rows[1:] if any(e["kind"] == kind for e in r["payload"].get("random", ())))


def test_a_changed_roll_is_caught_and_named(finished_log):
    rows = json.loads(json.dumps(finished_log))
    event = first_random(rows, "choice")
    entry = event["payload"]["random"][0]
    entry["result"] = (entry["result"] + 1) % entry["n"]
    ok, out = run_verifier(rows)
    assert not ok and f"chain breaks at version {event['version']}" in out
    ok, out = run_verifier(rechain(rows))
    assert not ok and f"version {event['version']} (FirstSeatChosen)" in out and "does not recompute" in out


def test_a_changed_shuffle_is_caught(finished_log):
    rows = json.loads(json.dumps(finished_log))
    event = first_random(rows, "shuffle")
    result = event["payload"]["random"][0]["result"]
    result[0], result[1] = result[1], result[0]
    ok, out = run_verifier(rechain(rows))
    assert not ok and f"version {event['version']} (DeckShuffled)" in out


def test_a_changed_seed_is_caught(finished_log):
    rows = json.loads(json.dumps(finished_log))
    rows[-1]["payload"]["server_seed"] = "00" * 32
    ok, out = run_verifier(rechain(rows))
    assert not ok and "does not match the commitment" in out


def test_a_changed_client_seed_is_caught(finished_log):
    rows = json.loads(json.dumps(finished_log))
    rows[1]["payload"]["client_seeds"][0] = "someone-else"
    ok, out = run_verifier(rechain(rows))
    assert not ok and "(DeckShuffled)" in out and "does not recompute" in out


@pytest.mark.parametrize("tamper", ["reorder", "insert", "delete", "truncate"])
def test_reordered_inserted_deleted_or_truncated_logs_are_caught(finished_log, tamper):
    rows = json.loads(json.dumps(finished_log))
    if tamper == "reorder":
        rows[5], rows[6] = rows[6], rows[5]
    elif tamper == "insert":
        rows.insert(6, {**rows[6]})
    elif tamper == "delete":
        del rows[6]
    else:
        rows = rows[:20]
    ok, out = run_verifier(rows)
    assert not ok
    expected = "not over yet" if tamper == "truncate" else "version"
    assert expected in out


def test_a_client_seed_swapped_mid_match_is_caught(finished_log):
    """A forged ClientSeedSet changing a seat's seed after play began (so that later draws, a backup's reshuffle
    say, would recompute from it), chain rebuilt, is caught: a client seed is set once (FAIRNESS.md section 8.3)."""
    rows = json.loads(json.dumps(finished_log))
    at = 10
    rows.insert(at, {"version": 0, "type": "ClientSeedSet", "payload": {"seat": 0, "client_seed": "forged",
                                                                        "by": "server"}, "chain": ""})
    for version, row in enumerate(rows[1:], start=1):
        row["version"] = version
    ok, out = run_verifier(rechain(rows))
    assert not ok and f"version {at} (ClientSeedSet): seat 0's client seed was already set" in out


def test_random_draws_inside_match_created_are_caught(finished_log):
    rows = json.loads(json.dumps(finished_log))
    rows[1]["payload"]["random"] = [{"nonce": 0, "kind": "choice", "n": 2, "result": 0}]
    ok, out = run_verifier(rechain(rows))
    assert not ok and "version 1 (MatchCreated) holds random draws" in out


def test_a_log_cut_mid_line_names_the_line(finished_log):
    lines = [json.dumps(r) for r in finished_log]
    lines[-1] = lines[-1][:40]
    out = []
    assert not verify.verify(lines, (), out.append)
    assert out == [f"FAIL line {len(lines)} is not JSON: the log is cut or corrupted there"]


def test_herald_verify_command_checks_a_log(finished_log, tmp_path):
    """`herald verify` runs the same verifier: exit 0 on the untouched log, 1 naming the bad event otherwise."""
    log = tmp_path / "log.ndjson"
    log.write_text("\n".join(json.dumps(r) for r in finished_log) + "\n")
    command = [sys.executable, "-m", "service.cli", "verify", str(log)]
    good = subprocess.run(command, check=False, capture_output=True, text=True)
    assert good.returncode == 0 and good.stdout.count("ok ") == 4, good.stdout + good.stderr
    rows = json.loads(json.dumps(finished_log))
    rows[3]["payload"]["seat"] = 1 - rows[3]["payload"]["seat"]
    log.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    bad = subprocess.run(command, check=False, capture_output=True, text=True)
    assert bad.returncode == 1 and f"FAIL chain breaks at version {rows[3]['version']}" in bad.stdout


def test_a_receipt_not_in_the_log_is_caught(finished_log):
    ok, out = run_verifier(finished_log, ["ab" * 32])
    assert not ok and "receipt" in out


def test_disputes_show_evidence_and_record_rulings(client):
    """A seat disputes the first-seat draw; the referee sees every HMAC block and rules on it."""
    table = Table(client, ["Ana", "Bo"])
    events = table.get("/events", table.referee).get_json()["events"]
    chosen = next(e for e in events if e["type"] == "FirstSeatChosen")
    opened = client.post(f"/matches/{table.id}/disputes", json={"version": chosen["version"], "claim": "not random"},
                         headers=auth(table.tokens[0]))
    assert opened.status_code == 201
    dispute = opened.get_json()
    assert dispute["evidence"]["random"] == chosen["payload"]["random"]
    assert "server_seed" not in dispute["evidence"]
    referee = client.get(f"/matches/{table.id}/disputes/{dispute['dispute_id']}", headers=auth(table.referee))
    trace = referee.get_json()["evidence"]["recomputation"][0]
    assert trace["matches"] and trace["blocks"][0]["round"] == 0 and trace["samples"][-1]["accepted"]
    assert client.get(f"/matches/{table.id}/disputes", headers=auth(table.tokens[1])).get_json() == []
    assert client.get(f"/matches/{table.id}/disputes/{dispute['dispute_id']}",
                      headers=auth(table.tokens[1])).status_code == 404
    seat_ruling = client.post(f"/matches/{table.id}/disputes/{dispute['dispute_id']}/ruling",
                              json={"ruling": "upheld", "explanation": "x"}, headers=auth(table.tokens[0]))
    assert seat_ruling.status_code == 403
    ruled = client.post(f"/matches/{table.id}/disputes/{dispute['dispute_id']}/ruling",
                        json={"ruling": "rejected", "explanation": "the draw recomputes from the seed"},
                        headers=auth(table.referee))
    assert ruled.status_code == 200 and ruled.get_json()["ruling"] == "rejected"
    listed = client.get(f"/matches/{table.id}/disputes", headers=auth(table.tokens[0])).get_json()
    assert listed[0]["ruling"] == "rejected"
    log = [e["type"] for e in table.get("/events", table.referee).get_json()["events"]]
    assert log[-2:] == ["DisputeOpened", "DisputeRuled"]
    assert client.post(f"/matches/{table.id}/disputes", json={"version": 999, "claim": "x"},
                       headers=auth(table.tokens[0])).status_code == 422


def test_a_ruling_whose_remedy_is_a_backup_performs_it_or_records_nothing(client):
    """A dispute upheld with a backup remedy records DisputeRuled and BackupPerformed together; a backup the
    referee may not make (into the middle of a move) is refused with 422 and the ruling is not recorded either."""
    table = Table(client, ["Ana", "Bo"])
    seat = table.view()["awaiting_seat"]
    before_draw = table.version()
    table.play(seat, {"type": "draw", "source": "pile"})
    opened = client.post(f"/matches/{table.id}/disputes", json={"version": before_draw + 1, "claim": "drew blind"},
                         headers=auth(table.tokens[1 - seat])).get_json()
    ruling = f"/matches/{table.id}/disputes/{opened['dispute_id']}/ruling"
    version = table.version()
    refused = client.post(ruling, json={"ruling": "upheld", "explanation": "redo", "remedy": "back up",
                                        "backup_to": 2}, headers=auth(table.referee))
    assert refused.status_code == 422 and "middle of a move" in refused.get_json()["detail"]
    assert table.version() == version
    ruled = client.post(ruling, json={"ruling": "upheld", "explanation": "the draw was out of order",
                                      "remedy": "back up before the draw", "backup_to": before_draw},
                        headers=auth(table.referee))
    assert ruled.status_code == 200, ruled.get_json()
    assert ruled.get_json()["ruling"] == "upheld"
    log = table.get("/events", table.referee).get_json()["events"]
    assert [e["type"] for e in log[-2:]] == ["DisputeRuled", "BackupPerformed"]
    assert log[-1]["payload"]["to_version"] == before_draw
    assert table.view()["players"][seat]["hand_count"] == 5


def test_trace_shows_rejected_samples():
    """The vector whose first 4 bytes are rejected shows a rejected sample in the recomputation."""
    vectors = json.loads((Path(__file__).parent / "data" / "herald-fair-v1.json").read_text())["random"]
    vector = next(v for v in vectors if v.get("note") == "first 4 bytes rejected")
    trace = fair.trace(bytes.fromhex(vector["server_seed"]), vector["match_id"], vector["client_seeds"], vector)
    assert trace["matches"]
    assert trace["samples"][0]["accepted"] is False and trace["samples"][1]["accepted"] is True


def test_no_seat_response_leaks_the_seed_pile_or_another_hand_during_a_playout(sqlite_client):
    """Across a whole match, no response to a seat holds the server seed, a pile card or another seat's unseen hand
    card: every endpoint a seat can call, scanned every few moves and after a take-back, a referee's resolution and
    a referee's backup, each disputed by a seat (the dispute's evidence shows the disputed event as the seat may)."""
    
    client = sqlite_client
    table = Table(client, ["Ana", "Bo", "Cy"])
    seed = table.get("/audit", table.referee).get_json()["server_seed"]
    chooser = random.Random(21)
    paths = ["/view", "/events", "/audit", "/legal-moves", "/timeline", "/disputes", "/undo-requests", ""]
    answers = []  # (seat, what) of every POST a seat made, scanned with the GETs

    def scan():
        referee = table.view()
        if referee["status"] == "finished":  # the seed and every card are public once the match is over
            return
        log = [(e["type"], e["payload"]) for e in table.get("/events", table.referee).get_json()["events"]]
        hands = [[c["id"] for c in p["hand"]] for p in referee["players"]]
        for seat, token in enumerate(table.tokens):
            hidden = unseen_by(seat, log, [c["id"] for c in referee["draw_pile"]], hands)
            disputes = [f"/disputes/{d['dispute_id']}" for d in table.get("/disputes", token).get_json()]
            shown = [table.get(path, token) for path in [*paths, *disputes, f"/replay?version={referee['version']}"]]
            for body in [r.get_json() for r in shown] + [what for who, what in answers if who == seat]:
                assert seed not in json.dumps(body)
                leaked = card_ids(body) & hidden
                assert not leaked, (seat, leaked, [e for e in body.get("events", []) if card_ids(e) & leaked][:3] if isinstance(body, dict) else body)

    def dispute(seat: int, version: int) -> None:
        opened = client.post(f"/matches/{table.id}/disputes", json={"version": version, "claim": "check this"},
                             headers=auth(table.tokens[seat]))
        assert opened.status_code == 201
        answers.append((seat, opened.get_json()))

    draws, done = [], set()
    for step in range(10_000):
        referee = table.view()
        if referee["status"] == "finished":
            break
        before = len(done)
        seat = referee["awaiting_seat"]
        move = chooser.choice(table.moves(seat))
        if move == {"type": "draw", "source": "pile"}:
            draws.append(referee["version"])
        if step >= 20 and "resolve" not in done:
            done.add("resolve")
            resolved = client.post(f"/matches/{table.id}/moves", json={**move, "resolve_for": seat, "reason": "a test"},
                                   headers=auth(table.referee))
            assert resolved.status_code == 200, resolved.get_json()
            dispute(seat, resolved.get_json()["version"])
        else:
            table.play(seat, move)
        after = table.view() if move["type"] == "place" and "take back" not in done else {}
        if after and after["status"] == "active" and after["current_seat"] == seat == referee["current_seat"]:
            taken = client.post(f"/matches/{table.id}/undo", json={}, headers=auth(table.tokens[seat]))
            if taken.status_code == 200:  # refused when someone answered (a Swap's target), tried again later
                done.add("take back")
                answers.append((seat, taken.get_json()))
                dispute(seat, taken.get_json()["version"])
            else:
                assert taken.status_code == 422 and table.view() == after
        if step >= 30 and "backup" not in done and move == {"type": "draw", "source": "pile"}:
            done.add("backup")
            backed = client.post(f"/matches/{table.id}/undo", json={"to_version": draws[-1], "reason": "misdeal"},
                                 headers=auth(table.referee))
            assert backed.status_code == 200, backed.get_json()
            assert backed.get_json()["events"][0]["payload"]["reshuffled"]
            dispute((seat + 1) % 3, backed.get_json()["version"])
        if step % 9 == 0 or len(done) > before:
            scan()
    assert done == {"resolve", "take back", "backup"}
