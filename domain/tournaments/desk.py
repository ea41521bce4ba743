"""Running tournaments on the matches application: registering players, pairing rounds into new matches whose seats
are the players' tournament tokens, and taking each finished match's result into the tournament."""
from __future__ import annotations

import contextlib
import secrets
import uuid
from datetime import UTC, datetime

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from domain import fair
from domain.errors import IllegalMove
from domain.matches import REFEREE, Matches, VersionConflict, token_hash
from domain.tournaments.aggregate import Tournament


class UnknownTournament(Exception):
    """No tournament has that id."""


class ResultsMissing(IllegalMove):
    """A round cannot be paired while tables of the current one are still playing."""


def create(app: Matches, spec: dict) -> tuple[Tournament, str]:
    """A new tournament and its organiser's token (shown once)."""
    token = secrets.token_urlsafe(24)
    tournament = Tournament.create(uuid.uuid4(), spec, token_hash(token), fair.new_server_seed())
    app.save(tournament)
    return tournament, token


def load(app: Matches, tournament_id) -> Tournament:
    try:
        found = app.repository.get(uuid.UUID(str(tournament_id)))
    except (AggregateNotFoundError, ValueError):
        raise UnknownTournament(tournament_id) from None
    if not isinstance(found, Tournament):
        raise UnknownTournament(tournament_id)
    return found


def register(app: Matches, tournament_id, name: str, decklist: dict | None, missed: str | None = None,
             byes: int = 0) -> tuple[str, str]:
    """A new player and its token, which acts as its seat in every match of the tournament; its decklist, if any,
    kept secret behind a commitment with a fresh salt until the tournament ends (RULINGS T12)."""
    tournament = load(app, tournament_id)
    token = secrets.token_urlsafe(24)
    player_id = tournament.register(name, decklist, token_hash(token), missed, byes, secrets.token_hex(16))
    app.save(tournament)
    return player_id, token


def drop(app: Matches, tournament_id, player_id: str) -> Tournament:
    """A player leaves."""
    return _entry(app, tournament_id, lambda tournament: tournament.drop(player_id))


def undrop(app: Matches, tournament_id, player_id: str) -> Tournament:
    """A player who dropped comes back before the next round is paired."""
    return _entry(app, tournament_id, lambda tournament: tournament.undrop(player_id))


def disqualify(app: Matches, tournament_id, player_id: str, reason: str) -> Tournament:
    """The organiser disqualifies a player, saying why."""
    return _entry(app, tournament_id, lambda tournament: tournament.disqualify(player_id, reason))


def _entry(app: Matches, tournament_id, change) -> Tournament:
    """A change to who is still in, saved; refused once the tournament is over (its standings and champion stand)."""
    tournament = load(app, tournament_id)
    if tournament.status == "finished":
        raise IllegalMove("the tournament is over: its standings stand, and who played in it no longer changes")
    change(tournament)
    app.save(tournament)
    return tournament


def placements_of(match, players: list[str]) -> list[list[str]] | None:
    """A finished match's placements by player id (seat order given), first place first: its winners, then the
    others by the game's final numbers (Game.ranked_by), else together; no winner is a draw of everyone. None while
    it is being played (RULINGS T2)."""
    if not match.finished:
        return None
    winners = list(match.state["winners"])
    others = [seat for seat in range(len(players)) if seat not in winners]
    if not winners or not others:
        return [list(players)]
    numbers = (match.state["result"] or {}).get(match.game.ranked_by) if match.game.ranked_by else None
    groups = [winners]
    if isinstance(numbers, list) and len(numbers) == len(players):
        known = sorted({numbers[s] for s in others if numbers[s] is not None}, reverse=True)
        groups += [[s for s in others if numbers[s] == value] for value in known]
        groups += [[s for s in others if numbers[s] is None]]
    else:
        groups.append(others)
    return [[players[s] for s in group] for group in groups if group]


def settle(app: Matches, tournament: Tournament) -> Tournament:
    """Record the result of every table of the current round whose match has finished; at a best-of-N table, the
    game it finished, then the next game's match or, once the games decide the table, its result (RULINGS T11)."""
    if not tournament.rounds:
        return tournament
    round_ = tournament.rounds[-1]
    for table in round_["tables"]:
        if table["placements"] is not None:
            continue
        seats = table["games"][-1]["players"] if "games" in table else table["players"]
        match = app.load(table["match_id"], for_reading=True)
        placements = placements_of(match, seats)
        if placements and "games" in table:
            following = tournament.next_seats(round_["round"], table["table"], placements)
            match_id = new_match(app, tournament, following, round_["round"], table["table"],
                                 len(table["games"]) + 1) if following else None
            tournament.finish_game(round_["round"], table["table"], placements, match_id)
        elif placements:
            tournament.record_result(round_["round"], table["table"], placements, "match", ended(match))
    if tournament.pending_events:
        app.save(tournament)
    return tournament


def pair_round(app: Matches, tournament_id) -> dict:
    """Pair the next round once every table of the current one has a result, creating its matches: the round as the
    tournament holds it (best of N, each table's first game too)."""
    tournament = settle(app, load(app, tournament_id))
    if not tournament.round_complete:
        raise ResultsMissing("results are missing: tables " + ", ".join(
            str(t["table"]) for t in tournament.rounds[-1]["tables"] if t["placements"] is None) + " are playing")
    tables, byes, draw = tournament.pairing()
    number = len(tournament.rounds) + 1
    match_ids = [new_match(app, tournament, players, number, table) for table, players in enumerate(tables, start=1)]
    tournament.pair(tables, byes, draw, match_ids, datetime.now(UTC))
    app.save(tournament)
    return tournament.rounds[-1]


