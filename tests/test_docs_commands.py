"""Every command of the docs run as written: each page's ```sh blocks (README.md and docs/*.md), in order, as one
terminal session against a real `herald serve` (which stands in for the README's `make run`), from a folder that has
the checkout's folders; what each prints is what the page says it does. docs/DEPLOYING.md's block runs on PostgreSQL
(its own test below)."""
from __future__ import annotations

import contextlib
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
from tests.helpers.herald_run import HeraldRun, serve_a_few_requests
from tests.helpers.server import Server, call, free_port, redis_url

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DEPLOYING = ROOT / "docs" / "DEPLOYING.md"  # its block needs a site's PostgreSQL: run by its own test below
SESSION = ROOT / "docs" / "session.sh"  # sourced first by every page's session: H and json
LOCAL = "http://127.0.0.1:8000"  # where the docs' sessions expect `make run`
README_LINES = 160  # issue 44: the README is for a newcomer; the rest goes into docs/


def pages() -> list[Path]:
    """The README and every page of docs/, whoever writes it."""
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


def shell_blocks(page: Path = README) -> list[tuple[str, str]]:
    """Every ```sh block of a page with the heading it is under, in order."""
    text = page.read_text()
    return [((re.findall(r"^## .*$", text[:found.start()], re.MULTILINE) or [""])[-1], found.group(1))
            for found in re.finditer(r"```sh\n(.*?)```", text, re.DOTALL)]


def session_of(page: Path) -> str:
    """A page's blocks as one session: the README's without its first block (`make run`, `make test`), which the
    server and this suite stand in for."""
    blocks = [block for _, block in shell_blocks(page)]
    return "".join(blocks[1:] if page == README else blocks)


def checkout_folder(tmp: Path) -> Path:
    """A folder where the docs' relative paths (.venv/bin/..., domain/..., docs/session.sh) reach the checkout, so that
    the files a session writes (match.json, match.ndjson...) stay out of it."""
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


def run(script: str, cwd: Path, base: str) -> list:
    """Run a session in bash against the server at `base` (docs/session.sh's H), stopping at the first failing
    command; what it printed."""
    out, err = cwd.parent / "session.out", cwd.parent / "session.err"
    with out.open("w") as stdout, err.open("w") as stderr:
        session = subprocess.Popen(["bash", "-euo", "pipefail", "-c", script], cwd=cwd, stdout=stdout, stderr=stderr,
                                   text=True, env=terminal(H=base), start_new_session=True)
    try:
        status = session.wait(timeout=600)
    finally:  # what a failed session left running in the background (a bot, say) stops with it
        with contextlib.suppress(ProcessLookupError):
            os.killpg(session.pid, signal.SIGKILL)
    assert status == 0, f"exit status {status}: {err.read_text()}"
    return outputs(out.read_text())


@pytest.fixture
def server(tmp_path, redis_client):
    """`make run`'s server for a session: SQLite under the test's folder, the test Redis emptied first (a projector
    position left by another test's store would leave this one's events unprojected and its tokens unknown)."""
    redis_client.flushdb()
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "events.sqlite")}
    started = Server(tmp_path, store, redis_url(redis_client), workers=1).start()
    yield started
    started.stop()


def shape(printed: list) -> list:
    """What a session printed, briefly, for a failure's message: each line, and each document's first keys."""
    return [found if isinstance(found, str) else sorted(found)[:4] if isinstance(found, dict) else found
            for found in printed]


def check_readme(printed: list) -> None:
    """Moves, views and the log of a Korona match; two bots playing a match to its end."""
    assert len(printed) == 9, shape(printed)  # seven answers and each bot's result line
    legal, drawn, ended, own, referee, watched, log, bot_b, bot_a = printed
    assert {"type": "draw", "source": "pile"} in legal["moves"]
    seat = drawn["events"][0]["payload"]["seat"]
    assert drawn["events"][0]["type"] == "CardsDrawn" and ended["awaiting_seat"] == 1 - seat
    assert [("hand" in p) for p in own["players"]] == [p["seat"] == seat for p in own["players"]]
    assert all("hand" in p for p in referee["players"]) and "draw_pile" in referee
    assert not any("hand" in p for p in watched["players"]) and watched["version"] == referee["version"]
    their_draw = next(e for e in log["events"] if e["type"] == "CardsDrawn" and e["payload"]["seat"] == seat)
    assert "cards" not in their_draw["payload"]
    bots = (bot_a, bot_b)  # each bot's result line (Bo's is printed first: Ana's bot ran in the background)
    assert [line.split(": ")[1].split(" (")[0] for line in bots] == ["Ana", "Bo"]  # a bot a seat, each done
    assert len({line.split(": ")[0] for line in bots}) == 1 and bot_a.startswith("match ")  # the same match's end


