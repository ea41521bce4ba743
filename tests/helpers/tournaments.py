"""Helpers for the tournament tests: tournaments entered, paired and their results recorded over the API; bots playing
a table's matches over HTTP (the same games every run once `stores.seeded`); standings computed independently of
Herald's from the rounds the API shows."""
from __future__ import annotations

import random
from fractions import Fraction

from domain.tournaments import desk
from domain.tournaments.aggregate import Tournament, stored_topics
from replays.tournament_audit import Differs, audit, tournament_export
from tests.helpers.api import auth

FLOOR = Fraction(33, 100)
# four rounds of two-player tables, no cut
TUESDAY_SWISS = {"name": "Tuesday Swiss", "game": "korona", "format": "swiss", "rounds": 4, "table_size": 2,
                 "top_cut": 0}
FRIDAY_SWISS = {"name": "Friday Swiss", "game": "korona", "format": "swiss"}  # its rounds left to the players' count


def play_match(client, match_id: str, tokens: dict, players: list[str], chooser) -> None:
    """Both seats play random legal moves with their tournament tokens until the match ends (a seat that decides
    again takes its moves from its move's answer, ?include=legal_moves)."""
    answer = client.get(f"/matches/{match_id}/view", headers=auth(tokens[players[0]])).get_json()
    moves = None
    while answer["status"] != "finished":
        seat = answer["awaiting_seat"]
        token = tokens[players[seat]]
        if moves is None:
            moves = client.get(f"/matches/{match_id}/legal-moves", headers=auth(token)).get_json()["moves"]
        posted = client.post(f"/matches/{match_id}/moves?include=legal_moves", json=chooser.choice(moves),
                             headers=auth(token))
        assert posted.status_code == 200, posted.get_json()
        answer = posted.get_json()
        moves = answer["legal_moves"] if answer["awaiting_seat"] == seat else None


def play_table(client, tid: str, round_: int, table: int, tokens: dict, chooser) -> dict:
    """Every game of a table, each match at its game's seats, until the table has its result; the table as shown."""
    while True:
        shown = client.get(f"/tournaments/{tid}/rounds/{round_}").get_json()["tables"][table - 1]
        if shown["placements"] is not None:
            return shown
        game = shown["games"][-1] if "games" in shown else shown
        play_match(client, game["match_id"], tokens, game["players"], chooser)


def independent_standings(rounds: list[dict], players: list[str]) -> dict:
    """Each player's points, games, game points, OMW%, GW% and OGW% from the rounds alone, as MTR Appendix C counts
    them: 3/1/0 a match and a game (a best-of-N table's games as listed, else its match one game), a bye a 2-0 win
    left out of opponents' averages, every percentage floored at 0.33 and shown to 4 places."""
    points = {p: 0 for p in players}
    played = {p: 0 for p in players}
    games = {p: {"won": 0, "lost": 0, "drawn": 0} for p in players}
    opponents = {p: [] for p in players}
    for r in rounds:
        for p in r["byes"]:
            points[p] += 3
            played[p] += 1
            games[p]["won"] += 2
        for table in r["tables"]:
            a, b = table["players"]
            first = table["placements"][0]
            for p, q in ((a, b), (b, a)):
                points[p] += 1 if len(first) == 2 else 3 if p in first else 0
                played[p] += 1
                opponents[p].append(q)
            for game in table.get("games", [table]):
                if len(game["placements"]) == 1:
                    games[a]["drawn"] += 1
                    games[b]["drawn"] += 1
                else:
                    games[game["placements"][0][0]]["won"] += 1
                    games[game["placements"][1][0]]["lost"] += 1
    game_points = {p: 3 * games[p]["won"] + games[p]["drawn"] for p in players}
    mwp = {p: max(FLOOR, Fraction(points[p], 3 * played[p])) for p in players}
    gwp = {p: max(FLOOR, Fraction(game_points[p], 3 * sum(games[p].values()))) for p in players}

    def average(shares, p):
        return round(float(sum(shares[q] for q in opponents[p]) / len(opponents[p])), 4)

    return {p: {"points": points[p], "games": games[p], "game_points": game_points[p], "omw": average(mwp, p),
                "gw": round(float(gwp[p]), 4), "ogw": average(gwp, p)} for p in players}


def figures(row: dict) -> dict:
    """A standings row's figures that independent_standings computes."""
    return {k: row[k] for k in ("points", "games", "game_points", "omw", "gw", "ogw")}


def audit_finished_tournaments(matches) -> int:
    """`herald audit-tournament`'s checks on every finished tournament of a store (issue 42: it passes on every
    tournament of the tests); AssertionError naming the first that does not pass. How many were audited."""
    audited = 0
    for notification in matches.recorder.select_notifications(start=1, limit=10_000,
                                                              topics=stored_topics(Tournament.TournamentCreated)):
        tournament_id = str(notification.originator_id)
        if desk.load(matches, tournament_id).status != "finished":
            continue
        try:
            audit(tournament_export(tournament_id, desk.log(matches, tournament_id)))
        except Differs as differs:
            raise AssertionError(f"tournament {tournament_id} does not audit: {differs}") from None
        audited += 1
    return audited


def entered(client, count: int, **changes) -> tuple[str, str, dict]:
    """A new tournament with `count` players registered: its id, the organiser's token, the players' tokens."""
    body = client.post("/tournaments", json={**TUESDAY_SWISS, **changes}).get_json()
    tid, organiser = body["tournament_id"], body["organiser_token"]
    tokens = {}
    for i in range(count):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": f"P{i + 1}"}, headers=auth(organiser))
        assert answer.status_code == 201, answer.get_json()
        tokens[answer.get_json()["player_id"]] = answer.get_json()["token"]
    return tid, organiser, tokens


def paired(client, tid: str, organiser: str) -> dict:
    answer = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def first_seat_wins(client, tid: str, organiser: str, round_: dict) -> None:
    """Every table of the round won by its first seat, recorded by the organiser (a table played off Herald)."""
    for table in round_["tables"]:
        placements = [[table["players"][0]], [p for p in table["players"][1:]]]
        answer = client.post(f"/tournaments/{tid}/results", headers=auth(organiser), json={
            "round": round_["round"], "table": table["table"], "placements": placements, "reason": "on paper"})
        assert answer.status_code == 200, answer.get_json()


def register(client, tid: str, organiser: str, *names: str, **body) -> dict[str, tuple[str, str]]:
    """Each name registered by the organiser (with `body`'s keys): its player id and token."""
    registered = {}
    for name in names:
        answer = client.post(f"/tournaments/{tid}/players", json={"name": name, **body}, headers=auth(organiser))
        assert answer.status_code == 201, answer.get_json()
        registered[name] = (answer.get_json()["player_id"], answer.get_json()["token"])
    return registered


def play_round(client, tid: str, organiser: str) -> dict:
    """The next round, each table's result recorded by the organiser (played on paper), its first seat winning."""
    round_ = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
    for table in round_["tables"]:
        recorded = client.post(f"/tournaments/{tid}/results", headers=auth(organiser), json={
            "round": round_["round"], "table": table["table"], "placements": [[p] for p in table["players"]],
            "reason": "played on paper"})
        assert recorded.status_code == 200, recorded.get_json()
    return round_
