"""Logs exported before a change stay readable and verifiable forever. tests/data/*.ndjson were exported before the
fixes of RULINGS K3, K13, K15 and C2, C20, and before the backups of U3 (For a Crown) and KT7 (Kingdom TCG) reshuffled
more: their chains and draws are untouched, and re-refereeing one that used a move, or holds a backup, now refused
names that event and its version; tests/data/kingdom-tcg-rules-3-throws.ndjson was recorded under kingdom_tcg/3, whose
Throws and card draws had no windows (RULINGS KT3); the tournaments tests/data/tournament-*-rules-1.ndjson were exported before
tournaments recorded their rules version (RULINGS T7). tests/data/recorded/ holds a finished export of every mode of
Korona and Crusader Kingdoms, with take-backs, backups, disputes and undo requests, recorded before the game contract
changed."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from domain.chain import GENESIS, link
from domain.matches import Matches, token_hash
from domain.registry import GAMES
from domain.tournaments import aggregate, desk
from projections.projector import TOURNAMENT_TOKENS
from replays import verify
from replays.referee import Rejected, rereferee
from replays.tournament_audit import Differs, audit
from service.access import StoredTokens

DATA = Path(__file__).parent / "data"
RECORDED = sorted(p.stem for p in (DATA / "recorded").glob("*.ndjson"))

# log -> (version of the first move today's rules refuse, the move as the timeline tells it)
REFUSED = {
    "korona-swap-gave-nothing": (18, "P0 played Tactical Swap on P2."),
    "korona-revolt-single-card-passed": (272, "P0 had P1 pass Healer to P0 in the Revolt."),
    "korona-revolt-second-ruler-pair": (263, "P0 had P0 pass Ruler and Ruler to P1 in the Revolt."),
}


def lines(name: str) -> list[str]:
    return (DATA / f"{name}.ndjson").read_text().splitlines()


def test_every_mode_of_every_game_is_recorded():
    assert RECORDED == ["crusader-kingdoms-1p", "crusader-kingdoms-2p", "crusader-kingdoms-3p", "crusader-kingdoms-4p",
                        "korona-2p", "korona-3p", "korona-4p"]


@pytest.mark.parametrize("name", RECORDED)
def test_a_recorded_log_verifies_audits_and_replays_at_any_version(name, tmp_path):
    """The verifier passes it; the re-referee plays it to its end; stored again, the match loads at a version with
    that version's chain link and the state the log folds to."""
    recorded = lines(f"recorded/{name}")
    out = []
    assert verify.verify(recorded, out=out.append), out
    match = rereferee(recorded)
    events = [json.loads(line) for line in recorded[1:]]
    assert match.finished and match.version == len(events)
    store = Matches(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "e.sqlite")})
    store.store_import(match)
    half = len(events) // 2
    state = match.game.new_state(events[0]["payload"])
    for event in events[1:half]:
        state = match.game.evolve(state, event["type"], event["payload"])
    past = store.load(match.id, version=half)
    assert past.chain == events[half - 1]["chain"] and past.state == state


# log -> (version of its backup, the rules it was recorded under): a backup whose reshuffle the rules changed
RESHUFFLED = {
    "kingdom-tcg-backup-over-a-card-seen-by-mistake": (12, "kingdom_tcg/1"),  # RULINGS KT7
    "for-a-crown-backup-over-a-revealed-event": (95, "for_a_crown/1"),  # RULINGS U3
}


@pytest.mark.parametrize("name", [*REFUSED, *RESHUFFLED, "crusader-kingdoms-2p"])
def test_an_old_log_still_verifies(name):
    """The standalone verifier passes every old log: hash chain, seed commitment and every draw."""
    out = []
    assert verify.verify(lines(name), out=out.append), out
    assert all(line.startswith("ok") for line in out)


@pytest.mark.parametrize("name", list(REFUSED))
def test_rereferee_names_the_move_now_refused_and_its_version(name):
    """A Korona log that used a move the rules now refuse (a Swap giving nothing, a lone card passed without its
    placement, a second Ruler pair) is re-refereed up to that move, and the refusal names it and its version."""
    version, told = REFUSED[name]
    with pytest.raises(Rejected) as refused:
        rereferee(lines(name))
    assert refused.value.version == version
    assert f"({told})" in str(refused.value) and str(refused.value).startswith(f"version {version}: ")
    # the log predates rules versions, so the refusal says the rules changed rather than calling the log altered
    assert "under the rules Herald applies today, korona/2; the log was recorded under korona rules from before " \
           "Herald recorded rules versions" in str(refused.value)
    assert "a change of rules, not a sign the log was altered" in str(refused.value)


@pytest.mark.parametrize("name", list(RESHUFFLED))
def test_rereferee_calls_a_backup_reshuffled_otherwise_today_a_change_of_rules(name):
    """A log recorded under rules version 1 of For a Crown or Kingdom TCG whose backup today's rules reshuffle
    otherwise (the Event stack, RULINGS U3; a deck whose card was seen by mistake, KT7) verifies, and its re-refereeing
    stops at that backup, naming the rules it was recorded under as a change of rules, not tampering."""
    version, rules = RESHUFFLED[name]
    with pytest.raises(Rejected) as refused:
        rereferee(lines(name))
    assert refused.value.version == version and "BackupPerformed" in str(refused.value)
    assert f"recorded under {rules}" in str(refused.value)
    assert "a change of rules, not a sign the log was altered" in str(refused.value)


