"""Best-of-N tables (issue 42; docs/RULINGS.md T11): each game of a table its own match, the next one seated with the
last game's loser first (the order flipped after a drawn game), the table decided by games won, and standings with
MTG's game points (MTR Appendix C); a top cut played best of N too, and the audit recomputing every table from its
games. Decklists kept to the organiser and their players until the tournament ends, then public (T12)."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from domain.kingdom_tcg.data import default_decklists
from replays.tournament_audit import Differs, audit
from tests.helpers.api import assert_problem, auth
from tests.helpers.logs import rechain_tournament
from tests.helpers.stores import seeded
from tests.helpers.tournaments import figures, independent_standings, paired, play_match, play_table

SPEC = {"name": "Kingdom Open", "game": "kingdom_tcg", "format": "swiss", "best_of": 3}


def open_tournament(client, count: int, **changes) -> tuple[str, str, dict]:
    """A best-of-3 Kingdom TCG tournament with `count` players, each registered with a default decklist: its id, the
    organiser's token, the players' tokens."""
    body = client.post("/tournaments", json={**SPEC, **changes})
    assert body.status_code == 201, body.get_json()
    tid, organiser = body.get_json()["tournament_id"], body.get_json()["organiser_token"]
    decks = default_decklists()
    tokens = {}
    for i in range(count):
        answer = client.post(f"/tournaments/{tid}/players", headers=auth(organiser),
                             json={"name": f"Player {i + 1}", "decklist": decks[i % len(decks)]})
        assert answer.status_code == 201, answer.get_json()
        tokens[answer.get_json()["player_id"]] = answer.get_json()["token"]
    return tid, organiser, tokens


def assert_played_as_ruled(table: dict, best_of: int = 3) -> Counter:
    """T11 at one finished table: games until a player has won more than half of best_of, or best_of were played;
    each next game seated with the last game's loser first, or after a drawn game the order flipped; the table placed
    by games won. The outcomes of its games ("won" for a game won, "drawn")."""
    games = table["games"]
    won, outcomes = Counter(), Counter()
    for number, game in enumerate(games, start=1):
        assert 2 * max(won.values(), default=0) <= best_of and number <= best_of, "a game after the table was decided"
        placements = game["placements"]
        outcomes["drawn" if len(placements) == 1 else "won"] += 1
        if len(placements) > 1:
            won[placements[0][0]] += 1
        if number < len(games):
            loser_first = [placements[1][0], placements[0][0]] if len(placements) > 1 else game["players"][::-1]
            assert games[number]["players"] == loser_first
    assert 2 * max(won.values(), default=0) > best_of or len(games) == best_of
    a, b = table["players"]
    assert table["placements"] == ([[a, b]] if won[a] == won[b] else [[a], [b]] if won[a] > won[b] else [[b], [a]])
    assert table["match_id"] == games[-1]["match_id"]
    return outcomes


def test_a_6_player_kingdom_tcg_swiss_of_3_rounds_best_of_three_with_a_top_4_played_by_bots_over_http(
        sqlite_client, monkeypatch):
    """Every table of the 3 Swiss rounds (RULINGS T8) and of the top 4 played game by game over HTTP, each game a
    match of its own dealt from the players' decklists, which nobody but the organiser and their players read before
    the end (T12); the standings equal an independent computation of Appendix C from the games, game points included,
    and stay the Swiss ones after the cut (T4); the audit passes, with the top cut's match exports; the timeline tells
    every game; every decklist is public at the end. Seeded, so that a drawn game, a 2-0 and a three-game table are
    always played. (SQLite alone: some 30 games.)"""
    client = sqlite_client
    seeded(monkeypatch, 1)
    tid, organiser, tokens = open_tournament(client, 6, top_cut=4)
    chooser = random.Random(42)
    outcomes, shapes = Counter(), Counter()
    for number in range(1, 6):  # 3 Swiss rounds, the semi-finals, the final
        round_ = paired(client, tid, organiser)
        assert round_["round"] == number and round_["byes"] == []
        for table in round_["tables"]:
            assert [game["players"] for game in table["games"]] == [table["players"]]
            if (number, table["table"]) == (1, 1):  # its first game over, its second being played
                play_match(client, table["match_id"], tokens, table["players"], chooser)
                assert_decklists_kept(client, tid, organiser, tokens, table["table"])
            shown = play_table(client, tid, number, table["table"], tokens, chooser)
            outcomes += assert_played_as_ruled(shown)
            shapes[len(shown["games"])] += 1
        if number == 3:
            swiss = [client.get(f"/tournaments/{tid}/rounds/{n}").get_json() for n in range(1, 4)]
            standings = client.get(f"/tournaments/{tid}/standings").get_json()["standings"]
            assert {row["player_id"]: figures(row) for row in standings} == independent_standings(swiss, list(tokens))
            semis_seeds = [row["player_id"] for row in standings[:4]]
        if number == 4:
            assert [t["players"] for t in round_["tables"]] == [[semis_seeds[0], semis_seeds[3]],
                                                                [semis_seeds[1], semis_seeds[2]]]
    assert client.get(f"/tournaments/{tid}").get_json()["status"] == "finished"
    assert client.get(f"/tournaments/{tid}/standings").get_json()["standings"] == standings
    assert outcomes["drawn"] and shapes[2] and shapes[3]  # about one game in eight ends drawn (KT2's 30 turns)
    rounds = [client.get(f"/tournaments/{tid}/rounds/{n}").get_json() for n in range(1, 6)]
    cut = [game["match_id"] for r in rounds[3:] for t in r["tables"] for game in t["games"]]
    exports = [client.get(f"/matches/{m}/export", headers=auth(organiser)).get_data(as_text=True).splitlines()
               for m in cut]  # the top cut's: re-refereeing every game would double the run
    checks = audit(client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines(), exports)
    assert checks[2] == "ok   5 rounds of pairings recomputed from the seed and the results"
    assert sum("verifies and its result is the one recorded" in line for line in checks) == len(cut)
    assert checks[4] == "ok   6 decklists revealed match their commitments"
    told = client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    assert sum(", game " in line for line in told) == sum(len(t["games"]) for r in rounds for t in r["tables"])
    assert_decklists_public(client, tid, tokens, rounds[0]["tables"][0])


def deck_of(player: str) -> dict:
    """The decklist `registered` gave a player."""
    decks = default_decklists()
    return decks[(int(player[1:]) - 1) % len(decks)]


def assert_decklists_kept(client, tid: str, organiser: str, tokens: dict, number: int) -> None:
    """RULINGS T12 while the tournament runs, at a table of round 1 whose first game has finished: the tournament's
    export and timeline hold commitments and no decklist, its decklist route answers the organiser and the player
    alone; in each game's match, its events, view and replay show a seat its own decklist only, a spectator's none,
    and only the organiser exports the finished game's log."""
    table = client.get(f"/tournaments/{tid}/rounds/1").get_json()["tables"][number - 1]
    rows = [json.loads(line) for line in client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines()]
    registrations = [row["payload"] for row in rows if row.get("type") == "PlayerRegistered"]
    assert len(registrations) == len(tokens) and all(set(p) == {"player_id", "name", "decklist_commitment"}
                                            for p in registrations)
    assert not any(row.get("type") == "DecklistsRevealed" for row in rows)
    told = json.dumps(client.get(f"/tournaments/{tid}/timeline").get_json())
    assert not any(deck["coronado"] in told for deck in default_decklists())
    for player in table["players"]:
        other = next(p for p in table["players"] if p != player)
        route = f"/tournaments/{tid}/players/{player}/decklist"
        for reader in (organiser, tokens[player]):
            assert client.get(route, headers=auth(reader)).get_json()["decklist"] == deck_of(player)
        assert_problem(client.get(route, headers=auth(tokens[other])), 403)
        assert_problem(client.get(route), 401)
    finished, playing = table["games"]
    for game in (finished, playing):
        match = f"/matches/{game['match_id']}"
        for seat, player in enumerate(game["players"]):
            token = auth(tokens[player])
            events = client.get(f"{match}/events", headers=token).get_json()
            assert events["events"][0]["payload"]["options"]["decklists"][1 - seat] is None
            assert events["events"][0]["payload"]["options"]["decklists"][seat] == deck_of(player)
            replay = client.get(f"{match}/replay?version={events['version']}", headers=token).get_json()
            for shown in (client.get(f"{match}/view", headers=token).get_json(), replay):
                assert "deck" not in shown["players"][1 - seat] and "hand" not in shown["players"][1 - seat]
        spectator = client.get(f"{match}/spectator-view").get_json()
        assert not any({"deck", "hand", "reserve"} & set(p) for p in spectator["players"])
        for entries in (client.get(f"{match}/spectator-timeline").get_json(),
                        client.get(f"{match}/timeline", headers=auth(tokens[game["players"][0]])).get_json()):
            assert entries[0]["summary"].endswith("sat down to play Kingdom TCG.")
    for player in finished["players"]:
        assert_problem(client.get(f"/matches/{finished['match_id']}/export", headers=auth(tokens[player])), 403)
    full = client.get(f"/matches/{finished['match_id']}/export", headers=auth(organiser)).get_data(as_text=True)
    assert json.loads(full.splitlines()[1])["payload"]["options"]["decklists"] == [
        deck_of(p) for p in finished["players"]]


