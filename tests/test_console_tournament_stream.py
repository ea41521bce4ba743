"""The console's tournament page follows the tournament's stream instead of polling (issue 43): the console's stream,
signed in by its cookie, is the holder's own GET /tournaments/{id}/stream; in Chromium the organiser's, a player's
and a spectator's pages show each pairing and result as it is recorded, with no polling request."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.helpers.api import assert_problem, auth
from tests.helpers.browser import (  # noqa: F401 (the fixtures herald, browser and watch)
    browser_fixture,
    chromium_path,
    go,
    herald_fixture,
    open_page,
    watch_fixture,
)
from tests.helpers.console_forms import post_form, sign_in_form
from tests.helpers.streams import messages
from tests.helpers.tournaments import entered, first_seat_wins, paired

browsers = pytest.mark.skipif(chromium_path() is None, reason="no Chromium here: on Debian, `apt-get install chromium`")


def whole_stream(client, path: str, **headers) -> list[dict]:
    """A finished tournament's whole stream (it ends with the tournament)."""
    response = client.get(path, headers=headers)
    assert response.status_code == 200 and response.mimetype == "text/event-stream", response.get_data(as_text=True)
    return messages(response.response)


def test_the_console_stream_is_the_signed_in_holders_own(sqlite_client):
    """The organiser's and each player's console stream (its cookie) is what GET /tournaments/{id}/stream tells its
    token; signed out, the public one; ?from= resumes after a version; a bad resume or an unknown tournament is
    refused with a problem."""
    tid, organiser, tokens = entered(sqlite_client, 4, rounds=1)
    first_seat_wins(sqlite_client, tid, organiser, paired(sqlite_client, tid, organiser))
    path = f"/console/tournaments/{tid}/stream"
    for token in (organiser, *tokens.values(), None):
        post_form(sqlite_client, "/console/sign-out")
        if token:
            sign_in_form(sqlite_client, token)
        expected = whole_stream(sqlite_client, f"/tournaments/{tid}/stream", **(auth(token) if token else {}))
        assert expected and whole_stream(sqlite_client, path) == expected
        assert [m["version"] for m in whole_stream(sqlite_client, f"{path}?from=5")] == \
            [m["version"] for m in expected[5:]]
    assert_problem(sqlite_client.get(f"{path}?from=-1"), 400)
    assert_problem(sqlite_client.get(path, headers={"Last-Event-ID": "x"}), 400)
    assert_problem(sqlite_client.get("/console/tournaments/00000000-0000-4000-8000-000000000000/stream"), 404)


def test_a_live_tournament_page_names_its_stream_and_polls_nothing(sqlite_client):
    """A running tournament's page gives console.js its stream and version, and no polling trigger; a finished one's
    names no stream."""
    tid, organiser, _ = entered(sqlite_client, 4, rounds=1)
    round_ = paired(sqlite_client, tid, organiser)
    version = len(sqlite_client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"])
    shown = sqlite_client.get(f"/console/tournaments/{tid}").get_data(as_text=True)
    assert f'data-stream="/console/tournaments/{tid}/stream"\n     data-from="{version}"' in shown
    assert "hx-trigger" not in shown and "/live" not in shown
    first_seat_wins(sqlite_client, tid, organiser, round_)
    finished = sqlite_client.get(f"/console/tournaments/{tid}").get_data(as_text=True)
    assert 'id="live-stream"' in finished and "data-stream" not in finished


@browsers
def test_organiser_player_and_spectator_pages_follow_the_tournament_with_no_polling(herald, browser, watch):
    """Each round paired and each result recorded (through the API, not from the pages) shows on the organiser's, a
    player's and a spectator's open pages without a reload; each page asked for nothing but its one stream, the page
    a message fetches and its static files; once the tournament is over, its pages say so and close their streams."""
    app, base = herald
    api = app.test_client()
    tid, organiser, tokens = entered(api, 4, rounds=2)
    watch.secrets |= {organiser, *tokens.values()}
    path = f"/console/tournaments/{tid}"
    pages = [open_page(browser, watch, base, token) for token in (organiser, next(iter(tokens.values())), None)]
    asked: list[list] = [[] for _ in pages]
    for page, log in zip(pages, asked):
        page.on("request", lambda request, log=log: log.append((request.method, *urlsplit(request.url)[2:4])))
        go(page, f"{base}{path}")
    for number in (1, 2):
        round_ = paired(api, tid, organiser)
        for page in pages:
            page.wait_for_selector(f"text=round {number} of 2", timeout=5000)
        first_seat_wins(api, tid, organiser, round_)
        for page in pages:
            page.wait_for_selector(f"text=Standings after round {number}", timeout=5000)
            watch.check(page)
    for page in pages:
        page.wait_for_selector("text=finished, round 2 of 2", timeout=5000)
        assert page.locator("[data-stream]").count() == 0
    for log in asked:
        streams = [q for m, p, q in log if p == f"{path}/stream"]
        assert len(streams) == 1 and streams[0].startswith("from="), "one stream a page, never reopened"
        others = {(m, p) for m, p, q in log if p != f"{path}/stream" and not p.startswith("/console/static/")}
        assert others == {("GET", path)}, others