def call_time(app: Matches, tournament_id) -> Tournament | None:
    """The current round's time has run out: TimeCalled, then each table still playing plays the end of round the
    organiser chose (its match's extra turns, or a draw at once), and the results in are taken; None where no round's
    time has run out now (the round ended first, or another process called it)."""
    tournament = settle(app, load(app, tournament_id))
    try:
        playing = tournament.call_time(datetime.now(UTC))
        app.save(tournament)
    except (IllegalMove, IntegrityError):
        return None
    for table in playing:
        try:
            app.call_time(table["match_id"], tournament.extra_turns)
        except (IllegalMove, VersionConflict):  # it finished meanwhile, or a move came first: once more
            with contextlib.suppress(IllegalMove):
                app.call_time(table["match_id"], tournament.extra_turns)
    return settle(app, load(app, tournament_id))


def deadline_of(app: Matches, tournament_id):
    """When the tournament's current round's time runs out, as the store has it; None if it has none (now)."""
    try:
        return load(app, tournament_id).deadline()
    except UnknownTournament:
        return None


def ended(match) -> str:
    """Why a finished match's result is recorded, in words: its end, or time called and how it was counted."""
    result = match.state["result"] or {}
    if result.get("reason") != "time":
        return "the match finished"
    if match.state["time"]["extra_turns"] is None:
        return "time was called: a draw"
    played = match.state["time"]["turn"]
    return f"time was called; it played {played} extra turn{'s' * (played != 1)}, then the position was counted"


def finished(app: Matches, match) -> None:
    """A match of a tournament finished: its result goes into the tournament at once."""
    entry = match.created["options"].get("tournament")
    if match.finished and entry:
        settle(app, load(app, entry["id"]))


def sealed(app: Matches, match) -> bool:
    """Whether a match holds decklists that are still their players' own: a match of a tournament still running
    whose seats brought decklists (RULINGS T12); not one imported from another server's export, whose tournament is
    not here."""
    options = match.created["options"]
    if "tournament" not in options or "decklists" not in options:
        return False
    try:
        return load(app, options["tournament"]["id"]).status != "finished"
    except UnknownTournament:
        return False


def new_match(app: Matches, tournament: Tournament, players: list[str], round_: int, table: int,
              game: int = 1) -> str:
    """A table's match (best of N, its game `game`): the players' tournament tokens its seats, the organiser's its
    referee, their decklists."""
    created = tournament.created
    decklists = [tournament.decklists[p] for p in players]
    entry = {"id": str(tournament.id), "round": round_, "table": table, **({"game": game} if tournament.best_of > 1
                                                                            else {})}
    options = {**created["options"], **({"decklists": decklists} if all(decklists) else {}), "tournament": entry}
    hashes = {REFEREE: tournament.secret["organiser"], "seats": [tournament.token_hashes[p] for p in players]}
    match, _ = app.create(created["game"], [{"name": tournament.players[p]["name"]} for p in players], options,
                          hashes=hashes)
    return str(match.id)


def override(app: Matches, tournament_id, a: str, b: str, reason: str) -> dict:
    """The organiser swaps two players of the current round between their tables, with a reason: both tables get
    new matches (the old ones, void, stay in the store as they were)."""
    tournament = settle(app, load(app, tournament_id))
    tables = tournament.swapped(a, b)
    number = len(tournament.rounds)
    tournament.override(tables, [new_match(app, tournament, t["players"], number, t["table"]) for t in tables], reason)
    app.save(tournament)
    return tournament.rounds[-1]


def record(app: Matches, tournament_id, round_: int, table: int, placements: list[list[str]], reason: str,
           games: dict[str, int] | None = None, drawn: int = 0) -> None:
    """The organiser records or corrects a table's result, with its reason, and where given the games won and drawn."""
    tournament = load(app, tournament_id)
    tournament.record_result(round_, table, placements, "organiser", reason, games, drawn)
    app.save(tournament)


def report(app: Matches, tournament_id, round_: int, table: int, by: str, games: dict[str, int], drawn: int) -> dict:
    """A player's report of its table's result, waiting for the opponent."""
    tournament = load(app, tournament_id)
    report_id = tournament.report(round_, table, by, games, drawn)
    app.save(tournament)
    return tournament.reports[report_id]


def answer(app: Matches, tournament_id, report_id: str, by: str, decision: str, reason: str | None) -> dict:
    """The opponent's answer to a report: confirmed, its result is recorded; disputed, the organiser records it."""
    tournament = load(app, tournament_id)
    tournament.answer(report_id, by, decision, reason)
    report = tournament.reports[report_id]
    if decision == "confirm":
        names = {p: tournament.players[p]["name"] for p in (report["by"], by)}
        tournament.record_result(report["round"], report["table"], tournament.reported_placements(report_id),
                                 "report", f"reported by {names[report['by']]}, confirmed by {names[by]}",
                                 report["games"], report["drawn"])
    app.save(tournament)
    return report


def log(app: Matches, tournament_id) -> list[dict]:
    """The tournament's events as its export holds them: version, type, payload, chain."""
    load(app, tournament_id)
    return [{"version": e.originator_version, "type": type(e).__name__, "payload": e.payload, "chain": e.chain}
            for e in app.events.get(uuid.UUID(str(tournament_id)))]
