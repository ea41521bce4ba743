"""Re-refereeing logs: import over HTTP and the offline `herald audit` and `herald replay` commands."""
from __future__ import annotations

import json
import random
import subprocess
import sys
import uuid

import pytest

from domain.korona import GAME as KORONA
from domain.match import Match
from domain.matches import event_record
from replays.export import export_lines
from replays.referee import Rejected, rereferee
from tests.helpers.api import Table, auth, export, play_to_the_end
from tests.helpers.logs import lines_of, rechain, rows
from tests.helpers.stores import second_server


@pytest.fixture(scope="module")
def log_lines() -> list[str]:
    match = Match.create(uuid.uuid4(), "korona", ["Ana", "Bo", "Cy"], ["a", "b", "c"], {}, b"\x03" * 32)
    match.start()
    chooser = random.Random(11)
    while not match.finished:
        seat = KORONA.awaiting(match.state)
        match.play(seat, chooser.choice(KORONA.legal_moves(match.state, seat)))
    return export_lines(str(match.id), "korona", [event_record(e) for e in match.collect_events()])


def test_an_http_match_round_trips_through_import(client, tmp_path):
    """An accepted import "yields identical views, chain head and audit bundle"."""
    table = Table(client, ["Ana", "Bo"])
    play_to_the_end(table, random.Random(8))
    lines = export(table, table.referee)
    conflict = client.post("/matches/import", data="\n".join(lines), headers=auth(table.referee))
    assert conflict.status_code == 409
    with second_server(tmp_path) as (other, _):
        assert other.post("/matches/import", data="\n".join(lines), headers=auth("wrong")).status_code == 401
        imported = other.post("/matches/import", data="\n".join(lines), headers=auth("admin-secret"))
        assert imported.status_code == 201, imported.get_json()
        body = imported.get_json()
        assert body["match_id"] == table.id
        mine = table.view()
        theirs = other.get(f"/matches/{table.id}/view", headers=auth(body["referee_token"])).get_json()
        assert theirs == mine
        seat_view = other.get(f"/matches/{table.id}/view", headers=auth(body["seats"][1]["token"])).get_json()
        assert seat_view == table.view(table.tokens[1])
        audit = other.get(f"/matches/{table.id}/audit", headers=auth(body["referee_token"])).get_json()
        assert audit == table.get("/audit", table.referee).get_json()


def test_a_log_re_referees_to_the_same_chain(log_lines):
    match = rereferee(log_lines)
    assert match.chain == json.loads(log_lines[-1])["chain"]
    assert match.finished


def test_a_log_with_the_referees_default_resolutions_re_referees_to_the_same_chain():
    """The referee's {"type": "default"} for a stalled seat is recorded as RefereeResolved with the move it stood for
    and "default": true; re-refereeing asks for the default again, so the log follows to its end (it was refused at
    the first such event: a resolution of the move itself records "default": false)."""
    match = Match.create(uuid.uuid4(), "korona", ["Ana", "Bo", "Cy"], ["a", "b", "c"], {}, b"\x05" * 32)
    match.start()
    chooser = random.Random(12)
    while not match.finished:
        seat = KORONA.awaiting(match.state)
        if match.version % 7 == 0:
            match.resolve(seat, {"type": "default"})
        else:
            match.play(seat, chooser.choice(KORONA.legal_moves(match.state, seat)))
    events = [event_record(e) for e in match.collect_events()]
    assert any(e["type"] == "RefereeResolved" and e["payload"]["default"] for e in events)
    assert rereferee(export_lines(str(match.id), "korona", events)).chain == match.chain


@pytest.mark.parametrize("options", [{"decklists": None}, {"decklists": {}}, {"catalogue": None}])
def test_a_log_whose_options_are_left_empty_re_referees(options):
    """A Kingdom TCG option left empty (null, or an empty value for the decklists) stands for the game's own file or
    decklists, as when the match was created: its log re-referees to the same chain."""
    match = Match.create(uuid.uuid4(), "kingdom_tcg", ["Ana", "Bo"], ["a", "b"], {}, b"\x06" * 32, options)
    match.start()
    chooser = random.Random(13)
    while not match.finished:
        seat = match.game.awaiting(match.state)
        match.play(seat, chooser.choice(match.game.legal_moves(match.state, seat)))
    events = [event_record(e) for e in match.collect_events()]
    assert events[0]["payload"]["options"] == options
    assert rereferee(export_lines(str(match.id), "kingdom_tcg", events)).chain == match.chain


