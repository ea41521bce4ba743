"""The in-process figures of `make bench`, each measured side by side with its reference, sized by the caller."""
from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from eventsourcing.domain import Aggregate

from domain.korona import GAME as KORONA
from domain.matches import Matches
from tests.helpers.stores import own_redis

ROOT = Path(__file__).resolve().parent


def figure(name: str, value: float, unit: str, reference: float, ratio: float, target: float | None,
           higher_is_better: bool = True, **extra) -> dict:
    """One row of the table and of results.json; a target of None: the figure is reported, not held to one."""
    return {"name": name, "value": round(value, 2), "unit": unit, "reference": round(reference, 2),
            "ratio": round(ratio, 3), "target": target, "higher_is_better": higher_is_better, **extra}


class Tick(Aggregate):
    """The smallest aggregate: one event per save, for the raw append rate."""

    class Ticked(Aggregate.Event):
        n: int

    def tick(self, n: int) -> None:
        self.trigger_event(self.Ticked, n=n)


def sqlite_app(path: Path, snapshots: bool = True) -> Matches:
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
    if not snapshots:
        env["IS_SNAPSHOTTING_ENABLED"] = "n"
    return Matches(env=env)


def random_move(state: dict, chooser: random.Random, game=KORONA) -> tuple[int, dict]:
    seat = game.awaiting(state)
    return seat, chooser.choice(game.legal_moves(state, seat))


def repeat_for(seconds: float, step, after_each=None) -> int:
    """How many times `step(n)` ran, each followed by `after_each()`, in a while."""
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        step(count)
        if after_each:
            after_each()
        count += 1
    return count


def moves_for(app: Matches, seconds: float, after_each=None) -> int:
    """Random legal Korona moves through Matches.play for a while, new matches as old ones end."""
    chooser = random.Random(1)
    match = None

    def move(_):
        nonlocal match
        if match is None or match.finished:
            match, _ = app.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}])
        seat, chosen = random_move(match.state, chooser)
        match, _ = app.play(match.id, seat, chosen)

    return repeat_for(seconds, move, after_each)


def appends_for(app: Matches, seconds: float, after_each=None) -> int:
    """eventsourcing's raw append through `app` for a while: one small event a save, `after_each` after each."""
    tick = Tick()
    app.save(tick)

    def append(n):
        tick.tick(n)
        app.save(tick)

    return repeat_for(seconds, append, after_each)


def per_second(counted) -> float:
    """The rate of what `counted()` counts, over the time it took."""
    start = time.perf_counter()
    return counted() / (time.perf_counter() - start)


def wait_for_projector(server, app: Matches) -> None:
    """Until the projector's position in Redis reaches the event store's last notification."""
    from projections.projector import POSITION

    last = app.recorder.max_notification_id()
    while int(server.get(POSITION) or 0) < last:
        time.sleep(0.005)


def command_path(tmp: Path, seconds: float) -> list[dict]:
    """Rules + event append + projection, against raw appends to the same kind of store: with the projection
    in the request (as a worker without a projector process does) and with `herald project` as its own process."""
    from projections.projector import POSITION, Projector

    raw = Matches(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / "raw.sqlite")})
    with own_redis() as (server, embedded):
        raw_rate = per_second(lambda: appends_for(raw, seconds))
        floor_rate = per_second(lambda: appends_for(raw, seconds, lambda: server.get(POSITION)))
        app = sqlite_app(tmp / "command.sqlite")
        inline = Projector(app, server)
        in_request = per_second(lambda: moves_for(app, seconds, lambda: inline.catch_up(own=True)))

        piped = sqlite_app(tmp / "pipelined.sqlite")
        env = {**os.environ, "PERSISTENCE_MODULE": "eventsourcing.sqlite",
               "SQLITE_DBNAME": str(tmp / "pipelined.sqlite"), "REDIS_URL": embedded.url, "DATA_DIR": str(tmp)}
        server.flushall()
        projector = subprocess.Popen([sys.executable, "-m", "service.cli", "project", "--interval", "0.01"], env=env,
                                     cwd=ROOT.parent, stderr=subprocess.DEVNULL)

        def projected() -> int:
            count = moves_for(piped, seconds)
            wait_for_projector(server, piped)  # the moves count once their views are written
            return count

        try:
            pipelined = per_second(projected)
        finally:
            projector.terminate()
            projector.wait()
    # a move that commits, then writes its views to Redis before it answers, takes at least the raw append and one
    # Redis round trip: that floor's rate, and its ratio to the raw append, the best the figure could reach
    floor = {"floor_per_s": round(floor_rate, 2), "floor_ratio": round(floor_rate / raw_rate, 3)}
    # the ratio in the request is reported without a target since issue 41 retired issue 21's 0.5 for it
    return [figure(f"command path moves/s vs raw append/s, projection {where}", rate, "moves/s", raw_rate,
                   rate / raw_rate, target, **extra)
            for where, rate, target, extra in (("in the request", in_request, None, floor),
                                               ("by `herald project`", pipelined, 0.5, {}))]


