"""A tournament's log in plain English, one sentence an event."""
from __future__ import annotations


def _together(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _placed(placements: list[list[str]], names: dict) -> str:
    first = [names[p] for p in placements[0]]
    if len(placements) == 1:
        return f"{_together(first)} drew"
    return f"{_together(first)} won"


def _score(p: dict) -> str:
    """A result's games, where it gives them: ", 2 games to 1", ", 1 game each, 1 drawn"."""
    if "games" not in p:
        return ""
    first = p["placements"][0][0]
    won = p["games"][first]
    other = next(n for q, n in p["games"].items() if q != first)
    drawn = f", {p['drawn']} drawn" if p["drawn"] else ""
    each = f"{won} game{'s' if won != 1 else ''}"
    return f", {each} each{drawn}" if won == other else f", {each} to {other}{drawn}"


def sentences(records: list[dict]) -> list[str]:
    """Each event of the log, told: "Round 3 paired: 8 tables, Ana has the bye", "Bo dropped after round 2"."""
    names, told, eliminated = {}, [], False
    for record in records:
        kind, p = record["type"], record["payload"]
        if kind == "TournamentCreated":
            rounds = f"{p['rounds']} rounds" if p.get("rounds") else "rounds by the player count"
            best_of = f", tables best of {p['best_of']}" if p.get("best_of", 1) > 1 else ""
            timed = f", {p['round_minutes']:g} minutes a round" if "round_minutes" in p else ""
            told.append(f"{p['name']} was created: {p['game']}, {p['format']}, {rounds}{best_of}{timed}.")
            eliminated = bool(p.get("top_cut")) or p["format"] == "single_elimination"
        elif kind == "PlayerRegistered":
            names[p["player_id"]] = p["name"]
            late = (f" after round {p['missed']['rounds']}, each round missed counted as a {p['missed']['as']}"
                    if "missed" in p else "")
            byes = "" if not p.get("byes") else ", with a bye in round 1" if p["byes"] == 1 else \
                f", with byes in rounds 1 to {p['byes']}"
            told.append(f"{p['name']} registered{late}{byes}.")
        elif kind == "PlayerDropped":
            told.append(f"{names[p['player_id']]} dropped after round {p['after_round']}.")
        elif kind == "PlayerUndropped":
            told.append(f"{names[p['player_id']]} came back after round {p['after_round']}.")
        elif kind == "PlayerDisqualified":
            told.append(f"{names[p['player_id']]} was disqualified after round {p['after_round']}: {p['reason']}.")
        elif kind == "RoundPaired":
            tables, byes = len(p["tables"]), [names[b] for b in p["byes"]]
            seated = f"{tables} table{'s' if tables != 1 else ''}" if tables else "no table"
            bye = (f", {byes[0]} has the bye" if len(byes) == 1 else f", {_together(byes)} have a bye" if byes
                   else "" if tables else ", no bye: no one still in to seat")
            told.append(f"Round {p['round']} paired: {seated}{bye}.")
        elif kind == "PairingOverridden":
            told.append(f"Round {p['round']}: the organiser changed tables "
                        + " and ".join(str(t["table"]) for t in p["tables"]) + f" ({p['reason']}): "
                        + "; ".join(_together([names[x] for x in t["players"]]) for t in p["tables"]) + ".")
        elif kind == "TimeCalled":
            playing = ", ".join(str(t) for t in p["tables"]) or "none"
            told.append(f"Time was called in round {p['round']}: tables still playing: {playing}.")
        elif kind == "ResultRecorded":
            how = f" ({p['reason']})" if p["reason"].startswith("time was called") else "" if p["by"] == "match" else f" ({p['reason']})" if p["by"] == "report" else \
                f" (recorded by the organiser: {p['reason']})"
            told.append(f"Round {p['round']}, table {p['table']}: {_placed(p['placements'], names)}{_score(p)}{how}.")
        elif kind == "GameFinished":
            following = f"; {names[p['next']['players'][0]]} sits first in game {p['game'] + 1}" if "next" in p else ""
            told.append(f"Round {p['round']}, table {p['table']}, game {p['game']}: "
                        f"{_placed(p['placements'], names)}{following}.")
        elif kind == "ResultReported":
            other = next(player for player in p["games"] if player != p["by"])
            told.append(f"Round {p['round']}, table {p['table']}: {names[p['by']]} reported {p['games'][p['by']]} "
                        f"games to {names[other]}'s {p['games'][other]}, {p['drawn']} drawn; waiting for the "
                        "opponent.")
        elif kind == "ReportAnswered":
            told.append(f"{names[p['by']]} confirmed report {p['report_id']}." if p["decision"] == "confirm" else
                        f"{names[p['by']]} disputed report {p['report_id']}: {p['reason']}; the organiser settles it.")
        elif kind == "TournamentFinished" and eliminated and not p.get("champion"):
            told.append("The tournament is over: no one won the final, the players left for it having dropped.")
        elif kind == "TournamentFinished":
            first = p.get("champion") or p["standings"][0]
            told.append(f"The tournament is over: {names[first]} " + ("won the final." if p.get("champion")
                                                                      else "finished first."))
        elif kind == "DecklistsRevealed":
            told.append("The decklists were revealed for anyone to check against the commitments made at registration.")
        elif kind == "SeedRevealed":
            told.append("The server seed was revealed for anyone to check the pairings.")
    return told