def illegal_move(edited):
    placed = next(r for r in edited[1:] if r["type"] == "CardPlaced")
    placed["payload"]["stack"] = 7
    return rechain(edited), placed["version"], "not the result of any legal move"


def changed_roll(edited):
    chosen = next(r for r in edited[1:] if r["type"] == "FirstSeatChosen")
    entry = chosen["payload"]["random"][0]
    entry["result"] = (entry["result"] + 1) % entry["n"]
    chosen["payload"]["seat"] = entry["result"]
    return rechain(edited), chosen["version"], "random result does not recompute"


def broken_chain(edited):
    edited[12]["payload"]["seat"] = 1 - edited[12]["payload"].get("seat", 0)
    return edited, 12, "chain breaks at version 12"


def other_header(edited):
    edited[0]["match_id"] = str(uuid.uuid4())
    return edited, 1, "the header's match_id differs"


def bad_map(edited):
    edited[1]["payload"].update(game="crusader_kingdoms", options={"map": {"name": "x"}})
    return rechain(edited), 1, "MatchCreated: invalid Crusader Kingdoms map"


def five_players(edited):
    edited[1]["payload"]["players"] += ["Di", "Ed"]
    return rechain(edited), 1, "MatchCreated: korona is played by 2 to 4 players"


def options_not_an_object(edited):
    edited[1]["payload"]["options"] = "x"
    return rechain(edited), 1, "MatchCreated: options must be a JSON object"


def option_of_the_wrong_kind(edited):
    edited[1]["payload"].update(game="kingdom_tcg", players=["Ana", "Bo"], client_seeds=["a", "b"],
                                options={"decklists": 5})
    return rechain(edited), 1, "MatchCreated: the decklists option needs one decklist per seat (2)"


def match_id_not_a_uuid(edited):
    edited[0]["match_id"] = edited[1]["payload"]["match_id"] = "not-a-uuid"
    return rechain(edited), 1, 'MatchCreated: its match_id must be a UUID, not "not-a-uuid"'


def match_id_a_number(edited):
    edited[0]["match_id"] = edited[1]["payload"]["match_id"] = 5
    return rechain(edited), 1, "MatchCreated: its match_id must be a UUID, not a number"


def first_turn(edited) -> dict:
    """The log's first TurnStarted: its seat is the one awaited next."""
    return next(r for r in edited[1:] if r["type"] == "TurnStarted")


def inserted(edited, type_: str, payload: dict):
    """The log with an event inserted after its first TurnStarted, rechained, and that event's version."""
    version = first_turn(edited)["version"] + 1
    later = [{**r, "version": r["version"] + 1} for r in edited[version:]]
    return rechain([*edited[:version], {"version": version, "type": type_, "payload": payload}, *later]), version


def resolved_move(move, told: str):
    def corrupt(edited):
        seat = first_turn(edited)["payload"]["seat"]
        edited, version = inserted(edited, "RefereeResolved", {"seat": seat, "move": move, "default": False})
        return edited, version, f"RefereeResolved: its move must be a JSON object, not {told}"
    return pytest.param(corrupt, id=f"resolved_move_{told.replace(' ', '_')}")


def dispute_version_as_text(edited):
    edited, version = inserted(edited, "DisputeOpened", {"dispute_id": "d1", "seat": 0, "version": "1", "claim": "x"})
    return edited, version, "DisputeOpened: its version must be a whole number, not a string"


def dispute_of_no_seat(edited):
    edited, version = inserted(edited, "DisputeOpened", {"dispute_id": "d1", "seat": 5, "version": 1, "claim": "x"})
    return edited, version, "DisputeOpened: this match has no seat 5: its seats are 0 to 2"


def ruling_on_no_dispute(edited):
    ruled = {"dispute_id": "d9", "ruling": "upheld", "explanation": "x", "remedy": None}
    edited, version = inserted(edited, "DisputeRuled", ruled)
    return edited, version, "DisputeRuled is not legal here: this match has no dispute d9"


def payload_not_an_object(edited):
    edited[12]["payload"] = []
    return rechain(edited), 12, "an event needs a type (a string) and a payload (a JSON object)"


