"""`make bench` on a tiny budget, so that a change that breaks a figure fails `make test` (the real run stays out)."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results.json"
FIGURES = 15  # playouts of the four games, the command path twice, state at a version,
# projection rebuild, HTTP, HTTP beside stalled clients, live streams three times, memory, a tournament round


def test_every_bench_figure_gives_a_number_and_a_ratio(tmp_path):
    """`python -m bench --smoke` runs every figure to the end (seconds of measuring each) and writes only
    the file it is given: each figure a positive value, reference and ratio, and a verdict, as the real run has; the
    command path in the request its floor too, the raw append with one Redis round trip (its ratio only reported: a
    second's budget on a busy host orders nothing)."""
    kept = RESULTS.read_bytes() if RESULTS.exists() else None
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, "-m", "bench", "--smoke", "--out", str(out)], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    written = json.loads(out.read_text())
    assert written["budget"] == "smoke" and len(written["results"]) == FIGURES
    for row in written["results"]:
        for key in ("value", "reference", "ratio"):
            assert isinstance(row[key], (int, float)) and math.isfinite(row[key]) and row[key] > 0, row
        assert row["verdict"] and not row["verdict"].startswith("not measured"), row
        assert row["name"] in done.stdout
    in_request = [row for row in written["results"] if row["name"].endswith("projection in the request")]
    assert len(in_request) == 1 and in_request[0]["floor_ratio"] > 0, in_request  # reported, no speed asserted
    assert "one Redis round trip" in in_request[0]["verdict"] or in_request[0]["met"], in_request
    assert (RESULTS.read_bytes() if RESULTS.exists() else None) == kept
