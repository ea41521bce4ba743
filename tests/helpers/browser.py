"""A real headless Chromium driven by Playwright against Herald served on a free port, with the checks every
visited page must pass (no token in a URL or in the HTML, no other seat's hand, no unrevealed seed) and a
screenshot of each page under var/screenshots/ for a reviewer."""
from __future__ import annotations

import re
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Error, sync_playwright
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
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
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

    def follow(self, page) -> None:
        page.on("request", lambda request: self.urls.append(request.url))
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


def shown_version(page) -> int:
    return int(page.locator("#version").inner_text())


def wait_for_version_change(page, before: int, timeout: float = 15000) -> None:
    page.wait_for_function("(v) => { const e = document.querySelector('#version'); return e && e.textContent !== v }",
                           arg=str(before), timeout=timeout)


def text_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"-?\d+", text)]