def check_games(printed: list) -> None:
    """A Crusader Kingdoms match on maps and decks of the reader's, a For a Crown recruit paid as the rulebook's
    example, Kingdom TCG's deck check and a match of it."""
    assert len(printed) == 8, shape(printed)
    crusade, recruited, payments, paid, crown_record, legal_deck, short_deck, tcg_moves = printed
    assert crusade["game"] == "crusader_kingdoms" and len(crusade["seats"]) == 3
    assert recruited["events"][0]["type"] == "MercenaryRecruited" and "card" in recruited["events"][0]["payload"]
    assert {"type": "pay", "coins": 3, "rubies": 2} in payments["moves"] and paid["events"][0]["type"] == "CostPaid"
    family = crown_record[1].split(" recruited")[0]
    assert crown_record == [f"{family} chose the top level-3 card, unseen.",
                            f"{family} recruited a level-3 Mercenary for 5 (3 Coins, 2 Rubies)."]
    assert legal_deck == {"valid": True, "problems": []}
    assert short_deck["valid"] is False and short_deck["problems"][0].startswith("the strategy deck holds 29 cards")
    assert tcg_moves["moves"] and all("type" in move for move in tcg_moves["moves"])


def check_tournaments(printed: list) -> None:
    """Round 1 of a five-player Swiss: two tables and a bye, which counts as a win; then five bots play it to its end,
    each printing its final place."""
    assert len(printed) == 3, shape(printed)
    paired, standings, placed = printed
    assert paired["round"] == 1 and len(paired["tables"]) == 2 and len(paired["byes"]) == 1
    assert standings["standings"][0]["points"] == 3  # the bye is a win
    assert placed == 5


def check_console(printed: list) -> None:
    """The home page to anyone, and a spectator's table: one "cards in hand" line a seat."""
    assert printed == [200, 2]


def check_replay(printed: list) -> None:
    """Replay, undo and backups, the match played to its end, its export verified, audited, replayed and disputed."""
    replayed, timeline, refused, requested, approved, backed_up, final, *checks, past, bundle, dispute = printed
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


CHECKS = {"README.md": check_readme, "docs/GAMES.md": check_games, "docs/TOURNAMENTS.md": check_tournaments,
          "docs/CONSOLE.md": check_console, "docs/REPLAY.md": check_replay}


def name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def test_the_readme_is_short_and_opens_with_make_run_and_make_test():
    """The README's first block is `make run` and `make test` (which the sessions' server and this suite stand in
    for), and the README stays a newcomer's page."""
    blocks = shell_blocks()
    assert blocks[0][0] == "" and [line.split("#")[0].strip() for line in blocks[0][1].splitlines()] == \
        ["make run", "make test"]
    assert len(README.read_text().splitlines()) <= README_LINES


def test_every_page_with_commands_is_run():
    """Every page checked below has commands and its session sources docs/session.sh first, whose H is `make run`'s
    address (the test's server in place of it); and no command hides in a block of another shell name, where the
    sessions would not see it."""
    run_here = {name(page) for page in pages() if shell_blocks(page) and page != DEPLOYING}
    assert set(CHECKS) <= run_here, set(CHECKS) - run_here
    for page in CHECKS:
        assert session_of(ROOT / page).startswith(". docs/session.sh"), page
    assert f"H=${{H:-{LOCAL}}}" in SESSION.read_text()
    for page in pages():
        assert not re.search(r"^```(bash|shell|console|zsh)\b", page.read_text(), re.MULTILINE), name(page)


@pytest.mark.parametrize("page", [page for page in pages() if shell_blocks(page) and page != DEPLOYING], ids=name)
def test_the_page_runs_as_written(page, server, tmp_path):
    """A page's session, pasted in order into a terminal: it exits 0 and each answer shows what the page says it
    does (a page with no check of its own yet, as a new one, is held to its exit status)."""
    printed = run(session_of(page), checkout_folder(tmp_path), server.base)
    check = CHECKS.get(name(page))
    if check:
        check(printed)


def test_the_verifier_explains_an_export_taken_too_early(server, tmp_path):
    """Before the end, `curl -s` saves a seat's refused export (a problem document) and the referee's export has no
    revealed seed: the verifier says so in a line, exit 1, where docs/REPLAY.md says to run it."""
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
    """docs/DEPLOYING.md's block as written, in a folder where `herald run` (`make run`'s server, its embedded Redis under var/)
    serves, the site's values in place of the block's examples (trust authentication, so no POSTGRES_PASSWORD; a fresh
    POSTGRES_SCHEMA in the environment, as its table says): gunicorn serves on PostgreSQL from its own DATA_DIR,
    `herald project` keeps the views in the one shared REDIS_URL, and the `make run` server keeps serving."""
    block, = [block for _, block in shell_blocks(DEPLOYING)]
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
