"""The README run as written: every ```sh block, in order, as one terminal session against a real `herald serve`
(which stands in for the first block's `make run`), from a folder that has the checkout's folders."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from domain.matches import Matches
from projections.projector import POSITION
from tests.helpers.server import Server, call, free_port, redis_url
from tests.test_herald_run import HeraldRun, serve_a_few_requests

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LOCAL = "http://127.0.0.1:8000"  # where the README's session expects `make run`


def shell_blocks() -> list[tuple[str, str]]:
    """Every ```sh block of the README with the heading it is under, in order."""
    text = README.read_text()
    return [((re.findall(r"^## .*$", text[:found.start()], re.MULTILINE) or [""])[-1], found.group(1))
            for found in re.finditer(r"```sh\n(.*?)```", text, re.DOTALL)]


def checkout_folder(tmp: Path) -> Path:
    """A folder where the README's relative paths (.venv/bin/..., domain/...) reach the checkout, so that the files
    the session writes (match.json, match.ndjson...) stay out of it."""
    folder = tmp / "session"
    folder.mkdir()
    for entry in ROOT.iterdir():
        if entry.is_dir() and entry.name not in (".git", "var"):
            (folder / entry.name).symlink_to(entry)
    return folder


def outputs(stdout: str) -> list:
    """What the session printed, in order: each JSON document parsed, each other line as a string."""
    decoder, found, at = json.JSONDecoder(), [], 0
    while stdout[at:].strip():
        at += len(stdout[at:]) - len(stdout[at:].lstrip())
        try:
            document, at = decoder.raw_decode(stdout, at)
        except ValueError:
            end = stdout.find("\n", at)
            document, at = stdout[at:end if end >= 0 else None], end if end >= 0 else len(stdout)
        found.append(document)
    return found


def terminal(**settings) -> dict:
    """The session's environment: this one, its `python3` the test's own (not a slower shim in front of it)."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", **settings}


def run(script: str, cwd: Path) -> list:
    """Run a session in bash, stopping at the first failing command; what it printed."""
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], check=False, cwd=cwd, capture_output=True,
                          text=True, timeout=600, env=terminal())
    assert done.returncode == 0, done.stderr
    return outputs(done.stdout)


@pytest.fixture
def server(tmp_path, redis_client):
    """`make run`'s server for the session: SQLite under the test's folder, the test Redis."""
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "events.sqlite")}
    started = Server(tmp_path, store, redis_url(redis_client), workers=1).start()
    yield started
    started.stop()


def test_the_readme_runs_as_written(server, tmp_path):
    """Every block before "Deploying", pasted in order: moves, views, a Crusader Kingdoms match on maps and decks
    of the reader's, a For a Crown recruit paid as the rulebook's example, the console's pages, replay, undo and backups, the match played to its end, its export verified, audited, replayed
    and disputed. Each answer shows what the README says it does."""
    blocks = shell_blocks()
    assert blocks[0][0] == "" and [line.split("#")[0].strip() for line in blocks[0][1].splitlines()] == \
        ["make run", "make test"], "the first block is `make run` and `make test`, which this test stands in for"
    session = "".join(block for heading, block in blocks[1:] if heading != "## Deploying")
    assert LOCAL in session
    printed = run(session.replace(LOCAL, server.base), checkout_folder(tmp_path))
    (legal, drawn, ended, own, referee, watched, log, crusade, recruited, payments, paid, crown_record, legal_deck, short_deck, tcg_moves, bot_a, bot_b, paired, standings,
     console_home, console_table, replayed, timeline, refused, requested, approved,
     backed_up, final, *checks, past, bundle, dispute) = printed

    assert {"type": "draw", "source": "pile"} in legal["moves"]
    seat = drawn["events"][0]["payload"]["seat"]
    assert drawn["events"][0]["type"] == "CardsDrawn" and ended["awaiting_seat"] == 1 - seat
    assert [("hand" in p) for p in own["players"]] == [p["seat"] == seat for p in own["players"]]
    assert all("hand" in p for p in referee["players"]) and "draw_pile" in referee
    assert not any("hand" in p for p in watched["players"]) and watched["version"] == referee["version"]
    their_draw = next(e for e in log["events"] if e["type"] == "CardsDrawn" and e["payload"]["seat"] == seat)
    assert "cards" not in their_draw["payload"]

    assert crusade["game"] == "crusader_kingdoms" and len(crusade["seats"]) == 3

    assert recruited["events"][0]["type"] == "MercenaryRecruited" and "card" in recruited["events"][0]["payload"]
    assert {"type": "pay", "coins": 3, "rubies": 2} in payments["moves"] and paid["events"][0]["type"] == "CostPaid"
    family = crown_record[1].split(" recruited")[0]
    assert crown_record == [f"{family} chose the top level-3 card, unseen.",
                            f"{family} recruited a level-3 Mercenary for 5 (3 Coins, 2 Rubies)."]

    assert legal_deck == {"valid": True, "problems": []}
    assert short_deck["valid"] is False and short_deck["problems"][0].startswith("the strategy deck holds 29 cards")
    assert tcg_moves["moves"] and all("type" in move for move in tcg_moves["moves"])
    bots = (bot_a, bot_b)  # each bot's result line, in the order they ended
    assert sorted(line.split(": ")[1].split(" (")[0] for line in bots) == ["Ana", "Bo"]  # a bot a seat, each done
    assert len({line.split(": ")[0] for line in bots}) == 1 and bot_a.startswith("match ")  # the same match's end

    assert paired["round"] == 1 and len(paired["tables"]) == 2 and len(paired["byes"]) == 1
    assert standings["standings"][0]["points"] == 3  # the bye is a win
    assert console_home == 200 and console_table == len(referee["players"])  # one "cards in hand" line a seat

    assert replayed["version"] == 9 and timeline[0]["type"] == "MatchCreated"
    assert refused["status"] == 422 and "your own turn" in refused["detail"]
    assert (requested["status"], approved["status"]) == ("pending", "approved")
    assert backed_up["events"][-1]["type"] == "BackupPerformed"
    assert final[0] == "finished" and final[1]

    assert checks and all(line.startswith("ok ") for line in checks), checks
    assert any("receipts: all 1 appear" in line for line in checks)
    assert any("re-refereed" in line for line in checks)
    assert past["version"] == 9 and [("hand" in p) for p in past["players"]] == [True, False]
    assert bundle["server_seed"] and dispute["dispute_id"] == "d1"


def test_the_verifier_explains_an_export_taken_too_early(server, tmp_path):
    """Before the end, `curl -s` saves a seat's refused export (a problem document) and the referee's export has no
    revealed seed: the verifier says so in a line, exit 1, where the README says to run it."""
    _, created = call(server.base, "POST", "/matches", {"game": "korona", "players": ["Ana", "Bo"]})
    export = f"{server.base}/matches/{created['match_id']}/export"
    refused = "FAIL the file holds no log but the server's refusal (403): until the match ends only the referee may"
    unfinished = ("FAIL the match is not over yet: its server seed is revealed (SeedRevealed) only when it ends, "
                  "so no draw can be checked; export the log again after the last move")
    for token, expected in ((created["seats"][0]["token"], refused), (created["referee_token"], unfinished)):
        subprocess.run(["curl", "-s", export, "-H", f"Authorization: Bearer {token}", "-o", "early.ndjson"],
                       cwd=tmp_path, check=True)
        done = subprocess.run([sys.executable, "-m", "replays.verify", "early.ndjson"], check=False, cwd=tmp_path,
                              capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert (done.returncode, done.stderr) == (1, "") and done.stdout.splitlines()[-1].startswith(expected), \
            done.stdout


def stop_group(group: int) -> None:
    """SIGTERM the session's process group (the servers it left running), SIGKILL what is left after 15 s."""
    for sent, patience in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        try:
            os.killpg(group, sent)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)


def with_site(block: str, site: dict) -> str:
    """The block with the site's values in place of its examples: each `NAME=example` whose NAME the site gives."""
    return re.sub(rf"\b({'|'.join(site)})=\S+", lambda found: f"{found[1]}={site[found[1]]}", block)


@pytest.mark.parametrize("store_env", ["postgres"], indirect=True)
def test_the_deploying_block_serves_on_postgres_beside_make_run(tmp_path, redis_client, store_env):
    """"Deploying" as written, in a folder where `herald run` (`make run`'s server, its embedded Redis under var/)
    serves, the site's values in place of the block's examples (trust authentication, so no POSTGRES_PASSWORD; a fresh
    POSTGRES_SCHEMA in the environment, as its table says): gunicorn serves on PostgreSQL from its own DATA_DIR,
    `herald project` keeps the views in the one shared REDIS_URL, and the `make run` server keeps serving."""
    block, = [block for heading, block in shell_blocks() if heading == "## Deploying"]
    assert {"POSTGRES_DBNAME", "POSTGRES_USER", "REDIS_URL", "DATA_DIR", "PORT"} <= set(re.findall(r"\b(\w+)=", block))
    port = free_port()
    site = {name: store_env[name] for name in ("POSTGRES_HOST", "POSTGRES_DBNAME", "POSTGRES_USER")}
    site.update(REDIS_URL=redis_url(redis_client), PORT=str(port))
    env = {name: value for name, value in terminal(POSTGRES_PORT=store_env["POSTGRES_PORT"],
                                                   POSTGRES_SCHEMA=store_env["POSTGRES_SCHEMA"]).items()
           if name not in ("POSTGRES_PASSWORD", "REDIS_URL", "DATA_DIR", "PORT")}
    folder = checkout_folder(tmp_path)
    make_run = HeraldRun(folder / "var").start()
    redis_client.flushdb()  # no projector position left by another test
    session = subprocess.Popen(["bash", "-euo", "pipefail", "-c", with_site(block, site)], cwd=folder, env=env,
                               text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = session.communicate(timeout=120)
        assert session.returncode == 0, stderr + (folder / "herald-serve.log").read_text()[-2000:]
        health, = outputs(stdout)
        assert health["status"] == "ok" and health["event_store"].startswith("postgres"), health
        base = f"http://127.0.0.1:{port}"
        status, created = call(base, "POST", "/matches", {"game": "korona", "players": ["Ana", "Bo"]})
        assert status == 201, created
        store = Matches(env=store_env)
        last = store.recorder.max_notification_id()
        store.close()
        deadline = time.monotonic() + 30
        while int(redis_client.get(POSITION) or 0) < last and time.monotonic() < deadline:
            time.sleep(0.1)
        assert int(redis_client.get(POSITION) or 0) >= last, (folder / "herald-project.log").read_text()[-2000:]
        assert (folder / "var-deploy").is_dir() and serve_a_few_requests(make_run.base)
    finally:
        stop_group(session.pid)
        make_run.process.send_signal(signal.SIGTERM)
        make_run.process.wait(timeout=30)
