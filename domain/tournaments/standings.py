"""Standings from a tournament's results, as MTG's tournament rules count them (MTR Appendix C): 3/1/0 match points at
2-player tables (points by placement at larger ones, ties sharing), game points 3/1/0 a game where a result gives its
games (else its one match counts as one game), a bye a 2-0 win left out of opponents' averages, and the tiebreakers
opponents' match-win %, game-win % and opponents' game-win %, each percentage floored at 0.33."""
from __future__ import annotations

from fractions import Fraction

FLOOR = Fraction(33, 100)
WIN, DRAW = 3, 1
BYE_GAMES = (2, 2)  # a bye counts as a 2-0 win in games (MTR 10.2)


def table_points(placements: list[list[str]], scheme: list[int]) -> dict[str, Fraction]:
    """Each player's points at one table: at two seats 3 for a win, 1 each for a draw; at more, the placement
    scheme's points, tied players sharing the points of the places they fill."""
    seats = sum(len(group) for group in placements)
    if seats == 2:
        return {p: Fraction(DRAW if len(placements) == 1 else (WIN if i == 0 else 0))
                for i, group in enumerate(placements) for p in group}
    points, place = {}, 0
    for group in placements:
        filled = [scheme[k] if k < len(scheme) else 0 for k in range(place, place + len(group))]
        for p in group:
            points[p] = Fraction(sum(filled), len(group))
        place += len(group)
    return points


def _records(players: dict, rounds: list[dict], scheme: list[int]) -> dict:
    """Per player: points, the most it could have had, games won and played, opponents, and W/D/L/bye counts."""
    top = max(scheme)  # a bye: a win at the top of the points (3/1/0 at two seats, the placement points in pods)
    records = {p: {"points": Fraction(0), "possible": 0, "game_points": Fraction(0), "game_possible": 0,
                   "games": {"won": 0, "lost": 0, "drawn": 0}, "opponents": [], "won": 0, "drawn": 0, "lost": 0,
                   "byes": 0} for p in players}
    for p, player in players.items():  # a late entrant's missed rounds: each a bye, or a loss 0-2 (the organiser's)
        for _ in range(player.get("missed_rounds", 0)):
            if player["missed"] == "bye":
                _bye(records[p], top)
            else:
                _loss(records[p], top)
    for round_ in rounds:
        for p in round_["byes"]:
            _bye(records[p], top)
        for table in round_["tables"]:
            if table["placements"] is None:
                continue
            points = table_points(table["placements"], scheme)
            best = max(points.values())
            for p, got in points.items():
                r = records[p]
                r["points"] += got
                r["possible"] += top
                r["opponents"] += [q for q in table["players"] if q != p]
                first = p in table["placements"][0]
                alone = len(table["placements"][0]) == 1
                outcome = "won" if first and alone else "drawn" if first or got == best else "lost"
                r[outcome] += 1
                if table.get("tally"):
                    _games(r, table["tally"], p)
                else:  # one game: its points those of the match (RULINGS T3)
                    r["game_points"] += got
                    r["game_possible"] += top
                    r["games"][outcome] += 1
    return records


def _games(r: dict, tally: dict, p: str) -> None:
    """A table's games for one of its two players: 3 game points a game won, 1 a game drawn, of 3 a game played."""
    won, drawn = tally["games"][p], tally["drawn"]
    lost = sum(n for q, n in tally["games"].items() if q != p)
    r["game_points"] += WIN * won + DRAW * drawn
    r["game_possible"] += WIN * (won + lost + drawn)
    for kind, n in (("won", won), ("lost", lost), ("drawn", drawn)):
        r["games"][kind] += n


def _bye(r: dict, top: int) -> None:
    """A round won without an opponent: the top of the points, and 2-0 in games."""
    r["points"] += top
    r["possible"] += top
    r["game_points"] += WIN * BYE_GAMES[0]
    r["game_possible"] += WIN * BYE_GAMES[1]
    r["games"]["won"] += BYE_GAMES[0]
    r["byes"] += 1


def _loss(r: dict, top: int) -> None:
    """A round lost without an opponent (a late entrant's missed round): no points, and 0-2 in games."""
    r["possible"] += top
    r["game_possible"] += WIN * BYE_GAMES[1]
    r["games"]["lost"] += BYE_GAMES[1]
    r["lost"] += 1


def _share(got: Fraction, possible: int) -> Fraction:
    return max(FLOOR, got / possible) if possible else FLOOR


def standings(players: dict[str, dict], rounds: list[dict], scheme: list[int]) -> list[dict]:
    """The standings, best first: players maps each id to its name, dropped flag and standing order among equals
    (the tournament's seeded order); rounds hold each round's tables (players, placements or None) and byes."""
    records = _records(players, rounds, scheme)
    mw = {p: _share(r["points"], r["possible"]) for p, r in records.items()}
    gw = {p: _share(r["game_points"], r["game_possible"]) for p, r in records.items()}

    def average(shares: dict, p: str) -> Fraction:
        opponents = records[p]["opponents"]
        return sum((shares[q] for q in opponents), Fraction(0)) / len(opponents) if opponents else FLOOR

    rows = []
    for p, r in records.items():
        rows.append({"player_id": p, "name": players[p]["name"], "points": r["points"],
                     "matches": {k: r[k] for k in ("won", "drawn", "lost", "byes")}, "games": r["games"],
                     "game_points": r["game_points"],
                     "omw": average(mw, p), "gw": gw[p], "ogw": average(gw, p), "dropped": players[p]["dropped"],
                     "disqualified": players[p].get("disqualified")})
    rows.sort(key=lambda row: (-row["points"], -row["omw"], -row["gw"], -row["ogw"], players[row["player_id"]]["order"]))
    return [{"rank": i + 1, **row} for i, row in enumerate(rows)]


def shown(row: dict) -> dict:
    """A standings row as JSON: points and game points as numbers, percentages rounded to 4 places."""
    return {**row, **{k: _number(row[k]) for k in ("points", "game_points")},
            **{k: round(float(row[k]), 4) for k in ("omw", "gw", "ogw")}}


def _number(value: Fraction) -> int | float:
    """A whole number as an int, else a float."""
    return int(value) if value.denominator == 1 else float(value)
