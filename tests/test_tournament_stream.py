"""Live tournament streams (issue 43: "rounds paired, results in, standings changed, time called, reports waiting,
drops. A player also learns of its own next table"): a small Swiss played over HTTP while a spectator, the organiser
and every player follow its stream; read from version 0 after the end it is one message a version whose sentences are
the timeline; each player's stream names its table in each round; Last-Event-ID resumes with nothing lost or
repeated."""
from __future__ import annotations

import random

import pytest

from tests.helpers.api import assert_problem, auth
from tests.helpers.streams import Reader, messages
from tests.helpers.tournaments import entered, paired, play_match


def version_of(client, tid: str) -> int:
    """The tournament's version: its timeline has a sentence a version."""
    return len(client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"])


def caught_up(client, tid: str, readers: dict, number: int) -> None:
    """Every reader read up to the tournament's version: the newest message of the burst carries round `number` and
    the standings as the API shows them now (each burst here changes both)."""
    version = version_of(client, tid)
    for holder, reader in readers.items():
        newest = reader.upto(version)[-1]
        assert newest["version"] == version, holder
        assert newest["round"] == client.get(f"/tournaments/{tid}/rounds/{number}").get_json(), holder
        assert newest["standings"] == client.get(f"/tournaments/{tid}/standings").get_json(), holder


@pytest.fixture
def swiss(sqlite_client):
    """A 4-player Swiss of 2 rounds, followed live from its creation by a spectator, the organiser and each player,
    read in three bursts: round 1's first table played by bots, its second reported by a player; then the report
    confirmed by the other, P4 dropped and round 2 paired (a table and a bye); then round 2's table recorded by the
    organiser, to the end. The tournament id, the players' tokens and the readers by holder (None, "organiser", player
    id)."""
    client = sqlite_client
    tid, organiser, tokens = entered(client, 4, rounds=2)
    path = f"/tournaments/{tid}/stream"
    readers = {None: Reader(client, path), "organiser": Reader(client, path, organiser),
               **{player: Reader(client, path, token) for player, token in tokens.items()}}
    played, reported = paired(client, tid, organiser)["tables"]
    play_match(client, played["match_id"], tokens, played["players"], random.Random(43))
    by, opponent = reported["players"]
    answer = client.post(f"/tournaments/{tid}/reports", headers=auth(tokens[by]),
                         json={"round": 1, "table": 2, "games": {by: 2, opponent: 0}})
    assert answer.status_code == 201, answer.get_json()
    caught_up(client, tid, readers, 1)
    assert client.post(f"/tournaments/{tid}/reports/r1", headers=auth(tokens[opponent]),
                       json={"decision": "confirm"}).status_code == 200
    assert client.post(f"/tournaments/{tid}/players/p4/drop", headers=auth(tokens["p4"])).status_code == 200
    (last,) = paired(client, tid, organiser)["tables"]
    caught_up(client, tid, readers, 2)
    answer = client.post(f"/tournaments/{tid}/results", headers=auth(organiser), json={
        "round": 2, "table": 1, "placements": [[last["players"][1]], [last["players"][0]]], "reason": "on paper"})
    assert answer.status_code == 200, answer.get_json()
    for reader in readers.values():
        reader.to_the_end()
    return tid, tokens, readers


def without(message: dict, *keys: str) -> dict:
    """A message without these keys."""
    return {k: v for k, v in message.items() if k not in keys}


def test_the_stream_read_from_0_after_the_end_is_one_message_a_version_its_sentences_the_timeline(sqlite_client,
                                                                                                   swiss):
    """One message a version, 1 to the last, its id the version; the sentences of all of them the timeline; the newest
    alone carries the round and standings, those the API shows at the end; the stream ends by itself with the
    tournament. Read live as the tournament ran, the public stream told the same versions, and every command woke each
    stream at once: none waited for a heartbeat (sent after 15 s without a new version) to find a drop, a report or a
    result."""
    tid, _, readers = swiss
    response = sqlite_client.get(f"/tournaments/{tid}/stream", buffered=False)
    text = response.get_data(as_text=True)
    told = messages([text])
    timeline = sqlite_client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    assert [m["version"] for m in told] == list(range(1, len(timeline) + 1))
    assert [line for line in text.split("\n") if line.startswith("id: ")] == [f"id: {m['version']}" for m in told]
    assert [s for m in told for s in m["sentences"]] == timeline
    assert [m["version"] for m in told if "round" in m or "standings" in m] == [len(timeline)]
    assert told[-1]["round"] == sqlite_client.get(f"/tournaments/{tid}/rounds/2").get_json()
    assert told[-1]["standings"] == sqlite_client.get(f"/tournaments/{tid}/standings").get_json()
    assert [m["event"] for m in told[-2:]] == ["TournamentFinished", "SeedRevealed"]  # no decklists to reveal
    assert [without(m, "round", "standings") for m in readers[None].got] == \
        [without(m, "round", "standings") for m in told]
    assert not any(": heartbeat" in reader.text for reader in readers.values())


def test_each_players_stream_names_its_table_in_each_round_and_no_one_elses(sqlite_client, swiss):
    """Where a round is paired, each seated player's stream, and only its own, names its table as GET /rounds shows
    it: round, table, match and seat; in round 2 the player with the bye, and P4, who dropped, are named none. A
    player's stream is otherwise the public one."""
    tid, tokens, readers = swiss
    public = readers[None].got
    pairings = [m["version"] for m in public if m["event"] == "RoundPaired"]
    for number, pairing in enumerate(pairings, start=1):
        round_ = sqlite_client.get(f"/tournaments/{tid}/rounds/{number}").get_json()
        seated = {p: {"round": number, "table": t["table"], "match_id": t["match_id"], "seat": seat}
                  for t in round_["tables"] for seat, p in enumerate(t["players"])}
        for player in tokens:
            told = [m["table"] for m in readers[player].got if m["version"] == pairing and "table" in m]
            assert told == ([seated[player]] if player in seated else []), (number, player)
    assert len(pairings) == 2 and len(seated) == 2
    for player in tokens:
        assert sum("table" in m for m in readers[player].got) == 1 + (player in seated)  # round 1, and 2 if seated
        assert [without(m, "table") for m in readers[player].got] == public


def test_the_organisers_stream_tells_the_reports_waiting_and_no_one_elses_does(swiss):
    """The organiser's stream tells the report waiting at the end of the burst it was reported in, and none waiting at
    the end of the next (confirmed, then round 2 paired); the public and the players' streams carry no reports (issue
    42's console shows them to the organiser)."""
    _, tokens, readers = swiss
    told = [(m["event"], m["reports"]) for m in readers["organiser"].got if "reports" in m]
    assert [event for event, _ in told] == ["ResultReported", "RoundPaired"]
    (waiting,), confirmed = told[0][1], told[1][1]
    assert waiting["status"] == "waiting" and waiting["round"] == 1 and waiting["table"] == 2 and confirmed == []
    for holder in (None, *tokens):
        assert not any("reports" in m for m in readers[holder].got), holder


def test_last_event_id_and_from_resume_with_nothing_lost_or_repeated(sqlite_client, swiss):
    """Resumed at random versions (Last-Event-ID, as a browser reconnects, or ?from=), a player's stream tells the
    versions its live stream told after that one, each as it did (its table where paired), the newest with the final
    round and standings; at the last version it ends at once with nothing."""
    tid, tokens, readers = swiss
    whole = readers["p1"].got
    shown = {key: whole[-1][key] for key in ("round", "standings")}
    chooser = random.Random(7)
    for after in [*chooser.sample(range(len(whole)), 4), len(whole)]:
        by_header = Reader(sqlite_client, f"/tournaments/{tid}/stream", tokens["p1"],
                           {"Last-Event-ID": str(after)}).to_the_end()
        by_query = messages([sqlite_client.get(f"/tournaments/{tid}/stream?from={after}",
                                               headers=auth(tokens["p1"])).get_data(as_text=True)])
        assert by_header == by_query, after
        assert [without(m, *shown) for m in by_header] == [without(m, *shown) for m in whole[after:]], after
        assert not by_header or {key: by_header[-1][key] for key in shown} == shown, after


def test_a_stream_refused_says_why(sqlite_client, swiss):
    """A Last-Event-ID that is no version is 400, another tournament's token 403, an unknown tournament 404: each a
    problem document."""
    tid, _, _ = swiss
    other, organiser, _ = entered(sqlite_client, 2)
    assert "whole number" in assert_problem(
        sqlite_client.get(f"/tournaments/{tid}/stream", headers={"Last-Event-ID": "soon"}), 400)["detail"]
    assert_problem(sqlite_client.get(f"/tournaments/{tid}/stream", headers=auth(organiser)), 403)
    assert_problem(sqlite_client.get(f"/tournaments/{other[:-4]}0000/stream"), 404)
