"""A real headless Chromium driven by Playwright against Herald served on a free port, with the checks every
visited page must pass (no token in a URL or in the HTML, no other seat's hand, no unrevealed seed) and a
screenshot of each page under var/screenshots/ for a reviewer; and the fixtures the console's browser suites share
(tests/test_console_browser.py, test_console_live.py, test_console_clocks.py, test_console_tournament_stream.py)."""
from __future__ import annotations

import json
import random
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Error, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from werkzeug.serving import make_server

from service.app import create_app
from service.config import Settings

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def chromium_path() -> str | None:
    """Debian's chromium (or another Chromium on the PATH); None where there is none."""
    return next((found for found in map(shutil.which, CANDIDATES) if found), None)


@contextmanager
def chromium() -> Iterator:
    """Debian's Chromium, headless, launched once for a module's tests."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        yield launched
        launched.close()


@contextmanager
def console_app(redis_client, name: str) -> Iterator:
    """Herald's app on a SQLite store of its own and the test Redis, decisions never stalling within a test."""
    from tests.conftest import herald_context  # the test suite's context, once pytest has loaded it

    folder = Path(tempfile.mkdtemp(prefix=f"herald-{name}-"))
    context = herald_context({"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                              "SQLITE_DBNAME": str(folder / "events.sqlite")}, redis_client)
    yield create_app(Settings(data_dir=folder, stall_seconds=3600), context)
    context.matches.close()


class LiveServer:
    """The Flask app served by werkzeug in a thread, for a browser to reach."""

    def __init__(self, app):
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        # polled often, so that stop() returns at once rather than after serve_forever's default half second
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)


def pages_app(pages: dict[str, str]):
    """A WSGI app answering each path of `pages` with its HTML: another origin's pages, for LiveServer to serve."""
    def app(environ, start_response):
        found = pages.get(environ["PATH_INFO"])
        start_response("200 OK" if found else "404 Not Found", [("Content-Type", "text/html; charset=utf-8")])
        return [(found or "not here").encode()]

    return app


class Watch:
    """What no page may show, checked on every page the tests visit; every URL the browser asked for; and whatever
    the Content-Security-Policy blocked (nothing may be: the console's pages hold no inline script or style)."""

    def __init__(self):
        self.secrets: set[str] = set()  # tokens and the unrevealed server seed
        self.urls: list[str] = []
        self.shots: list[Path] = []
        self.blocked: list[str] = []
        self.contexts: list = []  # the browser contexts a test opened (open_page), closed when it ends
        self.pending: dict = {}  # each followed page's requests not yet answered, its streams left out

    def close(self) -> None:
        """Close the test's browser contexts: their pages' streams end with them, not later under another test."""
        for context in self.contexts:
            context.close()
        self.contexts.clear()

    def follow(self, page) -> None:
        pending = self.pending[page] = set()
        page.on("request", lambda request: self.urls.append(request.url))
        page.on("request", lambda request: request.resource_type != "eventsource" and pending.add(request))
        page.on("requestfinished", lambda request: pending.discard(request))
        page.on("requestfailed", lambda request: pending.discard(request))
        page.on("console", lambda message: "Content Security Policy" in message.text and
                self.blocked.append(message.text))

    def check(self, page, hidden_cards=()) -> str:
        """The page's HTML, after checking it shows no secret and none of the hidden cards' markers."""
        html = page.content()
        assert not self.blocked, f"the Content-Security-Policy blocked: {self.blocked}"
        for secret in self.secrets:
            assert secret not in html, "a token or an unrevealed seed is in the page"
            assert secret not in page.url
            assert not any(secret in url for url in self.urls), "a token or a seed was in a requested URL"
        for card in hidden_cards:
            assert f'data-card="{card}"' not in html, f"card {card} of another seat's hand is on the page"
        return html

    def shoot(self, page, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        # caret="initial": hiding the caret, Playwright injects an inline style the console's CSP refuses
        page.screenshot(path=str(path), full_page=True, caret="initial")
        self.shots.append(path)


def sign_in(page, base: str, token: str) -> None:
    """Paste the token on the sign-in page, as a person would."""
    page.goto(f"{base}/console/sign-in")
    page.fill("#token", token)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_selector("text=Signed in as")


def go(page, url: str) -> None:
    """Load a page. A console page refreshes itself once its match or tournament (its stream)
    moves on; a refresh that starts while the test navigates aborts the navigation (net::ERR_ABORTED): load it again."""
    try:
        page.goto(url)
    except Error as error:
        if "ERR_ABORTED" not in str(error):
            raise
        page.goto(url)


SHOWN = "(v) => document.querySelector('#version').textContent === String(v)"


def shown_version(page) -> int:
    return int(page.locator("#version").inner_text())


def wait_for_version_change(page, before: int, timeout: float = 15000) -> None:
    page.wait_for_function("(v) => { const e = document.querySelector('#version'); return e && e.textContent !== v }",
                           arg=str(before), timeout=timeout)


def text_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"-?\d+", text)]