# the rules as issue 21 found them: each game's playouts are measured beside theirs, run from that commit's tree in
# the same way, and held to twice their rate
RULES_REFERENCE = "3afe9cc"
PLAYOUT_PLAYERS = {"korona": 3, "for_a_crown": 4, "kingdom_tcg": 2, "crusader_kingdoms": 4}

PLAYOUT_PROBE = """
import random, sys, time, uuid
from domain.match import Match
game_name, players, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
names = [f"P{i}" for i in range(players)]
chooser = random.Random(7)
games, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    match = Match.create(uuid.UUID(int=games + 1), game_name, names, names, {}, games.to_bytes(32, "big"))
    match.start()
    while not match.finished:
        seat = match.game.awaiting(match.state)
        match.play(seat, chooser.choice(match.game.legal_moves(match.state, seat)))
    games += 1
print(games / (time.perf_counter() - start), match.game.title)
"""


def reference_tree(tmp: Path) -> Path | None:
    """RULES_REFERENCE's domain package, extracted from git once a run; None where the history is not at hand."""
    tree = tmp / "reference-rules"
    if not tree.exists():
        tree.mkdir()
        archive = subprocess.run(["git", "archive", RULES_REFERENCE, "domain"], cwd=ROOT.parent, capture_output=True,
                                 check=False)
        if archive.returncode != 0:
            return None
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree if (tree / "domain").exists() else None


def _playout_rate(tree: Path, game_name: str, seconds: float) -> tuple[float, str]:
    out = subprocess.run([sys.executable, "-c", PLAYOUT_PROBE, game_name, str(PLAYOUT_PLAYERS[game_name]),
                          str(seconds)], capture_output=True, text=True, check=True, cwd=tree,
                         env={**os.environ, "PYTHONPATH": str(tree)}).stdout.split(maxsplit=1)
    return float(out[0]), out[1].strip()


def playouts(tmp: Path, seconds: float, game_name: str = "korona") -> dict:
    """Random legal games of one game per second through the rules and the match aggregate (no I/O, one core),
    beside the same playouts by the rules of RULES_REFERENCE, alternating halves of `seconds` each."""
    players, reference = PLAYOUT_PLAYERS[game_name], reference_tree(tmp)
    rates, before = [], []
    for _ in range(2):
        rate, title = _playout_rate(ROOT.parent, game_name, seconds / 2)
        rates.append(rate)
        if reference is not None:
            before.append(_playout_rate(reference, game_name, seconds / 2)[0])
    rate = statistics.mean(rates)
    baseline = statistics.mean(before) if before else rate
    row = figure(f"random legal {title} playouts/s ({players} players) vs the rules of {RULES_REFERENCE}", rate,
                 "games/s", baseline, rate / baseline, 2.0)
    if reference is None:
        row["failures"] = [f"the rules of {RULES_REFERENCE} are not in this checkout's git history"]
    return row


def long_match(app: Matches, events: int, moves: int = 60, back: int = 150):
    """A match of at least `events` events: play on, and every `moves` moves let the referee back up to the start
    of the earliest of them within the last `back` events (a backup goes only where a move begins)."""
    chooser = random.Random(3)
    match, _ = app.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}])
    live = match
    while live.version < events:
        starts = []
        for _ in range(moves):
            if live.finished:
                return match.id
            starts.append(live.version)
            live, _ = app.play(match.id, *random_move(live.state, chooser))
        points = [version for version in starts if version >= live.version - back]
        if points:
            live, _ = app.back_up(match.id, points[0], "bench: replay the last moves")
    return match.id


