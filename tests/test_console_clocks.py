"""The console's match clocks in a real headless Chromium (issue 42: "the console shows clocks counting down"): the
running clock counts down from its deadline with no request to the server meanwhile, the others stand still, and the
referee adds time through the page's form. The pages without a browser: tests/test_console_clock_pages.py."""
from __future__ import annotations

import pytest

from tests.helpers.api import Table
from tests.helpers.browser import (  # noqa: F401 (the fixtures herald, browser and watch)
    browser_fixture,
    chromium_path,
    credentials_of,
    go,
    herald_fixture,
    open_page,
    watch_fixture,
)
from tests.helpers.console_forms import CLOCK, seconds

if chromium_path() is None:
    pytest.skip("browser tests (tests/test_console_clocks.py) not run: no Chromium here; on Debian, `apt-get install "
                "chromium` (make test does it when run as root)", allow_module_level=True)


def test_the_running_clock_counts_down_in_the_browser_and_the_referee_adds_time(herald, browser, watch):
    """The referee's page shows the first player's running clock lower a second or more later, the browser having
    asked the server for nothing (the page polls nothing); the other's stands still at 10:00. Two minutes added
    through the form are in the view, the timeline and the clock the page then counts down."""
    app, base = herald
    api = app.test_client()
    table = Table(api, ["Ana", "Bo"], "korona", options=CLOCK)
    watch.secrets |= credentials_of(api, table)
    seat = table.view()["awaiting_seat"]
    name = ["Ana", "Bo"][seat]
    browsing = open_page(browser, watch, base, table.referee)
    go(browsing, f"{base}/console/matches/{table.id}")
    running = browsing.locator(f'.clock.running[data-seat="{seat}"] .left')
    browsing.wait_for_load_state("networkidle")
    first = running.inner_text()
    asked = len(watch.urls)
    browsing.wait_for_function("(before) => document.querySelector('.clock.running .left').textContent !== before",
                               arg=first, timeout=5000)
    browsing.wait_for_timeout(1100)  # at least one more second's tick
    assert seconds(running.inner_text()) < seconds(first) <= 600
    assert watch.urls[asked:] == [], "the countdown asks nothing"
    assert browsing.locator(f'.clock[data-seat="{1 - seat}"] .left').inner_text() == "10:00"
    watch.shoot(browsing, "clock-counting-down")

    before = seconds(running.inner_text())
    browsing.select_option("#clock-seat", str(seat))
    browsing.fill("#clock-add", "120")
    browsing.fill("#clock-reason", "a table fell over")
    browsing.get_by_role("button", name="Add time").click()
    browsing.wait_for_selector(f"text=added 2:00 to {name}'s clock: a table fell over")
    shown = seconds(running.inner_text())
    assert before + 100 < shown <= before + 120
    added = table.view()["clocks"][seat]
    assert added["running"] and before + 100 < added["remaining_s"] <= 720
    watch.check(browsing)
    watch.shoot(browsing, "clock-time-added")
