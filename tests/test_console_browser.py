"""The console in a real headless Chromium (issue 20): an undo is requested and approved, a dispute is ruled, an
organiser runs a Swiss round (a whole Korona match played by clicking: tests/test_console_live.py); every page visited
shows no token, no other seat's hand and no unrevealed seed; each page's screenshot is kept under var/screenshots/."""
from __future__ import annotations

import random

import pytest

from tests.helpers.api import Table, auth
from tests.helpers.browser import (  # noqa: F401 (the fixtures herald, browser and watch)
    browser_fixture,
    chromium_path,
    credentials_of,
    go,
    hands,
    herald_fixture,
    nearer_the_end,
    open_page,
    settle,
    shown_version,
    wait_for_version_change,
    watch_fixture,
)

CHROMIUM = chromium_path()
if CHROMIUM is None:
    pytest.skip("browser tests (tests/test_console_browser.py) not run: no Chromium here; on Debian, `apt-get install "
                "chromium` (make test does it when run as root)", allow_module_level=True)


def test_a_seat_asks_for_an_undo_the_referee_approves_and_the_slider_replays_a_version(herald, browser, watch):
    """The undo request goes from the seat's page to the referee's, is approved with a reason; moved to a version,
    the slider shows the table GET /replay?version=N shows that token."""
    app, base = herald
    api = app.test_client()
    table = Table(api, ["Ana", "Bo"], "korona")
    watch.secrets |= credentials_of(api, table)
    url = f"{base}/console/matches/{table.id}"
    seat = table.view()["current_seat"]
    player = open_page(browser, watch, base, table.tokens[seat])
    referee = open_page(browser, watch, base, table.referee)
    go(player, url)
    before = shown_version(player)
    player.get_by_role("button", name="Draw: source pile").click()
    wait_for_version_change(player, before)
    settle(player, watch)  # both fetches the move brings swapped in: a later swap would drop what is typed
    drawn = shown_version(player)
    player.fill("#undo-to", str(before))
    player.fill("#undo-reason", "I meant to take the Knight from the market")
    player.get_by_role("button", name="Request undo").click()
    player.wait_for_selector("text=pending")
    watch.check(player, hands(table.view(), seat))
    go(referee, url)
    watch.check(referee)
    watch.shoot(referee, "referee-undo-request")
    referee.fill("input[id^=answer-]", "a misclick, approved")
    referee.get_by_role("button", name="Approve").click()
    referee.wait_for_selector(f"text=The referee backed the match up to version {before}")
    [answered] = api.get(f"/matches/{table.id}/undo-requests", headers=auth(table.referee)).get_json()
    assert answered["status"] == "approved"
    assert table.view()["players"][seat]["hand_count"] == 5

    go(player, url)
    slider = player.locator("#version-slider")
    slider.focus()
    player.keyboard.press("Home")
    for _ in range(drawn - 1):
        player.keyboard.press("ArrowRight")
    assert player.locator("output[for=version-slider]").inner_text() == str(drawn), "console.js follows the slider"
    player.get_by_role("button", name="Show", exact=True).click()
    player.wait_for_selector(f"text=You are looking at version {drawn}")
    html = watch.check(player)
    watch.shoot(player, "slider-at-a-past-version")
    replay = table.get(f"/replay?version={drawn}", table.tokens[seat]).get_json()
    mine = replay["players"][seat]
    assert replay["retracted"] is True and "(later undone)" in html
    assert [int(c) for c in player.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")] == \
        [c["id"] for c in mine["hand"]]
    assert [int(c) for c in player.locator('[aria-label="Market"] .card').evaluate_all(
        "cs => cs.map(c => c.dataset.card)")] == [c["id"] for c in replay["market"]]
    assert f"Draw pile: {replay['draw_pile_count']} cards" in html
    assert len(mine["hand"]) == 7


def test_a_seat_disputes_an_event_and_the_referees_ruling_is_in_the_timeline(herald, browser, watch):
    """The dispute is opened on the seat's page, ruled on the referee's, and told in both timelines: the seat's open
    page updates by itself (the match's stream) when the ruling is recorded."""
    app, base = herald
    api = app.test_client()
    table = Table(api, ["Ana", "Bo", "Cy"], "korona")
    watch.secrets |= credentials_of(api, table)
    url = f"{base}/console/matches/{table.id}"
    player = open_page(browser, watch, base, table.tokens[1], phone=True)
    referee = open_page(browser, watch, base, table.referee)
    go(player, url)
    player.fill("#dispute-version", "2")
    player.fill("#dispute-claim", "the shuffle dealt me three Shields in a row")
    player.get_by_role("button", name="Open dispute").click()
    player.wait_for_selector("text=disputed version 2")
    watch.check(player, hands(table.view(), 1))
    watch.shoot(player, "seat-on-a-phone-after-a-dispute")
    go(referee, url)
    referee.select_option("select[name=ruling]", "rejected")
    referee.fill("input[name=explanation]", "the shuffle recomputes from the committed seed")
    referee.get_by_role("button", name="Rule", exact=True).click()
    referee.wait_for_selector("text=The referee rejected dispute")
    watch.shoot(referee, "referee-after-a-ruling")
    player.wait_for_selector("text=The referee rejected dispute", timeout=15000)  # the seat's page follows its stream
    timeline = player.locator(".timeline").inner_text()
    assert "rejected dispute" in timeline and "the shuffle recomputes from the committed seed" in timeline
    watch.check(player, hands(table.view(), 1))


def test_the_organiser_runs_a_swiss_round_and_watches_the_standings_update(herald, browser, watch):
    """From the tournament page the organiser pairs round 1 of a 4-player Swiss; as bots finish the matches the
    standings on the open page update by themselves (htmx polling), equal to GET /standings."""
    app, base = herald
    api = app.test_client()
    created = api.post("/tournaments", json={"name": "Browser Swiss", "game": "korona", "format": "swiss",
                                             "rounds": 2, "table_size": 2, "top_cut": 0}).get_json()
    tid, organiser = created["tournament_id"], created["organiser_token"]
    tokens = {}
    for name in ("Ana", "Bo", "Cy", "Di"):
        body = api.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser)).get_json()
        tokens[body["player_id"]] = body["token"]
    watch.secrets |= {organiser, *tokens.values()}
    page = open_page(browser, watch, base, organiser)
    watch.shoot(page, "organiser-home")
    go(page, f"{base}/console/tournaments/{tid}")
    page.get_by_role("button", name="Pair the next round").click()
    page.wait_for_selector("text=round 1 of 2")
    watch.check(page)
    watch.shoot(page, "tournament-round-1-paired")
    [round_] = [api.get(f"/tournaments/{tid}/rounds/1").get_json()]
    assert len(round_["tables"]) == 2
    chooser = random.Random(4)
    for finished, table in enumerate(round_["tables"], start=1):
        bots_play(api, table["match_id"], [tokens[p] for p in table["players"]], chooser)
        standings = api.get(f"/tournaments/{tid}/standings").get_json()["standings"]
        expected = sorted(int(row["points"]) for row in standings)
        assert sum(expected) in (3 * finished, 2 * finished + 1, finished * 2)  # a win gives 3, a draw 1 each
        page.wait_for_function(
            "(want) => [...document.querySelectorAll('.standings .points')].map(e => +e.textContent)"
            ".sort((a, b) => a - b).join() === want", arg=",".join(map(str, expected)), timeout=20000)
        watch.check(page)
    watch.shoot(page, "tournament-standings-after-round-1")
    assert page.locator(".tables td", has_text="playing").count() == 0, "both results are on the page"


