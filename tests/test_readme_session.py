"""The README's curl session, run as written against a real `herald serve`, so a newcomer's first steps work."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.server_process import Server, redis_url

README = Path(__file__).resolve().parent.parent / "README.md"
pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="the README session needs curl")


def shell_block(after: str, until: str | None = None) -> str:
    """The first ```sh block after a heading, cut before the line that starts with `until`."""
    text = README.read_text()
    block = re.search(r"```sh\n(.*?)```", text[text.index(after):], re.DOTALL).group(1)
    return block[:block.index(until)] if until else block


def outputs(stdout: str) -> list:
    """Every JSON document the session printed, in order."""
    decoder, found, at = json.JSONDecoder(), [], 0
    while stdout[at:].strip():
        at += len(stdout[at:]) - len(stdout[at:].lstrip())
        document, at = decoder.raw_decode(stdout, at)
        found.append(document)
    return found


def run(script: str, cwd: Path) -> list:
    """Run a session in bash, stopping at the first failing command; the JSON it printed."""
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], check=False, cwd=cwd, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return outputs(done.stdout)


def test_the_readme_curl_session_plays_replays_and_undoes(tmp_path, redis_client):
    """README "Play a few moves with curl" and "Replay, undo and verify", up to the verification (which needs a
    finished match): every command succeeds, the moves are accepted and each view shows what it should."""
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "events.sqlite")}
    server = Server(tmp_path, store, redis_url(redis_client), workers=1).start()
    try:
        session = shell_block("## Play a few moves with curl").replace("http://127.0.0.1:8000", server.base)
        legal, drawn, ended, own, referee, watched, log = run(session, tmp_path)
        assert {"type": "draw", "source": "pile"} in legal["moves"]
        seat = drawn["events"][0]["payload"]["seat"]
        assert drawn["events"][0]["type"] == "CardsDrawn" and ended["awaiting_seat"] == 1 - seat
        assert [("hand" in p) for p in own["players"]] == [p["seat"] == seat for p in own["players"]]
        assert all("hand" in p for p in referee["players"]) and "draw_pile" in referee
        assert not any("hand" in p for p in watched["players"]) and watched["version"] == referee["version"]
        their_draw = next(e for e in log["events"] if e["type"] == "CardsDrawn" and e["payload"]["seat"] == seat)
        assert "cards" not in their_draw["payload"]

        undo = shell_block("## Replay, undo and verify", until="# Verify.")
        replayed, timeline, refused, requested, approved, backed_up = run(session + undo, tmp_path)[7:]
        assert replayed["version"] == 9 and timeline[0]["type"] == "MatchCreated"
        assert refused["status"] == 422 and "your own turn" in refused["detail"]
        assert (requested["status"], approved["status"]) == ("pending", "approved")
        assert backed_up["events"][-1]["type"] == "BackupPerformed"
    finally:
        server.stop()