def state_at_version(tmp: Path, events: int, samples: int) -> dict:
    """Rebuilding a random version of a long match: from the nearest snapshot, against a full fold."""
    app = sqlite_app(tmp / "long.sqlite")
    match_id = long_match(app, events)
    version = app.load(match_id).version
    plain = sqlite_app(tmp / "long.sqlite", snapshots=False)
    chooser = random.Random(5)
    picks = [chooser.randint(1, version) for _ in range(samples)]

    def median_ms(store):
        times = []
        for v in picks:
            start = time.perf_counter()
            store.load(match_id, version=v)
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)

    snap, full = median_ms(app), median_ms(plain)
    return figure(f"state at a random version of a {version}-event match: median, snapshots vs full fold", snap,
                  "ms", full, snap / 10, 1.0, higher_is_better=False, speedup=round(full / snap, 2))


def projection_rebuild(tmp: Path, games: int) -> dict:
    """Events per second replayed into Redis views by a rebuild, against the target of 20,000."""
    from projections.projector import Projector

    app = sqlite_app(tmp / "rebuild.sqlite")
    chooser = random.Random(11)
    for _ in range(games):
        match, _ = app.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}])
        live = match
        while not live.finished:
            live, _ = app.play(match.id, *random_move(live.state, chooser))
    with own_redis() as (server, _):
        projector = Projector(app, server)
        start = time.perf_counter()
        count = projector.rebuild()
        rate = count / (time.perf_counter() - start)
    return figure("projection rebuild into Redis", rate, "events/s", 20000, rate / 20000, 1.0, events=count)


MEMORY_PROBE = """
import resource, random, sys
from domain.matches import Matches
from domain.korona import GAME as KORONA
matches = int(sys.argv[2])
app = Matches(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": sys.argv[1],
                   "AGGREGATE_CACHE_MAXSIZE": str(matches)})
baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
chooser = random.Random(2)
for n in range(matches):
    match, _ = app.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}])
    for _ in range(20):
        live = app.load(match.id)
        seat = KORONA.awaiting(live.state)
        app.play(match.id, seat, chooser.choice(KORONA.legal_moves(live.state, seat)))
print(baseline, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, app.cached_count())
"""


def worker_memory(tmp: Path, matches: int) -> dict:
    """Resident memory of one process (a worker's Matches application) holding `matches` active matches in its
    aggregate cache; the figure counts only if the cache really holds them all."""
    out = subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(tmp / "memory.sqlite"), str(matches)],
                         capture_output=True, text=True, check=True, cwd=ROOT.parent).stdout.split()
    baseline, peak, held = int(out[0]) / 1024, int(out[1]) / 1024, int(out[2])
    return figure(f"resident memory of a worker holding {matches:,} active matches", peak, "MB", 300, peak / 300,
                  1.0, higher_is_better=False, baseline_mb=round(baseline, 1), matches_cached=held,
                  matches_wanted=matches)


def tournament_round(tmp: Path, players: int) -> dict:
    """Pairing a Swiss round of `players` (after one played round, so that scores differ) and creating its matches,
    beside creating as many matches alone, on one SQLite store."""
    from domain.tournaments import desk

    app = sqlite_app(tmp / "tournament.sqlite")
    spec = {"name": "Bench", "game": "korona", "format": "swiss", "rounds": 3, "table_size": 2, "top_cut": 0,
            "placement_points": [3, 0], "options": {}}
    tournament, _ = desk.create(app, spec)
    for i in range(players):
        desk.register(app, tournament.id, f"P{i}", None)
    first = desk.pair_round(app, tournament.id)
    for table in first["tables"]:
        winner = table["players"][table["table"] % 2]
        desk.record(app, tournament.id, 1, table["table"], [[winner], [p for p in table["players"] if p != winner]],
                    "bench")
    start = time.perf_counter()
    paired = desk.pair_round(app, tournament.id)
    pairing = time.perf_counter() - start
    start = time.perf_counter()
    for _ in paired["tables"]:
        app.create("korona", [{"name": "A"}, {"name": "B"}])
    alone = time.perf_counter() - start
    return figure(f"pairing a {players}-player Swiss round and creating its {len(paired['tables'])} matches, vs "
                  "creating them alone", pairing * 1000, "ms", alone * 1000, pairing / alone, 3.0, higher_is_better=False)
