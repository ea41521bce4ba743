"""For a Crown's table on the console's match page (domain/for_a_crown/templates/table.html), for each seat, the
referee and a spectator, at points of a random 3-player match: the recruitment, a payment for a card taken from the
top of a deck, the reveal, the end. Each page draws its viewer's GET /view (the spectator's GET /spectator-view): the
Gallery in order, the Royal Square's cost tiles, face-up Mercenaries and deck counts, the shared deck and the cards
revealed, each family's Bandits, Heirloom and (its own, or the referee's) chest, whose decision is awaited and what
it is. What views.py keeps from a viewer stays off its page: "chests only one's own (the referee all), a
top-of-deck recruit only its recruiter's until revealed, no deck's order"."""
from __future__ import annotations

import random
import re

from tests.helpers.api import Table, page_as, play_until, view_as

PLAYERS = ["Ana", "Bo", "Cy"]


def between(html: str, start: str, end: str) -> str:
    first = html.index(start)
    return html[first:html.index(end, first)]


def seat_sections(html: str) -> dict[int, str]:
    """Each family's section of the table, by seat."""
    found = re.findall(r'<section class="seat zone" aria-label="[^"]*" data-seat="(\d+)">(.*?)</section>', html,
                       re.DOTALL)
    return {int(seat): body for seat, body in found}


def marks(cards) -> set[str]:
    return {f'data-card="{c["id"]}"' for c in cards}


def face_down(ref: dict) -> list[dict]:
    """Every face-down card of the referee's view: the level decks, the shared deck, the Event stack, and each
    family's recruits from the top of a deck not yet revealed."""
    decks = [c for deck in ref["decks"].values() for c in deck]
    recruits = [c for p in ref["players"] for c in p["unrevealed_recruits"]]
    return decks + ref["shared_deck"] + ref["event_stack"] + recruits


def unknown_to(ref: dict, seat) -> set[str]:
    """The markers of the face-down cards a seat (None: a spectator) did not recruit itself from a deck."""
    own = marks(ref["players"][seat]["unrevealed_recruits"]) if seat is not None else set()
    return marks(face_down(ref)) - own


def family(view: dict, seat: int) -> str:
    return f'{view["players"][seat]["family"]} ({view["players"][seat]["name"]})'


def check_table(html: str, view: dict) -> None:
    """The page draws the view it was made from: round, awaited seat, pending decision, Gallery, Royal Square,
    shared deck, families, reserve, result."""
    board = between(html, '<div class="board">', "<aside>")
    assert f"Round {view['round']} of 4" in board
    if view["awaiting_seat"] is not None:
        assert f'waiting for <strong class="awaited">{family(view, view["awaiting_seat"])}</strong>' in board
    pending = view["pending"]
    assert ('aria-label="Pending decision"' in board) == bool(pending)
    if pending and pending["kind"] == "pay":
        assert f"Paying {pending['cost']} " in board
    if view["status"] == "finished":
        won = " and ".join(family(view, w) for w in view["winners"])
        assert f"<strong>Finished. Won by {won}.</strong>" in board

    gallery = between(board, 'aria-label="Gallery"', 'aria-label="Royal Square"')
    cells = re.findall(r"<td[^>]*>(.*?)</td>", gallery)
    assert cells == ["empty" if s is None else view["players"][s]["family"] for s in view["gallery"]["spaces"]]
    assert [int(s) for s in re.findall(r'data-portrait="(\d+)"', gallery)] == \
        [s for s in view["gallery"]["spaces"] if s is not None]
    for name in ("Left section", "Middle section", "Right section"):
        assert name in gallery

    square = between(board, 'aria-label="Royal Square"', 'aria-label="Shared deck"')
    for column in view["royal_square"]:
        part = between(square, f'aria-label="Level {column["level"]} column"', "</section>")
        cost = "no cost tile" if column["cost"] is None else f"cost tile {column['cost']}"
        assert f"Level {column['level']}: {cost}" in part
        if column["level"] > 1:
            assert f"{column['deck_count']} face down in the deck" in part
        else:
            assert re.findall(r"Stack \d+ \((\d+) cards?\)", part) == [str(n) for n in column["stack_counts"]]
        shown = re.findall(r'class="card" data-card="(\d+)">([^<(]+)', part)
        face_up = [(str(c["id"]), c["name"]) for c in column["face_up"]]
        assert [(i, name.strip()) for i, name in shown][:len(face_up)] == face_up

    shared = between(board, 'aria-label="Shared deck"', 'class="seat zone"')
    assert f"Shared deck: {view['shared_deck_count']} face down; {view['event_stack_count']} Events" in shared
    positions = [shared.index(f'data-card="{c["id"]}">{c["name"]}') for c in view["revealed"]]
    assert positions == sorted(positions)

    sections = seat_sections(board)
    assert sorted(sections) == list(range(len(view["players"])))
    for p in view["players"]:
        body = sections[p["seat"]]
        assert f'<span class="bandits">{p["bandits"]}</span> Masked Bandits; Heirloom {p["heirloom"].title()}.' in body
        if "chest" in p:
            assert f"Chest: {p['chest']['coins']} Coins, {p['chest']['rubies']} Rubies." in body
        else:
            assert "Chest: hidden." in body and "Coins," not in body
    reserve = view["reserve"]
    assert f"{reserve['coins']} Coins, {reserve['rubies']} Rubies, {reserve['bandits']} Masked Bandits." in board


