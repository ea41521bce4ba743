"""`herald audit-tournament`: a tournament's export re-run offline. Its chain, its seed against the commitment, each
decklist revealed at the end against its commitment, every round's pairing recomputed from the seed and the results
before it, the standings recomputed from the results, and every match export given verified and matched against the
result the tournament recorded."""
from __future__ import annotations

import json
import uuid

from domain import clock, fair
from domain.chain import GENESIS, link
from domain.errors import IllegalMove
from domain.match import Match
from domain.tournaments.aggregate import RULES, Tournament, decklist_commitment
from domain.tournaments.desk import placements_of
from replays import verify
from replays.referee import Rejected, rereferee

FORMAT = "herald-tournament-v1"
ADDED = ("tournament_id", "seed_commitment", "fairness", "rules")  # what the aggregate adds to the spec


class Differs(Exception):
    """The export does not recompute: the message names the first event that differs, and how."""


class Recomputed(Differs):
    """A pairing or an event the tournament gives recomputes otherwise than logged: tampering, or a change of rules."""


def tournament_export(tournament_id: str, records: list[dict]) -> list[str]:
    """The NDJSON lines of a tournament's export: a header, then one line per event."""
    rows = [{"format": FORMAT, "tournament_id": tournament_id}, *records]
    return [json.dumps(row, ensure_ascii=False) for row in rows]


