"""The console's match clocks through Flask's test client (issue 42): only the running clock carries a deadline for
console.js to count down from (tests/test_console_clocks.py watches it do so in Chromium); a clock that does not run,
or a past version's, stands still; the referee pauses and restarts the clocks from the page with a reason."""
from __future__ import annotations

import re

import pytest

from tests.helpers.api import Table, auth
from tests.helpers.console_forms import CLOCK, alert, page, post_form, seconds, sign_in_form


def clock_texts(html: str) -> dict[int, str]:
    """Each seat's clock on a server-rendered match page, by seat."""
    return {int(seat): left for seat, left in
            re.findall(r'data-seat="(\d)">[^<]*<span class="left"[^>]*>([^<]*)</span>', html)}


@pytest.fixture
def clocked(sqlite_client):
    return Table(sqlite_client, ["Ana", "Bo"], "korona", options=CLOCK)


def test_a_clock_that_does_not_run_and_a_past_versions_clocks_stand_still(sqlite_client, clocked):
    """Only the running clock carries a deadline to count down from; at a past version the clock that ran then shows
    the time it had, without one; a match without a clock shows no clocks."""
    seat = clocked.view()["awaiting_seat"]
    shown = page(sqlite_client, f"/console/matches/{clocked.id}")
    assert shown.count("data-deadline=") == 1
    assert re.search(rf'data-seat="{seat}">[^<]*<span[^>]*data-deadline=', shown)
    assert clock_texts(shown)[1 - seat] == "10:00" and seconds(clock_texts(shown)[seat]) <= 600
    clocked.play(seat, clocked.moves(seat)[0])
    sign_in_form(sqlite_client, clocked.tokens[0])
    past = page(sqlite_client, f"/console/matches/{clocked.id}?version={clocked.version() - 2}")
    assert "Clocks at version" in past and "data-deadline=" not in past
    assert "was running" in past
    plain = Table(sqlite_client, ["Ana", "Bo"], "korona")
    assert 'class="clocks"' not in page(sqlite_client, f"/console/matches/{plain.id}")


def test_the_referee_pauses_and_restarts_the_clocks_with_a_reason(sqlite_client, clocked):
    """Paused, no clock counts down and the form offers a restart; restarted, the awaited seat's runs again. Seats
    are not offered the form, and a reason of spaces is refused with the API's own reason, nothing changed."""
    sign_in_form(sqlite_client, clocked.tokens[0])
    assert "Add time" not in page(sqlite_client, f"/console/matches/{clocked.id}")
    sign_in_form(sqlite_client, clocked.referee)
    path = f"/console/matches/{clocked.id}/clock/pause"
    refused = post_form(sqlite_client, path, {"paused": "true", "reason": "   "})
    assert refused.status_code == 400 and "blank" in alert(refused.get_data(as_text=True))
    assert any(c["running"] for c in clocked.view()["clocks"])

    assert post_form(sqlite_client, path, {"paused": "true", "reason": "a fire drill"}).status_code == 303
    shown = page(sqlite_client, f"/console/matches/{clocked.id}")
    assert "Clocks (paused)" in shown and "data-deadline=" not in shown and "Restart the clocks" in shown
    assert not any(c["running"] for c in clocked.view()["clocks"])

    assert post_form(sqlite_client, path, {"paused": "false", "reason": "back to play"}).status_code == 303
    shown = page(sqlite_client, f"/console/matches/{clocked.id}")
    assert "Pause the clocks" in shown and shown.count("data-deadline=") == 1
    timeline = sqlite_client.get(f"/matches/{clocked.id}/timeline", headers=auth(clocked.referee)).get_json()
    said = [entry["summary"] for entry in timeline]
    assert "The referee paused the clocks: a fire drill" in said and "The referee restarted the clocks: back to play" \
        in said