def test_a_kingdom_tcg_log_of_rules_3_verifies_folds_and_its_audit_names_the_change_of_rules():
    """Its chain and draws verify; its events still fold to its end (a match stored under kingdom_tcg/3 loads, Throws
    rolled in one block included); re-refereeing it under kingdom_tcg/4 stops where today's rules open a window its
    rules did not, and says the log was recorded under kingdom_tcg/3: a change of rules, not tampering."""
    recorded = lines("kingdom-tcg-rules-3-throws")
    out = []
    assert verify.verify(recorded, out=out.append) and all(line.startswith("ok") for line in out), out
    events = [json.loads(line) for line in recorded[1:]]
    assert events[0]["payload"]["rules"] == "kingdom_tcg/3"
    assert sum(e["type"] == "DiceRolled" and e["payload"]["roll"] == "throw" for e in events) == 3
    game = GAMES["kingdom_tcg"]
    state = game.new_state(events[0]["payload"])
    for event in events[1:]:
        state = game.evolve(state, event["type"], event["payload"])
    assert state["status"] == "finished" and state["suspended"] == []
    with pytest.raises(Rejected) as refused:
        rereferee(recorded)
    assert "under the rules Herald applies today, kingdom_tcg/4; the log was recorded under kingdom_tcg/3" in \
        str(refused.value)
    assert "a change of rules, not a sign the log was altered" in str(refused.value)


def test_an_old_crusader_kingdoms_log_rereferees_to_its_end():
    """Crusader Kingdoms' changes only allow more (C2, C20), so an old log is re-refereed whole."""
    match = rereferee(lines("crusader-kingdoms-2p"))
    assert match.finished and match.version == len(lines("crusader-kingdoms-2p")) - 1


def test_a_tournament_recorded_before_its_rules_version_still_audits():
    """RULINGS T7: a Swiss tournament exported before tournaments recorded their rules version (no "rules" in
    TournamentCreated) audits as it did: its pairings and standings are the same under today's rules."""
    assert audit(lines("tournament-swiss-rules-1"))[0].startswith("ok")


def test_a_tournament_paired_otherwise_today_is_named_a_change_of_rules():
    """RULINGS T7: a single elimination exported before it, whose final seated a semi-final winner who had dropped, now
    pairs that final as a bye: the audit names the round and says the log was recorded under earlier rules."""
    with pytest.raises(Differs) as differs:
        audit(lines("tournament-finalist-dropped-rules-1"))
    assert "RoundPaired): round 2 recomputes as" in str(differs.value)
    assert "recorded under tournament rules from before Herald recorded their version" in str(differs.value)
    assert "a change of rules, not a sign the log was altered" in str(differs.value)


def test_a_changed_pairing_in_an_old_two_player_swiss_is_not_excused_as_a_change_of_rules():
    """T7 changed eliminations, rounds of byes alone and a bye's worth; a 2-player Swiss without a cut whose points top
    at 3 pairs and scores alike under both. Yet the audit appends to any Differs of an export without "rules" that it
    is "a change of rules, not a sign the log was altered": here, a pairing rewritten (and rechained) by hand."""
    edited = [json.loads(line) for line in (DATA / "tournament-swiss-rules-1.ndjson").read_text().splitlines()]
    second = next(r for r in edited[1:] if r["type"] == "RoundPaired" and r["payload"]["round"] == 2)
    one, two = second["payload"]["tables"]
    one["players"][1], two["players"][1] = two["players"][1], one["players"][1]
    previous = GENESIS
    for row in edited[1:]:
        row["chain"] = previous = link(previous, row["version"], row["type"], row["payload"])
    with pytest.raises(Differs) as differs:
        audit([json.dumps(r) for r in edited])
    assert "RoundPaired): round 2 recomputes as" in str(differs.value)
    assert "not a sign the log was altered" not in str(differs.value)


def test_a_tournament_stored_before_its_module_moved_still_loads(tmp_path):
    """Issue 44 moved domain/tournament.py to domain/tournaments/aggregate.py. The event store records each event's
    topic (module:Class), so a tournament stored before names the old module: it still loads, and the tokens it
    handed out are still found in the store (service/access.py reads them by topic)."""
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "old.sqlite")}
    app = Matches(env=env)
    tournament, organiser = desk.create(app, {"name": "Old", "game": "korona", "format": "swiss", "rounds": 1,
                                              "table_size": 2, "top_cut": 0, "placement_points": [3, 0],
                                              "options": {}})
    player, token = desk.register(app, tournament.id, "Ana", None)
    today = desk.load(app, tournament.id)
    app.close()
    with sqlite3.connect(tmp_path / "old.sqlite") as db:  # as Herald stored them before the move
        rows = db.execute("SELECT rowid, topic, state FROM stored_events").fetchall()
        for rowid, topic, state in rows:
            db.execute("UPDATE stored_events SET topic = ?, state = ? WHERE rowid = ?",
                       (topic.replace(aggregate.__name__ + ":", "domain.tournament:"),
                        state.replace(aggregate.__name__.encode() + b":", b"domain.tournament:"), rowid))
        topics = {topic for (topic,) in db.execute("SELECT topic FROM stored_events")}
    assert topics == {"domain.tournament:Tournament.TournamentCreated", "domain.tournament:PlayerRegistered"}

    app = Matches(env=env)
    try:
        loaded = desk.load(app, tournament.id)
        assert loaded.version == today.version and loaded.players == today.players and loaded.chain == today.chain
        stored = StoredTokens(app)
        assert stored.owner(token_hash(organiser), TOURNAMENT_TOKENS) == f"{tournament.id}:organiser"
        assert stored.owner(token_hash(token), TOURNAMENT_TOKENS) == f"{tournament.id}:{player}"
    finally:
        app.close()