@pytest.mark.parametrize("corrupt", [illegal_move, changed_roll, broken_chain, other_header, bad_map, five_players,
                                     options_not_an_object, option_of_the_wrong_kind, match_id_not_a_uuid, match_id_a_number,
                                     resolved_move(None, "null"), resolved_move("x", "a string"),
                                     resolved_move(5, "a number"), resolved_move([1], "an array"),
                                     dispute_version_as_text, dispute_of_no_seat, ruling_on_no_dispute,
                                     payload_not_an_object])
def test_a_corrupted_log_is_refused_naming_its_first_bad_version(sqlite_client, log_lines, corrupt):
    """Offline and over HTTP: the first illegal move, mismatching result, broken link or field of the wrong kind (a
    match id not a UUID, a RefereeResolved move not an object) is named by its version in a problem document, and the
    refused import stores nothing."""
    edited, version, reason = corrupt(rows(log_lines))
    with pytest.raises(Rejected) as rejected:
        rereferee(lines_of(edited))
    assert rejected.value.version == version and reason in str(rejected.value)
    table = Table(sqlite_client, ["Ana", "Bo"])
    before = sqlite_client.get("/matches").get_json()
    refused = sqlite_client.post("/matches/import", data="\n".join(lines_of(edited)), headers=auth(table.referee))
    assert refused.status_code == 422 and refused.headers["Content-Type"] == "application/problem+json"
    assert refused.get_json()["detail"].startswith(f"the log was not imported: version {version}: ")
    assert reason in refused.get_json()["detail"]
    assert sqlite_client.get("/matches").get_json() == before


def test_an_unfinished_log_is_not_imported(sqlite_client, log_lines):
    """Ruling U4: without SeedRevealed no draw can be re-checked, so the log is refused and nothing stored."""
    unfinished = [line for line in log_lines if json.loads(line).get("type") not in ("SeedRevealed",)]
    table = Table(sqlite_client, ["Ana", "Bo"])
    refused = sqlite_client.post("/matches/import", data="\n".join(unfinished), headers=auth(table.referee))
    assert refused.status_code == 422 and "the match is not over" in refused.get_json()["detail"]
    assert [m["match_id"] for m in sqlite_client.get("/matches").get_json()] == [table.id]


def test_import_over_http_stores_nothing_when_refused(client, log_lines):
    table = Table(client, ["Ana", "Bo"])
    before = client.get("/matches").get_json()
    edited = rows(log_lines)
    placed = next(r for r in edited[1:] if r["type"] == "CardPlaced")
    placed["payload"]["stack"] = 7
    refused = client.post("/matches/import", data="\n".join(lines_of(rechain(edited))), headers=auth(table.referee))
    assert refused.status_code == 422
    assert f"version {placed['version']}" in refused.get_json()["detail"]
    assert client.get("/matches").get_json() == before
    seat = client.post("/matches/import", data="\n".join(log_lines), headers=auth(table.tokens[0]))
    assert seat.status_code == 403
    accepted = client.post("/matches/import", data="\n".join(log_lines), headers=auth(table.referee))
    assert accepted.status_code == 201, accepted.get_json()
    imported = accepted.get_json()
    assert imported["match_id"] == json.loads(log_lines[0])["match_id"]
    audit = client.get(f"/matches/{imported['match_id']}/audit", headers=auth(imported["referee_token"])).get_json()
    assert audit["chain_head"] == json.loads(log_lines[-1])["chain"]
    view = client.get(f"/matches/{imported['match_id']}/view", headers=auth(imported["seats"][0]["token"])).get_json()
    assert view["status"] == "finished" and view["version"] == len(log_lines) - 1


# `python -m MODULE ARGS...` run for each of several argument lists in one process, as the interpreter runs it: what
# it writes to its stdout and stderr (file descriptors 1 and 2) captured, and its exit status (SystemExit's, 1 after
# printing the traceback of any other exception); each run's answer as [status, stdout, stderr], as JSON on stdout.
RUN_EACH = """
import json, os, runpy, sys, tempfile, traceback
module, runs, answers = sys.argv[1], json.loads(sys.argv[2]), []
for args in runs:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        kept = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        sys.argv = [module, *args]
        sys.modules.pop(module, None)
        try:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
            status = 0
        except SystemExit as exit:
            status = exit.code if isinstance(exit.code, int) else 0 if exit.code is None else 1
            if not isinstance(exit.code, int) and exit.code is not None:
                print(exit.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
            status = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(kept[0], 1)
            os.dup2(kept[1], 2)
            for fd in kept:
                os.close(fd)
        out.seek(0)
        err.seek(0)
        answers.append([status, out.read().decode(), err.read().decode()])
print(json.dumps(answers))
"""