def assert_decklists_public(client, tid: str, tokens: dict, table: dict) -> None:
    """RULINGS T12 once the tournament is over: every decklist in its export and from its route with no token, and a
    player of a finished match exports its whole log and replays every seat's deck."""
    rows = [json.loads(line) for line in client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines()]
    revealed = next(row["payload"]["decklists"] for row in rows if row.get("type") == "DecklistsRevealed")
    assert {p: deck["decklist"] for p, deck in revealed.items()} == {p: deck_of(p) for p in tokens}
    for player in tokens:
        assert client.get(f"/tournaments/{tid}/players/{player}/decklist").get_json()["decklist"] == deck_of(player)
    game = table["games"][0]
    token = auth(tokens[game["players"][0]])
    full = client.get(f"/matches/{game['match_id']}/export", headers=token)
    assert full.status_code == 200
    assert json.loads(full.get_data(as_text=True).splitlines()[1])["payload"]["options"]["decklists"] == [
        deck_of(p) for p in game["players"]]
    version = client.get(f"/matches/{game['match_id']}/events", headers=token).get_json()["version"]
    replay = client.get(f"/matches/{game['match_id']}/replay?version={version}", headers=token).get_json()
    assert all("deck" in seat for seat in replay["players"])


def test_the_audit_catches_a_tampered_game_score_a_game_placed_otherwise_and_a_decklist_swapped(client):
    """A table's games tally in its ResultRecorded is recomputed from its games, each GameFinished is held to its
    match's export, and each decklist revealed at the end to its commitment (T12): a changed score, game or decklist
    fails naming its event."""
    tid, organiser, tokens = open_tournament(client, 2, rounds=1)
    for table in paired(client, tid, organiser)["tables"]:
        play_table(client, tid, 1, table["table"], tokens, random.Random(table["table"]))
    tables = client.get(f"/tournaments/{tid}/rounds/1").get_json()["tables"]
    exports = [client.get(f"/matches/{game['match_id']}/export", headers=auth(organiser)).get_data(
        as_text=True).splitlines() for t in tables for game in t["games"]]
    rows = [json.loads(line) for line in client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines()]
    assert "ok   2 decklists revealed match their commitments" in audit([json.dumps(row) for row in rows], exports)

    def more_drawn(p):
        p["drawn"] += 1

    def another_deck(p):
        """Player 1 said to have brought player 2's deck."""
        p["decklists"]["p1"]["decklist"] = p["decklists"]["p2"]["decklist"]

    def placed_otherwise(p):
        """The other player won: after a draw too."""
        seated = [player for group in p["placements"] for player in group]
        p["placements"] = [[seated[-1]], [seated[0]]]

    for kind, change, given in (("ResultRecorded", more_drawn, []), ("GameFinished", placed_otherwise, exports[:1]),
                                ("DecklistsRevealed", another_deck, [])):
        edited = json.loads(json.dumps(rows))
        target = next(row for row in edited[1:] if row["type"] == kind)
        change(target["payload"])
        rechain_tournament(edited)
        with pytest.raises(Differs, match=rf"version {target['version']} \({kind}\)"):
            audit([json.dumps(row) for row in edited], given)  # the score and the decklist need no match export


