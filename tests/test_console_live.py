"""The console's match pages follow the match's stream instead of polling (issue 43): the console's stream, signed in by
its cookie, is the holder's own GET /matches/{id}/stream; in Chromium two seats and a spectator follow a whole match
with no polling request, the pages that did not move updating within 1 s of a move; a clock a move starts counts
down on the open page."""
from __future__ import annotations

import random
import statistics
import time
from urllib.parse import urlsplit

import pytest

from tests.helpers.api import Table, assert_problem, auth, page_as, play_to_the_end
from tests.helpers.browser import (  # noqa: F401 (the fixtures herald, browser and watch)
    SHOWN,
    browser_fixture,
    chromium_path,
    click_move,
    credentials_of,
    go,
    hands,
    herald_fixture,
    moves_on,
    nearer_the_end,
    open_page,
    settle,
    shown_version,
    wait_for_version_change,
    watch_fixture,
)
from tests.helpers.console_forms import CLOCK, seconds
from tests.helpers.streams import messages

browsers = pytest.mark.skipif(chromium_path() is None, reason="no Chromium here: on Debian, `apt-get install chromium`")


def stream(client, table: Table, path: str, **headers) -> list[dict]:
    """A finished match's whole stream (it ends with the match)."""
    response = client.get(f"/matches/{table.id}/stream" if path == "api" else f"/console/matches/{table.id}/stream"
                          f"{path}", headers=headers)
    assert response.status_code == 200 and response.mimetype == "text/event-stream", response.get_data(as_text=True)
    return messages(response.response)


@pytest.fixture
def finished(sqlite_client):
    table = Table(sqlite_client, ["Ana", "Bo"], "korona")
    play_to_the_end(table, random.Random(43))
    return table


def test_the_console_stream_is_the_signed_in_holders_own(sqlite_client, finished):
    """Each seat's and the referee's console stream (its cookie, no token in the URL) is what GET /matches/{id}/stream
    tells its token; signed out, or signed in with another match's token, the spectator's; ?from= resumes after a
    version."""
    other = Table(sqlite_client, ["Cy", "Di"], "korona")
    for token in (*finished.tokens, finished.referee, None, other.tokens[0]):
        page_as(sqlite_client, finished, token)  # signs the client in with the token (out, for None)
        own = token if token in (*finished.tokens, finished.referee) else None
        expected = stream(sqlite_client, finished, "api", **(auth(own) if own else {}))
        assert expected and stream(sqlite_client, finished, "") == expected
        assert stream(sqlite_client, finished, "?from=5") == expected[5:]


def test_a_bad_resume_or_an_unknown_match_is_refused_with_a_problem(sqlite_client, finished):
    base = f"/console/matches/{finished.id}/stream"
    assert_problem(sqlite_client.get(f"{base}?from=-1"), 400)
    assert_problem(sqlite_client.get(f"{base}?from=soon"), 400)
    assert_problem(sqlite_client.get(base, headers={"Last-Event-ID": "x"}), 400)
    assert_problem(sqlite_client.get("/console/matches/00000000-0000-4000-8000-000000000000/stream"), 404)


def test_a_live_page_names_its_stream_and_polls_nothing(sqlite_client):
    """A live match's page gives console.js its stream and version, and no polling trigger; a past version's page
    and a finished match's name no stream."""
    table = Table(sqlite_client, ["Ana", "Bo"], "korona")
    seat = table.view()["awaiting_seat"]
    table.play(seat, table.moves(seat)[0])
    shown = page_as(sqlite_client, table, table.tokens[0])
    assert (f'data-stream="/console/matches/{table.id}/stream" data-from="{table.version()}"' in shown)
    assert "hx-trigger" not in shown and "/live" not in shown
    past = sqlite_client.get(f"/console/matches/{table.id}?version=1").get_data(as_text=True)
    assert 'id="live-stream"' in past and "data-stream" not in past
    play_to_the_end(table, random.Random(1))
    assert "data-stream" not in page_as(sqlite_client, table, None)


def requests_of(page, out: list) -> None:
    """Every request the page makes, as (method, path, query)."""
    page.on("request", lambda request: out.append((request.method, *urlsplit(request.url)[2:4])))