def run_each(module: str, runs: list[list[str]]) -> list[subprocess.CompletedProcess]:
    """`python -m module *args` for each of `runs`, in one Python process (one interpreter start, not one a run):
    each run's exit status, stdout and stderr."""
    done = subprocess.run([sys.executable, "-c", RUN_EACH, module, json.dumps(runs)], capture_output=True, text=True,
                          check=True)
    assert done.stderr == "", done.stderr
    return [subprocess.CompletedProcess([module, *args], status, out, err)
            for args, (status, out, err) in zip(runs, json.loads(done.stdout), strict=True)]


def test_offline_audit_and_replay_commands(log_lines, tmp_path):
    good = tmp_path / "good.ndjson"
    good.write_text("\n".join(log_lines) + "\n")
    edited = rows(log_lines)
    placed = next(r for r in edited[1:] if r["type"] == "CardPlaced")
    placed["payload"]["stack"] = 7
    bad = tmp_path / "bad.ndjson"
    bad.write_text("\n".join(lines_of(rechain(edited))) + "\n")
    audited, refused, replayed = run_each("service.cli", [["audit", str(good)], ["audit", str(bad)],
                                                          ["replay", str(good), "--version", "9", "--seat", "1"]])
    assert json.loads(log_lines[1])["payload"]["rules"] == "korona/2"  # MatchCreated records its rules version
    assert audited.returncode == 0 and audited.stdout.startswith("ok") and \
        "under korona/2 (the log's: korona/2)" in audited.stdout
    assert refused.returncode == 1 and f"version {placed['version']}" in refused.stdout
    shown = json.loads(replayed.stdout)
    assert shown["version"] == 9 and "hand" in shown["players"][1] and "hand" not in shown["players"][0]
    assert "draw_pile" not in shown


OFFLINE = {"audit": ["service.cli", "audit"], "replay": ["service.cli", "replay", "--version", "2"],
           "verify": ["replays.verify"], "herald verify": ["service.cli", "verify"]}


def hostile_logs(log_lines, tmp_path) -> dict:
    """Files the offline tools once crashed on (deep JSON: RecursionError) or that they cannot read."""
    deep = "[" * 1000 + "]" * 1000
    files = {"deep first line": deep, "deep event": "\n".join([log_lines[0], log_lines[1][:-1] + ', "x": ' + deep + "}"]),
             "not an object": "[]", "long line": '"' + "x" * (1024 * 1024 + 1) + '"'}
    paths = {}
    for name, text in files.items():
        paths[name] = tmp_path / f"{name.replace(' ', '-')}.ndjson"
        paths[name].write_text(text + "\n")
    paths["binary"] = tmp_path / "binary.ndjson"
    paths["binary"].write_bytes(b"\xff\xfe\x00")
    paths["missing"] = tmp_path / "missing.ndjson"
    return paths


@pytest.mark.parametrize("tool", sorted(OFFLINE))
def test_offline_tools_fail_in_one_line_without_a_traceback(log_lines, tmp_path, tool):
    """herald audit, herald replay and python -m replays.verify print FAIL with the reason and exit 1."""
    reasons = {"deep first line": "line 1 is refused unread: it nests 1000", "deep event": "line 2 is refused unread",
               "not an object": "line 1 is not a JSON object", "long line": "line 1 is 1048579 characters long",
               "binary": "utf-8", "missing": "cannot read"}
    module, *args = OFFLINE[tool]
    paths = hostile_logs(log_lines, tmp_path)
    runs = run_each(module, [[*args[:1], str(path), *args[1:]] for path in paths.values()])
    for name, run in zip(paths, runs, strict=True):
        assert run.returncode == 1 and run.stderr == "", (name, run.stderr)
        assert len(run.stdout.splitlines()) == 1 and run.stdout.startswith("FAIL "), (name, run.stdout)
        assert reasons[name] in run.stdout, (name, run.stdout)