def test_a_result_with_its_games_gives_appendix_c_game_points(client):
    """MTR Appendix C: "A player wins a match 2–0–1, so they earn 7 game points and their opponent earns 1 game
    point"; "2–1–0 [...] 6 game points and their opponent earns 3". The organiser records the first with its games
    (placements that do not follow the games: 422), a confirmed report the second; the timeline gives the scores."""
    tid, organiser, tokens = open_tournament(client, 4, rounds=1)
    (a, b), (c, d) = [t["players"] for t in paired(client, tid, organiser)["tables"]]
    result = {"round": 1, "table": 1, "placements": [[b], [a]], "games": {a: 2, b: 0}, "drawn": 1,
              "reason": "played on paper"}
    assert "the placements must follow the games" in assert_problem(
        client.post(f"/tournaments/{tid}/results", json=result, headers=auth(organiser)), 422)["detail"]
    assert_problem(client.post(f"/tournaments/{tid}/results", headers=auth(organiser),
                               json={**result, "games": {a: 2, c: 0}}), 422)  # c is not at table 1
    recorded = client.post(f"/tournaments/{tid}/results", json={**result, "placements": [[a], [b]]},
                           headers=auth(organiser))
    assert recorded.status_code == 200, recorded.get_json()
    report = client.post(f"/tournaments/{tid}/reports", json={"round": 1, "table": 2, "games": {c: 2, d: 1}},
                         headers=auth(tokens[c])).get_json()
    confirmed = client.post(f"/tournaments/{tid}/reports/{report['report_id']}", json={"decision": "confirm"},
                            headers=auth(tokens[d]))
    assert confirmed.status_code == 200, confirmed.get_json()
    rows = {row["player_id"]: row for row in client.get(f"/tournaments/{tid}/standings").get_json()["standings"]}
    assert {p: (rows[p]["games"], rows[p]["game_points"], rows[p]["gw"]) for p in (a, b, c, d)} == {
        a: ({"won": 2, "lost": 0, "drawn": 1}, 7, round(7 / 9, 4)),
        b: ({"won": 0, "lost": 2, "drawn": 1}, 1, 0.33),  # 1/9, floored
        c: ({"won": 2, "lost": 1, "drawn": 0}, 6, round(6 / 9, 4)),
        d: ({"won": 1, "lost": 2, "drawn": 0}, 3, round(3 / 9, 4))}
    told = client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    assert told[0].endswith(", tables best of 3.")
    assert f"Round 1, table 1: Player {a[1:]} won, 2 games to 0, 1 drawn (recorded by the organiser: played on " \
           "paper)." in told
    assert f"Round 1, table 2: Player {c[1:]} won, 2 games to 1 (reported by Player {c[1:]}, confirmed by " \
           f"Player {d[1:]})." in told