def check_crown_pages(client, table: Table) -> dict:
    """Every seat's, the referee's and the spectator's page now: each draws its own view; a seat's shows its own
    chest alone (every chest once the match is over) and no face-down card it did not recruit; the spectator's no chest (every one once the match is over) and no face-down card; the
    referee's every chest and every face-down card; a seat has one move button a legal move."""
    ref = table.view()
    pages = {}
    for seat, token in enumerate(table.tokens):
        html = page_as(client, table, token)
        check_table(html, table.view(token))
        for mark in unknown_to(ref, seat):
            assert mark not in html, f"seat {seat}'s page names a face-down card it did not recruit ({mark})"
        sections = seat_sections(html)
        for other in range(len(PLAYERS)):
            chest = ref["players"][other]["chest"]
            shown = f"Chest: {chest['coins']} Coins, {chest['rubies']} Rubies."
            assert (shown in sections[other]) == (other == seat or ref["status"] == "finished")  # opened at the end
        assert html.count('<button class="move">') == len(table.moves(seat))
        assert (len(table.moves(seat)) > 0) == (ref["awaiting_seat"] == seat)
        pages[seat] = html
    spectator = page_as(client, table, None)
    check_table(spectator, view_as(client, table, None))
    for mark in unknown_to(ref, None):
        assert mark not in spectator
    assert spectator.count("Chest: hidden.") == (0 if ref["status"] == "finished" else len(PLAYERS))
    assert '<button class="move">' not in spectator
    referee = page_as(client, table, table.referee)
    check_table(referee, ref)
    for mark in marks(face_down(ref)):
        assert mark in referee, "the referee's page shows every face-down card"
    assert "Chest: hidden." not in referee
    pages["referee"], pages[None] = referee, spectator
    return pages


def paying_for_an_unseen_recruit(view: dict) -> bool:
    pending = view["pending"]
    return bool(pending and pending["kind"] == "pay" and pending["card"] in
                [c["id"] for c in view["players"][pending["seat"]]["unrevealed_recruits"]])


def test_a_random_match_is_drawn_for_every_viewer_and_hides_what_its_view_hides(sqlite_client):
    """At the first recruitment, a payment for a card from the top of a deck, the reveal with cards revealed and a
    decision pending, and the end: every page draws its viewer's view (Gallery, Royal Square, families' Bandits and
    chests as the view holds them) and keeps other chests and unseen cards off it; the buttons are the legal moves."""
    client = sqlite_client
    table = Table(client, PLAYERS, "for_a_crown")
    chooser = random.Random(2024)

    view = table.view()
    assert view["phase"] == "recruit" and view["round"] == 1
    check_crown_pages(client, table)

    view = play_until(table, chooser, paying_for_an_unseen_recruit, limit=600)
    assert view, "the match ended before the point the test looks for"
    payer, card = view["pending"]["seat"], view["pending"]["card"]
    pages = check_crown_pages(client, table)
    assert f'data-card="{card}"' in pages[payer] and f'data-card="{card}"' in pages["referee"]
    assert all(f'data-card="{card}"' not in pages[s] for s in [None, *range(len(PLAYERS))] if s != payer)
    assert "for the Mercenary just recruited" in pages[None]

    view = play_until(table, chooser, lambda v: v["phase"] == "reveal" and v["revealed"] and v["pending"], limit=600)
    assert view, "the match ended before the point the test looks for"
    pages = check_crown_pages(client, table)
    last = view["revealed"][-1]
    assert f"Last revealed: {last['name']}" in pages[None]

    view = play_until(table, chooser, lambda v: v["status"] == "finished", limit=2000)
    assert view, "the match did not end within 2000 moves"
    pages = check_crown_pages(client, table)
    assert all(html.count('<button class="move">') == 0 for html in pages.values())
    assert view["winners"] and 'aria-label="Pending decision"' not in pages["referee"]


def test_the_awaited_seat_is_named_and_its_decision_said_at_every_kind_of_step(sqlite_client):
    """Every kind of pending decision a random match reaches (a payment, a level-1 Mercenary's effect, a Masked
    Bandit, a Ruby lost, a Portrait moved, Bribery, the Mages) is named on the pages, for the seat deciding with one
    button a legal move, and checked against each viewer's view as above."""
    client = sqlite_client
    table = Table(client, PLAYERS, "for_a_crown")
    chooser = random.Random(7)
    words = {"pay": "Paying ", "choose": "Choosing one effect of ", "bandit": "takes a Masked Bandit",
             "steal_ruby": "loses a Ruby", "portrait": "Moving a Portrait", "bribe": "Bribery: paying",
             "mages": "Mercenary Mages: paying"}
    said = set()
    while True:
        view = table.view()
        pending = view["pending"]
        kind = pending and (pending.get("effect") if pending["kind"] == "effect" else pending["kind"])
        if kind and kind not in said:
            said.add(kind)
            pages = check_crown_pages(client, table)
            for html in pages.values():
                assert words[kind] in between(html, 'aria-label="Pending decision"', "</section>")
        if view["status"] == "finished":
            break
        seat = view["awaiting_seat"]
        table.play(seat, chooser.choice(table.moves(seat)))
    assert {"pay", "choose"} <= said