@browsers
def test_two_seats_and_a_spectator_follow_a_whole_match_by_its_streams_with_no_polling(herald, browser, watch):
    """Seats click legal moves (building moves first, for a shorter match) until Korona ends; after each move the
    pages that did not move (the other seat's, a spectator's) show the new version within 1 s, with the seat's legal
    moves and no other seat's hand. Reloaded at the end, a seat's page shows its GET /view's scores. Each page asked for nothing but its one stream, the page a message or a click
    fetches, the click's post and its static files: idle, nothing at all; the match over, its pages say so without a
    reload and their streams are closed."""
    app, base = herald
    api = app.test_client()
    table = Table(api, ["Ana", "Bo"], "korona")
    watch.secrets |= credentials_of(api, table)
    path = f"/console/matches/{table.id}"
    pages = [open_page(browser, watch, base, token) for token in (*table.tokens, None)]
    asked: list[list] = [[] for _ in pages]
    for page, log in zip(pages, asked):
        requests_of(page, log)
        go(page, f"{base}{path}")
    chooser, waits = random.Random(43), []
    while (ref := table.view())["status"] != "finished":
        seat, before = ref["awaiting_seat"], ref["version"]
        for page in pages:
            page.wait_for_function(SHOWN, arg=before)
        mover, others = pages[seat], [p for i, p in enumerate(pages) if i != seat]
        watch.check(mover, hands(ref, seat))
        buttons = mover.locator("button.move")
        legal = table.moves(seat)
        assert buttons.count() == len(legal), "the refreshed page's buttons are the seat's legal moves"
        assert moves_on(mover) == legal, "the refreshed page's buttons are the seat's legal moves"
        settle(mover, watch)  # the mover's page has swapped in both its fetches of the last move
        if len(waits) in (0, 40):
            watch.shoot(mover, f"match-seat-{seat}-move-{len(waits)}")
        started = time.monotonic()
        click_move(mover, watch, buttons.nth(nearer_the_end(chooser, legal)))
        for page in others:
            wait_for_version_change(page, before, timeout=1000)
        waits.append(time.monotonic() - started)
        wait_for_version_change(mover, before)
        if len(waits) == 10:
            quiet = [len(log) for log in asked]
            pages[0].wait_for_timeout(2500)  # longer than the poll the pages had (every 2 s)
            assert [len(log) for log in asked] == quiet, "an idle page asks for nothing"
    watch.secrets.discard(api.get(f"/matches/{table.id}/audit", headers=auth(table.referee)).get_json()["server_seed"])
    for page in pages:
        page.wait_for_selector("text=Finished. Won by")
        watch.check(page)
        assert page.locator("button.move").count() == 0 and page.locator("[data-stream]").count() == 0
    print(f"other pages updated {statistics.median(waits) * 1000:.0f} ms (median), {max(waits) * 1000:.0f} ms "
          f"(max) after the click, over {len(waits)} moves")
    for log in asked:
        streams = [q for m, p, q in log if p == f"{path}/stream"]
        assert len(streams) == 1 and streams[0].startswith("from="), "one stream a page, never reopened"
        others = {(m, p) for m, p, q in log if p != f"{path}/stream" and not p.startswith("/console/static/")}
        assert others <= {("GET", path), ("POST", f"{path}/moves")}, others
    for seat, page in enumerate(pages[:2]):  # each seat's page reloaded: its scores are its GET /view's
        go(page, f"{base}{path}")
        watch.check(page)
        final = table.view(table.tokens[seat])
        shown = [int(page.locator(f'[data-seat="{p["seat"]}"] .score').inner_text()) for p in final["players"]]
        assert shown == [p["score"] for p in final["players"]]
        assert "Finished. Won by" in page.content() and page.locator("button.move").count() == 0
    watch.shoot(pages[0], "match-finished")
    assert len(waits) > 20


@browsers
def test_a_clock_a_move_starts_counts_down_on_the_open_page(herald, browser, watch):
    """A move posted through the API (not from the page) stops the mover's clock on the other seat's open page and
    starts the other's, counting down from the deadline the view gives."""
    app, base = herald
    api = app.test_client()
    table = Table(api, ["Ana", "Bo"], "korona", options=CLOCK)
    watch.secrets |= credentials_of(api, table)
    seat = table.view()["awaiting_seat"]
    page = open_page(browser, watch, base, table.tokens[1 - seat])
    go(page, f"{base}/console/matches/{table.id}")
    while table.view()["awaiting_seat"] == seat:  # the seat's turn ends after its actions
        before = shown_version(page)
        table.play(seat, table.moves(seat)[0])
        page.wait_for_function(SHOWN, arg=table.version())
        assert shown_version(page) > before
    now = table.view()["clocks"]
    running = page.locator(f'.clock.running[data-seat="{1 - seat}"] .left')
    assert running.get_attribute("data-deadline") == now[1 - seat]["deadline"]
    assert page.locator(f'.clock[data-seat="{seat}"] .left').get_attribute("data-deadline") is None
    first = seconds(running.inner_text())
    page.wait_for_function("(s) => document.querySelector('.clock.running .left').textContent !== s",
                           arg=running.inner_text(), timeout=5000)
    assert seconds(running.inner_text()) < first <= 600
    watch.check(page)


@browsers
def test_what_a_seat_is_typing_stays_when_the_page_follows_a_move(herald, browser, watch):
    """The waiting seat types a claim (the field focused) while the other seat moves: the page swaps in the new
    version, the claim still typed and focused; a field the seat did not touch shows the new page's value."""
    app, base = herald
    api = app.test_client()
    table = Table(api, ["Ana", "Bo"], "korona")
    watch.secrets |= credentials_of(api, table)
    seat = table.view()["awaiting_seat"]
    page = open_page(browser, watch, base, table.tokens[1 - seat])
    go(page, f"{base}/console/matches/{table.id}")
    page.fill("#dispute-claim", "the shuffle dealt me three Shields")
    table.play(seat, table.moves(seat)[0])
    page.wait_for_function(SHOWN, arg=table.version())
    assert page.input_value("#dispute-claim") == "the shuffle dealt me three Shields"
    assert page.evaluate("document.activeElement.id") == "dispute-claim"
    assert page.input_value("#dispute-version") == str(table.version()), "the untouched field is the new page's"
    watch.check(page)
