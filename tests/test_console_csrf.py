"""The console's forms cannot be forged from another site (issue 41): in a real headless Chromium, a page of another
origin (another port of 127.0.0.1, which the browser sends the SameSite cookies to all the same) posts a dispute and
a move with the seat's cookie, and a page of another site (localhost) signs the browser in with the attacker's token:
each is refused with 403 and changes nothing. Every console page carries the security headers and cannot be framed;
no page of the browser suites trips the Content-Security-Policy (tests/helpers/browser.py's Watch)."""
from __future__ import annotations

import json

import pytest

from tests.helpers.api import Table, auth
from tests.helpers.browser import LiveServer, Watch, chromium, chromium_path, console_app, go, pages_app, sign_in
from tests.helpers.console_forms import SECURITY_HEADERS

CHROMIUM = chromium_path()
if CHROMIUM is None:
    pytest.skip("browser tests (tests/test_console_csrf.py) not run: no Chromium here; on Debian, `apt-get install "
                "chromium` (make test does it when run as root)", allow_module_level=True)

ATTACKER: dict[str, str] = {}  # the other origin's pages, path -> HTML, set by each test


@pytest.fixture(scope="module")
def herald(redis_client):
    """Herald on one free port of 127.0.0.1, and another origin's server on a second one."""
    with console_app(redis_client, "csrf") as app:
        server, other = LiveServer(app), LiveServer(pages_app(ATTACKER))
        yield app, server.url, other.server.server_port
        other.stop()
        server.stop()


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def new_page(browser, watch: Watch):
    page = browser.new_context().new_page()
    watch.follow(page)
    return page


def auto_post(action: str, fields: dict) -> str:
    """A page that posts a form to `action` as soon as it is opened, as a page an attacker controls would."""
    inputs = "".join(f"<input type=hidden name={name} value='{value}'>" for name, value in fields.items())
    return (f"<!doctype html><form id=f method=post action='{action}'>{inputs}</form>"
            "<script>document.getElementById('f').submit()</script>")


def forged(page, target: str, attacker_url: str):
    """Open the attacker's page; the answer Herald gave the form it posted to `target`."""
    with page.expect_response(lambda response: response.url == target and response.request.method == "POST") as got:
        page.goto(attacker_url)
    return got.value


def test_a_dispute_and_a_move_posted_from_another_origin_are_refused_and_change_nothing(herald, browser):
    """The seat is signed in on Herald's origin; a page on another port of 127.0.0.1 posts a dispute, then the seat's
    next legal move with the right expected_version: the browser sends the seat's cookie (same site), Herald answers
    403 with its reason, and the match records neither. The seat's own buttons still work afterwards."""
    app, base, other_port = herald
    api = app.test_client()
    table = Table(api, ["Ana", "Bo"], "korona")
    seat = table.view()["current_seat"]
    watch = Watch()
    page = new_page(browser, watch)
    sign_in(page, base, table.tokens[seat])
    version, move = table.version(), table.moves(seat)[0]
    match = f"{base}/console/matches/{table.id}"
    ATTACKER["/dispute"] = auto_post(f"{match}/disputes", {"version": 2, "claim": "forged by another origin"})
    ATTACKER["/move"] = auto_post(f"{match}/moves", {"move": json.dumps(move).replace("'", "&#39;"),
                                                      "expected_version": version})
    for path, action in (("/dispute", "disputes"), ("/move", "moves")):
        answer = forged(page, f"{match}/{action}", f"http://127.0.0.1:{other_port}{path}")
        assert answer.status == 403
        assert answer.request.header_value("origin") == f"http://127.0.0.1:{other_port}"
        assert "sent from another site" in page.locator("[role=alert]").inner_text()
    assert api.get(f"/matches/{table.id}/disputes", headers=auth(table.referee)).get_json() == []
    assert table.version() == version
    go(page, match)
    page.get_by_role("button", name="Open dispute").wait_for()
    page.fill("#dispute-claim", "a real claim, from the console's own page")
    page.get_by_role("button", name="Open dispute").click()
    page.wait_for_selector("text=disputed version")
    [opened] = api.get(f"/matches/{table.id}/disputes", headers=auth(table.referee)).get_json()
    assert opened["claim"] == "a real claim, from the console's own page"
    watch.check(page)


def test_a_sign_in_posted_from_another_site_is_refused_and_signs_no_one_in(herald, browser):
    """Login CSRF: a page of another site (localhost, not 127.0.0.1) posts the attacker's own seat token to the
    sign-in form; the browser stays signed out, holding no token cookie."""
    app, base, other_port = herald
    attacker_token = Table(app.test_client(), ["Mallory", "Bo"], "korona").tokens[0]
    watch = Watch()
    page = new_page(browser, watch)
    go(page, f"{base}/console/")
    ATTACKER["/sign-in"] = auto_post(f"{base}/console/sign-in", {"token": attacker_token})
    answer = forged(page, f"{base}/console/sign-in", f"http://localhost:{other_port}/sign-in")
    assert answer.status == 403
    assert answer.request.header_value("sec-fetch-site") == "cross-site"
    assert not [c for c in page.context.cookies() if c["name"] == "herald_token"]
    go(page, f"{base}/console/")
    assert "Signed in as" not in watch.check(page)


def test_every_console_page_carries_the_security_headers_and_none_can_be_framed(herald, browser):
    """The home, sign-in, match, tournament and refusal pages and the console's script, each as the browser received
    it; another origin's page that frames the sign-in page gets no form in its frame."""
    app, base, other_port = herald
    api = app.test_client()
    table = Table(api, ["Ana", "Bo"], "korona")
    tournament = api.post("/tournaments", json={"name": "Headers Swiss", "game": "korona", "format": "swiss",
                                                "rounds": 1, "table_size": 2, "top_cut": 0}).get_json()
    watch = Watch()
    page = new_page(browser, watch)
    sign_in(page, base, table.tokens[0])
    for path, status in (("/console/", 200), ("/console/sign-in", 200), (f"/console/matches/{table.id}", 200),
                         (f"/console/tournaments/{tournament['tournament_id']}", 200),
                         ("/console/matches/00000000-0000-0000-0000-000000000000", 404),
                         ("/console/static/console.js", 200)):
        answer = page.goto(base + path)
        assert answer.status == status, path
        headers = answer.all_headers()
        for name, value in SECURITY_HEADERS.items():
            assert value in headers.get(name, ""), f"{path}: {name} is {headers.get(name)!r}"
    go(page, f"{base}/console/matches/{table.id}")
    watch.check(page)  # nothing the page loads or runs was blocked
    ATTACKER["/frame"] = f"<!doctype html><iframe src='{base}/console/sign-in'></iframe>"
    page.goto(f"http://127.0.0.1:{other_port}/frame")
    page.wait_for_load_state("load")
    assert page.frame_locator("iframe").locator("#token").count() == 0, "the sign-in form was framed"