def test_best_of_n_is_for_two_player_tables_and_a_table_that_finished_a_game_keeps_its_players(client):
    """A pod plays one game (422 for best of 3 at tables of 4), and best of 2 is no option (400); a swap (T2) between
    tables of which one has finished a game is refused (422); the table's next game is seated with that game's loser
    first, or after a draw the other way round."""
    refused = client.post("/tournaments", json={**SPEC, "game": "korona", "table_size": 4})
    assert "best of 3 is played at two-player tables" in assert_problem(refused, 422)["detail"]
    assert_problem(client.post("/tournaments", json={**SPEC, "best_of": 2}), 400)
    tid, organiser, tokens = open_tournament(client, 4, rounds=1)
    first, second = paired(client, tid, organiser)["tables"]
    play_match(client, first["match_id"], tokens, first["players"], random.Random(1))
    table = client.get(f"/tournaments/{tid}/rounds/1").get_json()["tables"][0]
    game = table["games"][0]
    assert game["placements"] and len(table["games"]) == 2 and table["match_id"] == table["games"][1]["match_id"]
    assert table["games"][1]["players"] == ([game["placements"][1][0], game["placements"][0][0]]
                                            if len(game["placements"]) > 1 else first["players"][::-1])
    swap = {"swap": [first["players"][0], second["players"][0]], "reason": "a family at one table"}
    assert "finished a game keeps its players" in assert_problem(
        client.post(f"/tournaments/{tid}/pairings", json=swap, headers=auth(organiser)), 422)["detail"]
    view = client.get(f"/matches/{table['match_id']}/view", headers=auth(organiser)).get_json()
    assert [p["name"] for p in view["players"]] == [f"Player {p[1:]}" for p in table["games"][1]["players"]]