def settle(page, watch: Watch, timeout: float = 15) -> None:
    """Wait until each request the page made but its stream's is answered: a seat's page that posted a move fetches
    the page twice (the post's redirect, and on its stream's message) and swaps in each, its buttons anew."""
    deadline = time.monotonic() + timeout
    while watch.pending[page] and time.monotonic() < deadline:
        page.wait_for_timeout(20)


def click_move(page, watch: Watch, button) -> None:
    """Click a move's button on a settled page and see the page post it. A click the page swallows all the same (a
    fresh copy of the buttons swapped in between the press and the release) posts nothing: it is clicked again."""
    settle(page, watch)
    for _ in range(3):
        try:
            with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/moves"), timeout=5000):
                button.click()
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("three clicks on a move's button posted nothing")


def moves_on(page) -> list[dict]:
    """The moves a seat's page offers, one a button, as each button's form posts it."""
    return [json.loads(m) for m in page.locator("button.move").evaluate_all(
        "bs => bs.map(b => b.form.elements.move.value)")]


def nearer_the_end(chooser: random.Random, moves: list[dict]) -> int:
    """The index of a random one of the Korona moves that bring the match's end nearest: a card placed (a completed
    combo ends the match), else cards drawn from the pile (an empty pile and market end it), else any. A 2-seat match
    so played ends after some 120 moves rather than 190 of any random move, with every kind of move still played."""
    def rank(move: dict) -> int:
        if move["type"] == "place":
            return 0
        return 1 if move["type"] in ("draw", "play") and "pile" in (move.get("source"), move.get("draw")) else 2

    best = min(map(rank, moves))
    return chooser.choice([i for i, move in enumerate(moves) if rank(move) == best])


# The fixtures the browser suites share, named herald, browser and watch: a test module imports herald_fixture,
# browser_fixture and watch_fixture (so that no test's argument shadows an import). Module-scoped, each module has its
# own Chromium and Herald: Playwright's sync API marks its event loop as running in the thread between its calls, which
# no other module's test should see.

@pytest.fixture(scope="module", name="herald")
def herald_fixture(redis_client):
    """Herald (SQLite, the test Redis) served on a free port; the app too, for the API calls the tests check with."""
    with console_app(redis_client, "console") as app:
        server = LiveServer(app)
        yield app, server.url
        server.stop()


@pytest.fixture(scope="module", name="browser")
def browser_fixture():
    with chromium() as launched:
        yield launched


@pytest.fixture(name="watch")
def watch_fixture():
    """The test's Watch; its browser contexts closed when it ends."""
    watching = Watch()
    yield watching
    watching.close()


def open_page(browser, watch: Watch, base: str, token: str | None, phone: bool = False):
    """A new browser context (its own cookies), signed in with the token when there is one."""
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 900}
    context = browser.new_context(viewport=size)
    watch.contexts.append(context)
    page = context.new_page()
    watch.follow(page)
    if token:
        sign_in(page, base, token)
        watch.check(page)
    return page


def credentials_of(api, table) -> set[str]:
    """A match's tokens, its referee's and its unrevealed server seed: what no page may show."""
    seed = api.get(f"/matches/{table.id}/audit", headers={"Authorization": f"Bearer {table.referee}"}).get_json()
    return {*table.tokens, table.referee, seed["server_seed"]}


def hands(view: dict, but: int) -> list[int]:
    """The cards in every hand except seat `but`'s, from the referee's view."""
    return [c["id"] for p in view["players"] if p["seat"] != but for c in p["hand"]]
