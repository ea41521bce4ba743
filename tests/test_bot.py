"""`herald bot` (issue 43, "a bot in the box"): bots find their match from their token alone (GET /whoami), play it
to its end over the match's live stream with only the public HTTP API, and carry on across a server restart."""
from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from service.bot import Api, Bot
from tests.helpers.api import assert_problem, auth
from tests.helpers.server import call, restart_shared_server, shared_server

KORONA = {"game": "korona", "players": ["Ana", "Bo"]}


@pytest.fixture
def server(request):
    """A real server on SQLite, shared with the other tests that leave it running, with a Redis of its own: it holds
    nothing of another event store (a projector position past this one's events would leave them unprojected,
    unannounced and their tokens unknown)."""
    return shared_server(request, "sqlite")


def created_match(base: str, body: dict = KORONA) -> dict:
    status, created = call(base, "POST", "/matches", body)
    assert status == 201, created
    return created


def start_bot(base: str, token: str, *options: str) -> subprocess.Popen:
    """`python -m service.cli bot` for a token, as a player would run `herald bot`."""
    return subprocess.Popen([sys.executable, "-m", "service.cli", "bot", f"--token={token}", "--base", base, *options],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def bot_exit(bot: subprocess.Popen) -> tuple[int, list[str], str]:
    """A bot's exit status, the lines it printed and its error output, once it has exited."""
    out, err = bot.communicate(timeout=300)
    return bot.returncode, out.splitlines(), err


def result_line(base: str, match_id: str, seat: int) -> str:
    """What a seat's bot prints at the end: the finished match's version and the seat's result, from its summary."""
    summary = call(base, "GET", f"/matches/{match_id}")[1]
    assert summary["status"] == "finished"
    names, winner = summary["players"], summary["winner"]
    outcome = "won" if seat == winner else f"lost to {names[winner]} (seat {winner})"
    return f"match {match_id} finished at version {summary['version']}: {names[seat]} (seat {seat}) {outcome}"


def assert_played_to_the_end(base: str, match_id: str, bots: dict[int, subprocess.Popen]) -> int:
    """Every seat's bot exited 0 printing one line, its result of the finished match; the match's last version."""
    for seat, bot in bots.items():
        status, lines, err = bot_exit(bot)
        assert status == 0, err
        assert lines == [result_line(base, match_id, seat)]
    return call(base, "GET", f"/matches/{match_id}")[1]["version"]


def test_two_bots_play_a_korona_match_to_its_end_over_its_stream(server):
    """One bot playing random moves (seeded), the other the first legal move each time: both find their seats from
    their tokens and play the whole match, and each prints the result from its side."""
    created = created_match(server.base)
    bots = {0: start_bot(server.base, created["seats"][0]["token"], "--seed", "3"),
            1: start_bot(server.base, created["seats"][1]["token"], "--strategy", "first")}
    assert assert_played_to_the_end(server.base, created["match_id"], bots) > 50  # many turns each


class Recording(Api):
    """The bot's API, noting each request's path, body and answer."""

    def __init__(self, *args):
        super().__init__(*args)
        self.calls: list[tuple[str, dict | None, dict]] = []

    def call(self, path, body=None):
        status, answer = super().call(path, body)
        self.calls.append((path, body, answer))
        return status, answer


def test_the_first_strategy_posts_the_first_legal_move_offered(server):
    """Seat 0 played in this process with --strategy first's choice against a `herald bot --strategy first`: every
    move it posts is the first of the legal moves it was last offered (by GET /legal-moves or by its previous move's
    answer), at the version they were offered at."""
    created = created_match(server.base)
    other = start_bot(server.base, created["seats"][1]["token"], "--strategy", "first")
    api = Recording(server.base, created["seats"][0]["token"])
    printed = []
    playing = threading.Thread(target=lambda: printed.append(Bot(api, "first").play(created["match_id"], 0)),
                               daemon=True)
    playing.start()
    playing.join(300)
    assert printed == [result_line(server.base, created["match_id"], 0)]
    assert_played_to_the_end(server.base, created["match_id"], {1: other})
    offered, posted = None, 0
    for path, body, answer in api.calls:
        if body is not None:
            assert body == {**offered["moves"][0], "expected_version": offered["version"]}
            posted += 1
        if path.endswith("/legal-moves"):
            offered = answer
        elif "legal_moves" in answer:
            offered = {"version": answer["version"], "moves": answer["legal_moves"]}
    assert posted > 20


def test_bots_carry_on_across_a_server_restart(server):
    """The server killed while three bots play and started again on its port: each bot's stream is resumed with
    Last-Event-ID and a move whose answer was lost is read again, so the match is played to its end."""
    created = created_match(server.base, {"game": "korona", "players": ["Ana", "Bo", "Cy"]})
    bots = {seat["seat"]: start_bot(server.base, seat["token"], "--seed", str(seat["seat"])) for seat in created["seats"]}
    deadline = time.monotonic() + 60
    while (version := call(server.base, "GET", f"/matches/{created['match_id']}")[1]["version"]) < 10:
        assert time.monotonic() < deadline, [bot_exit(bot) for bot in bots.values()]
        time.sleep(0.01)
    restarted = restart_shared_server("sqlite")  # SIGKILL, and started again on its port, its store and its Redis
    assert assert_played_to_the_end(restarted.base, created["match_id"], bots) > version + 20


def test_bots_given_tournament_players_tokens_play_every_table_they_are_seated_at(server):
    """Four bots, each given only its tournament player's token, follow the tournament's stream: each plays its
    table of each round as the organiser pairs it, and exits when the tournament ends, printing each match's line and
    its final standing."""
    _, cup = call(server.base, "POST", "/tournaments", {"name": "Cup", "game": "korona", "format": "swiss",
                                                        "rounds": 2, "table_size": 2, "top_cut": 0})
    tid, organiser = cup["tournament_id"], cup["organiser_token"]
    players = {}
    for seed, name in enumerate(("Ana", "Bo", "Cy", "Di")):
        _, entered = call(server.base, "POST", f"/tournaments/{tid}/players", {"name": name}, organiser)
        players[entered["player_id"]] = start_bot(server.base, entered["token"], "--seed", str(seed))
    seated: dict[str, list[str]] = {player: [] for player in players}
    for number in (1, 2):
        status, round_ = call(server.base, "POST", f"/tournaments/{tid}/rounds", token=organiser)
        assert status == 201, round_
        for table in round_["tables"]:
            for seat, player in enumerate(table["players"]):
                seated[player].append((number, table["table"], table["match_id"], seat))
        deadline = time.monotonic() + 300
        while any(t["placements"] is None for t in call(server.base, "GET", f"/tournaments/{tid}/rounds/{number}")[1][
                "tables"]):
            assert time.monotonic() < deadline and not any(bot.poll() for bot in players.values()), \
                [bot_exit(bot) for bot in players.values() if bot.poll() is not None]
            time.sleep(0.1)
    standings = call(server.base, "GET", f"/tournaments/{tid}/standings")[1]["standings"]
    assert call(server.base, "GET", f"/tournaments/{tid}")[1]["status"] == "finished"
    for player, bot in players.items():
        status, lines, err = bot_exit(bot)
        assert status == 0, err
        rank = next(row["rank"] for row in standings if row["player_id"] == player)
        assert lines == [f"round {number}, table {table}: {result_line(server.base, match_id, seat)}"
                         for number, table, match_id, seat in seated[player]] + \
            [f"tournament {tid} finished: {player} placed {rank}"]


@pytest.mark.parametrize("holder", ["referee", "unknown"])
def test_a_bot_without_a_seat_exits_saying_why(server, holder):
    """A referee's token plays no moves and an unknown token plays nothing: exit 1, the reason on stderr."""
    created = created_match(server.base)
    token = created["referee_token"] if holder == "referee" else "no-such-token"
    status, lines, err = bot_exit(start_bot(server.base, token))
    reason = "the referee's token, who plays no moves" if holder == "referee" else "401 this token is not known"
    assert (status, lines) == (1, []) and reason in err, err


def test_whoami_names_each_tokens_match_or_tournament(sqlite_client):
    """A seat's token its match and seat, the referee's its match and role; a tournament's organiser's and player's
    their tournament and role or player; an unknown token or none is refused (401)."""
    created = sqlite_client.post("/matches", json=KORONA).get_json()
    match_id = created["match_id"]
    for seat in created["seats"]:
        assert whoami(sqlite_client, seat["token"]) == {"match_id": match_id, "seat": seat["seat"]}
    assert whoami(sqlite_client, created["referee_token"]) == {"match_id": match_id, "role": "referee"}
    cup = sqlite_client.post("/tournaments", json={"name": "Cup", "game": "korona", "format": "swiss", "rounds": 1,
                                                   "table_size": 2, "top_cut": 0}).get_json()
    tid, organiser = cup["tournament_id"], cup["organiser_token"]
    player = sqlite_client.post(f"/tournaments/{tid}/players", json={"name": "Ana"}, headers=auth(organiser)).get_json()
    assert whoami(sqlite_client, organiser) == {"tournament_id": tid, "role": "organiser"}
    assert whoami(sqlite_client, player["token"]) == {"tournament_id": tid, "player_id": player["player_id"]}
    assert_problem(sqlite_client.get("/whoami", headers=auth("no-such-token")), 401)
    assert_problem(sqlite_client.get("/whoami"), 401)


def whoami(client, token: str) -> dict:
    answer = client.get("/whoami", headers=auth(token))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()
