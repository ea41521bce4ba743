"""`make bench`: Herald's speed and memory, each figure measured side by side with its reference in one run.

    python -m bench                      the real run (minutes): prints a table, writes bench/results.json
    python -m bench --smoke --out FILE   every figure on a tiny budget (seconds of measuring each), the
                                         check `make test` runs; it writes FILE only, never bench/results.json

Targets come from the scale issue; a missed target says by how much. bench/README.md keeps the current figures.
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.figures import (
    PLAYOUT_PLAYERS,
    ROOT,
    command_path,
    moves_for,  # noqa: F401 (with random_move, what ../shared/peer-bench/inproc.py calls through this module)
    playouts,
    projection_rebuild,
    random_move,  # noqa: F401
    state_at_version,
    tournament_round,
    worker_memory,
)
from bench.http_load import http_load
from bench.live import live_streams
from bench.slow_clients import slow_clients


@dataclass(frozen=True)
class Budget:
    """How long or how much each figure measures."""

    playout_seconds: float = 6.0
    command_seconds: float = 4.0  # for each of the raw appends, their floor and the two command paths
    long_match_events: int = 2000
    version_samples: int = 60
    rebuild_games: int = 30
    http_clients: int = 16
    http_seconds: float = 15.0
    stalled_per_kind: int = 1000  # connections stalled mid-body, and as many mid-headers, beside the HTTP load
    stalled_seconds: float = 60.0
    cached_matches: int = 1000
    tournament_players: int = 1024
    live_matches: int = 50  # watched by live streams beside the HTTP load, as many streams each as live_per_match
    live_per_match: int = 20  # 3 seats' and 17 spectators'
    live_seconds: float = 20.0


# live_seconds: the watched matches move every 0.5 s until 1 s before the end, and a move counts once its message has
# reached the streams before the end; with 2 s a slow host delivered none in time
SMOKE = Budget(playout_seconds=0.5, command_seconds=0.3, long_match_events=150, version_samples=10, rebuild_games=1,
               http_clients=4, http_seconds=1.0, stalled_per_kind=20, stalled_seconds=1.0, cached_matches=20,
               tournament_players=32, live_matches=2, live_per_match=10, live_seconds=4.0)


def measure(budget: Budget) -> list[dict]:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        return [*(playouts(tmp, budget.playout_seconds, game) for game in PLAYOUT_PLAYERS),
                *command_path(tmp, budget.command_seconds),
                state_at_version(tmp, budget.long_match_events, budget.version_samples),
                projection_rebuild(tmp, budget.rebuild_games), http_load(tmp, budget.http_clients, budget.http_seconds),
                slow_clients(tmp / "slow", budget.http_clients, budget.stalled_seconds, budget.stalled_per_kind),
                *live_streams(tmp / "live", budget.http_clients, budget.live_seconds, budget.live_matches,
                              budget.live_per_match),
                worker_memory(tmp, budget.cached_matches), tournament_round(tmp, budget.tournament_players)]


def verdict(row: dict) -> str:
    if row.get("failures"):
        row["met"] = False
        return f"not measured: {row['failures'][0]}"
    if row.get("matches_cached", 0) < row.get("matches_wanted", 0):
        row["met"] = False
        return f"not measured: the cache held {row['matches_cached']} of {row['matches_wanted']:,} matches"
    if row["target"] is None:
        row["met"] = None
        said = "no target (issue 41 retired it)"
        if "floor_ratio" in row:
            said += f"; its floor, the raw append and one Redis round trip, reaches {row['floor_ratio']}"
        return said
    rate_met = row["ratio"] >= row["target"] if row["higher_is_better"] else row["ratio"] <= row["target"]
    met = rate_met
    if "p99_ms" in row:
        met = met and row["p99_ms"] < row["p99_target_ms"]
    if "cpu_target_ms" in row:
        met = met and row["server_cpu_ms_per_move"] <= row["cpu_target_ms"]
    if "health_max_s" in row:
        if row["health_max_s"] is None or row["health_max_s"] >= row["health_deadline_s"]:
            row["met"] = False
            return f"missed: /health took {row['health_max_s']} s at most, deadline {row['health_deadline_s']} s"
        if row["stalled_over_timeout"]:
            row["met"] = False
            return f"missed: {row['stalled_over_timeout']} stalled connections held past the server's read timeout"
    row["met"] = met
    if met:
        return "met"
    if rate_met and "cpu_target_ms" in row and row["server_cpu_ms_per_move"] > row["cpu_target_ms"]:
        return f"missed: server CPU {row['server_cpu_ms_per_move']} ms a move, target {row['cpu_target_ms']}"
    if rate_met:
        return f"missed: p99 {row['p99_ms']} ms, target under {row['p99_target_ms']}"
    if row["higher_is_better"]:
        return f"missed by {percent(1 - row['ratio'] / row['target'])}"
    return f"over by {percent(row['ratio'] / row['target'] - 1)}"


def percent(share: float) -> str:
    """A share as a percentage, a small one to a tenth of a point (0.3%, not 0%)."""
    return f"{share * 100:.0f}%" if share >= 0.01 else f"{share * 100:.1f}%"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="every figure on a tiny budget (the test's run)")
    parser.add_argument("--out", type=Path, help="where to write the results (default: bench/results.json, except "
                                                 "with --smoke)")
    args = parser.parse_args(argv)
    budget = SMOKE if args.smoke else Budget()
    out = args.out or (None if args.smoke else ROOT / "results.json")
    rows = measure(budget)
    print(f"{'figure':<78} {'value':>10} {'reference':>10} {'ratio':>7}  verdict")
    for row in rows:
        row["verdict"] = verdict(row)
        extra = f" (p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms" if "p99_ms" in row else ""
        extra += f", server CPU {row['server_cpu_ms_per_move']} ms a move)" if "cpu_target_ms" in row else \
            (")" if extra else "")
        if "health_max_s" in row:
            extra = (f" (/health within {row['health_max_s']} s; stalled connections closed by the server "
                     f"{row['stalled_closed']}, the longest held {row['stalled_longest_s']} s)")
        print(f"{row['name']:<78} {row['value']:>10} {row['reference']:>10} {row['ratio']:>7}  {row['verdict']}{extra}")
    if out:
        out.write_text(json.dumps({"measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                   "budget": "smoke" if args.smoke else "full", "sizes": asdict(budget),
                                   "peak_rss_mb_of_bench": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
                                   "results": rows}, indent=2))
        print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