def bots_play(api, match_id: str, tokens: list[str], chooser: random.Random) -> None:
    """Bots: the awaited seat plays a random legal move, building moves first, until the match ends."""
    while (view := api.get(f"/matches/{match_id}/view", headers=auth(tokens[0])).get_json())["status"] != "finished":
        token = tokens[view["awaiting_seat"]]
        moves = api.get(f"/matches/{match_id}/legal-moves", headers=auth(token)).get_json()["moves"]
        move = moves[nearer_the_end(chooser, moves)]
        assert api.post(f"/matches/{match_id}/moves", json=move, headers=auth(token)).status_code == 200


def test_a_spectator_watches_without_a_token_and_sees_no_hand(herald, browser, watch):
    """Any match's public view and timeline, no token: hand counts, no hand, no seed; the home page lists it."""
    app, base = herald
    api = app.test_client()
    table = Table(api, ["Ana", "Bo"], "korona")
    watch.secrets |= credentials_of(api, table)
    page = open_page(browser, watch, base, None)
    go(page, f"{base}/console/")
    page.click(f'a[href="/console/matches/{table.id}"]')
    page.wait_for_selector("text=You are a spectator")
    html = watch.check(page, hands(table.view(), -1))
    assert "Hand</h4>" not in html and "cards in hand" in html
    assert "Ana was dealt 5 cards:" not in html
    watch.shoot(page, "spectator")


@pytest.mark.parametrize("game, players", [("crusader_kingdoms", ["Ana", "Bo", "Cy"]),
                                           ("for_a_crown", ["Ana", "Bo", "Cy"]), ("kingdom_tcg", ["Ana", "Bo"])])
def test_each_games_table_is_drawn_for_a_seat_without_the_others_secrets(herald, browser, watch, game, players):
    """Crusader Kingdoms, For a Crown and Kingdom TCG drawn for the awaited seat mid-match: its legal moves as
    buttons, no other seat's hand or unseen recruit; and for the referee; a screenshot of each."""
    app, base = herald
    api = app.test_client()
    table, chooser, played = None, random.Random(6), 0
    while played < 30 or table.view()["awaiting_seat"] is None:
        if table is None or table.view()["awaiting_seat"] is None:  # a Kingdom TCG match can end within 30 moves
            table = Table(api, players, game)
            watch.secrets |= credentials_of(api, table)
        seat = table.view()["awaiting_seat"]
        table.play(seat, chooser.choice(table.moves(seat)))
        played += 1
    ref = table.view()
    seat = ref["awaiting_seat"]
    page = open_page(browser, watch, base, table.tokens[seat])
    go(page, f"{base}/console/matches/{table.id}")
    hidden = [c["id"] for p in ref.get("players", []) + ref.get("kingdoms", []) if p.get("seat") != seat
              for c in p.get("hand", []) + p.get("unrevealed_recruits", [])]
    watch.check(page, hidden)
    assert page.locator("button.move").count() == len(table.moves(seat))
    watch.shoot(page, f"{game}-seat")
    referee = open_page(browser, watch, base, table.referee)
    go(referee, f"{base}/console/matches/{table.id}")
    watch.check(referee)
    watch.shoot(referee, f"{game}-referee")