def _rows(lines: list[str]) -> list[dict]:
    try:
        header, *rows = [json.loads(line) for line in lines if line.strip()]
    except ValueError as error:
        raise Differs(f"the file is not a tournament export: {error}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT or not rows:
        raise Differs(f"the file is not a {FORMAT} export")
    return rows


def _chain(rows: list[dict]) -> None:
    previous = GENESIS
    for row in rows:
        if link(previous, row["version"], row["type"], row["payload"]) != row["chain"]:
            raise Differs(f"version {row['version']} ({row['type']}): its chain value does not follow from the "
                          "events before it: the log was changed")
        previous = row["chain"]


def _revealed(rows: list[dict]) -> dict[str, dict]:
    """Each decklist committed at registration, with its salt, as DecklistsRevealed published it, checked against its
    commitment (RULINGS T12); Differs names the first that does not match, or a commitment never revealed."""
    revealed = next((row for row in rows if row["type"] == "DecklistsRevealed"), None)
    decklists = revealed["payload"]["decklists"] if revealed else {}
    for row in rows:
        p = row["payload"]
        if row["type"] != "PlayerRegistered" or "decklist_commitment" not in p:
            continue
        deck = decklists.get(p["player_id"])
        if deck is None:
            raise Differs(f"version {row['version']} (PlayerRegistered): {p['name']}'s decklist was committed, "
                          "and never revealed")
        if decklist_commitment(deck["decklist"], deck["salt"]) != p["decklist_commitment"]:
            raise Differs(f"version {revealed['version']} (DecklistsRevealed): {p['name']}'s decklist does not "
                          f"match the commitment made when it registered (version {row['version']})")
    return decklists


def _replay(rows: list[dict], seed: bytes, ended: dict[str, Match]) -> Tournament:
    """Run the tournament again from its spec, registrations (their decklists as revealed at the end), drops and
    results; each pairing recomputed, and each result taken from a match checked against that match's export where
    one is given (`ended`, by match id)."""
    created = rows[0]["payload"]
    spec = {k: v for k, v in created.items() if k not in ADDED}
    tournament = Tournament.create(uuid.UUID(created["tournament_id"]), spec, "audit", seed, created.get("rules"))
    decklists = _revealed(rows)
    for row in rows[1:]:
        kind, p = row["type"], row["payload"]
        try:
            if kind == "PlayerRegistered":
                deck = decklists.get(p["player_id"], {"decklist": p.get("decklist"), "salt": None})
                tournament.register(p["name"], deck["decklist"], "audit", p.get("missed", {}).get("as"),
                                    p.get("byes", 0), deck["salt"])
            elif kind == "PlayerDropped":
                tournament.drop(p["player_id"])
            elif kind == "PlayerUndropped":
                tournament.undrop(p["player_id"])
            elif kind == "PlayerDisqualified":
                tournament.disqualify(p["player_id"], p["reason"])
            elif kind == "RoundPaired":
                tables, byes, draw = tournament.pairing()
                logged = ([t["players"] for t in p["tables"]], p["byes"], p["random"])
                if (tables, byes, [draw] if draw else []) != logged:
                    raise Recomputed(f"version {row['version']} (RoundPaired): round {p['round']} recomputes "
                                     f"as {tables} with byes {byes}, not as logged {logged[0]} with byes {logged[1]}")
                tournament.pair(tables, byes, draw, [t["match_id"] for t in p["tables"]],
                                clock.read(p["at"]) if "at" in p else None)
            elif kind == "TimeCalled":
                tournament.call_time(clock.read(p["at"]))
            elif kind == "PairingOverridden":
                before = {t["table"]: t["players"] for t in tournament.rounds[-1]["tables"]}
                moved = [x for t in p["tables"] for x in t["players"] if x not in before.get(t["table"], [])]
                if len(moved) != 2 or {t["table"]: t["players"] for t in tournament.swapped(*moved)} != {
                        t["table"]: t["players"] for t in p["tables"]}:
                    raise Differs(f"version {row['version']} (PairingOverridden): not a swap of two players of the "
                                  "round's tables")
                tournament.override(p["tables"], [t["match_id"] for t in p["tables"]], p["reason"])
            elif kind == "ResultReported":
                tournament.report(p["round"], p["table"], p["by"], p["games"], p["drawn"])
            elif kind == "ReportAnswered":
                tournament.answer(p["report_id"], p["by"], p["decision"], p.get("reason"))
            elif kind == "GameFinished":
                game = tournament.table(p["round"], p["table"])["games"][-1]
                _held_to_match(row, ended.get(game["match_id"]), game["players"])
                tournament.finish_game(p["round"], p["table"], p["placements"], p.get("next", {}).get("match_id"))
            elif kind == "ResultRecorded" and p["by"] == "match" and tournament.best_of > 1:
                continue  # the last GameFinished recorded it, from the games: the recomputation holds it to this one
            elif kind == "ResultRecorded":
                table = tournament.rounds[p["round"] - 1]["tables"][p["table"] - 1]
                confirmed = [r for r in tournament.reports.values() if r["status"] == "confirmed"
                             and (r["round"], r["table"]) == (p["round"], p["table"])]
                if p["by"] == "report" and (not confirmed or not _as_reported(tournament, confirmed[-1], p)):
                    raise Differs(f"version {row['version']} (ResultRecorded): round {p['round']}, table "
                                  f"{p['table']} is recorded as reported, but no confirmed report gives "
                                  f"{p['placements']}" + (f" with games {p['games']}" if "games" in p else ""))
                if p["by"] == "match":
                    _held_to_match(row, ended.get(table["match_id"]), table["players"])
                tournament.record_result(p["round"], p["table"], p["placements"], p["by"], p["reason"],
                                         p.get("games"), p.get("drawn", 0))
        except (IllegalMove, KeyError, ValueError) as error:
            raise Differs(f"version {row['version']} ({kind}): {error}") from None
    for match in ended.values():
        _time_held(match, tournament)
    return tournament


def _time_held(match: Match, tournament: Tournament) -> None:
    """Differs unless time was called in a match only where its tournament called it at its table, with the end of
    round the tournament set (RULINGS T13)."""
    called = match.state.get("time")
    if called is None:
        return
    seat = match.created["options"].get("tournament", {})
    round_ = tournament.rounds[seat["round"] - 1] if 0 < seat.get("round", 0) <= len(tournament.rounds) else {}
    if seat.get("table") not in round_.get("time_called", {}).get("tables", ()):
        raise Differs(f"match {match.id}: time was called in it, but not by its tournament at its table")
    if called["extra_turns"] != tournament.extra_turns:
        raise Differs(f"match {match.id}: time was called with {called['extra_turns']} extra turns; the tournament's "
                      f"end of round gives {tournament.extra_turns}")


def _held_to_match(row: dict, match: Match | None, seats: list[str]) -> None:
    """A result taken from a match (a table's, or a game's of a best-of-N table) against that match's export, where
    one is given: Differs unless the match ended with the placements logged."""
    p = row["payload"]
    if match and placements_of(match, seats) != p["placements"]:
        game = f", game {p['game']}" if "game" in p else ""
        raise Differs(f"version {row['version']} ({row['type']}): round {p['round']}, table {p['table']}{game} is "
                      f"recorded as {p['placements']}, but its match ended {placements_of(match, seats)}")


def _as_reported(tournament: Tournament, report: dict, p: dict) -> bool:
    """Whether a result recorded from a confirmed report is the report's: its placements, and its games where the
    result gives them (a result recorded before results carried games gives none)."""
    placed = tournament.reported_placements(report["report_id"]) == p["placements"]
    return placed and ("games" not in p or (p["games"], p["drawn"]) == (report["games"], report["drawn"]))


def audit(lines: list[str], match_logs: list[list[str]] = ()) -> list[str]:
    """The checks that passed, one line each; Differs names the first that did not."""
    rows = _rows(lines)
    _chain(rows)
    revealed = [row["payload"]["server_seed"] for row in rows if row["type"] == "SeedRevealed"]
    if not revealed:
        raise Differs("the tournament is not over: its seed is revealed only after the last round's results")
    seed = bytes.fromhex(revealed[0])
    if fair.commitment(seed) != rows[0]["payload"]["seed_commitment"]:
        raise Differs("the revealed seed does not match the commitment published when the tournament was created")
    ended = {str(match.id): match for match in map(_verified, match_logs)}
    try:
        tournament = _recomputed(rows, seed, ended)
    except Recomputed as differs:  # a result contradicting its match, a swap that is not one: no rules excuse these
        created = rows[0]["payload"]
        recorded = created.get("rules", "tournament rules from before Herald recorded their version")
        if recorded == RULES or _paired_alike(created):
            raise
        raise Differs(f"{differs}; the tournament was recorded under {recorded}, so a pairing or result those rules "
                      "gave may recompute otherwise now: that is a change of rules, not a sign the log was altered"
                      ) from None
    checks = [f"ok   chain of {len(rows)} events", "ok   seed matches its commitment",
              f"ok   {len(tournament.rounds)} rounds of pairings recomputed from the seed and the results",
              "ok   standings recomputed from the results"]
    if tournament.salts:
        checks.append(f"ok   {len(tournament.salts)} decklists revealed match their commitments")
    tables = {game["match_id"] for r in tournament.rounds for t in r["tables"] for game in t.get("games", [t])}
    strangers = sorted(set(ended) - tables)
    if strangers:
        raise Differs(f"match {strangers[0]} is not a table of this tournament")
    return checks + [f"ok   match {match_id} verifies and its result is the one recorded" for match_id in ended]


def _paired_alike(created: dict) -> bool:
    """Whether tournament/2 pairs and scores this tournament as the rules before it did (RULINGS T7 changed
    eliminations, rounds of byes alone and a bye's worth, which was max(3, placement points) at every table size)."""
    return (created["format"] == "swiss" and not created["top_cut"] and created["table_size"] == 2
            and max(created["placement_points"]) <= 3)


def _recomputed(rows: list[dict], seed: bytes, ended: dict[str, Match]) -> Tournament:
    """The tournament replayed, its every event held to the logged one."""
    tournament = _replay(rows, seed, ended)
    recomputed = [{"version": e.originator_version, "type": type(e).__name__, "payload": e.payload, "chain": e.chain}
                  for e in tournament.collect_events()]
    for row, again in zip(rows, recomputed):
        if row != again:
            raise Recomputed(f"version {row['version']} ({row['type']}): recomputes as {again['type']} "
                             f"{json.dumps(again['payload'])[:200]}")
    if len(recomputed) != len(rows):
        raise Recomputed(f"the log holds {len(rows)} events; recomputing it gives {len(recomputed)}")
    return tournament


def _verified(lines: list[str]) -> Match:
    """A match export that verifies and re-referees, as the match it records."""
    failed = []
    if not verify.verify(lines, (), lambda line: failed.append(line) if line.startswith("FAIL") else None):
        raise Differs(f"a match export does not verify: {failed[0] if failed else 'see replays.verify'}")
    try:
        return rereferee(lines)
    except Rejected as rejected:
        raise Differs(f"a match export does not re-referee: {rejected}") from None
