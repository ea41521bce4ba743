"""`herald bot`: a seat played by the machine over the public HTTP API, to fill a table. Only the standard library, so
a bot runs wherever Python does.

From its token alone (GET /whoami) it finds its match, follows its live stream (resumed with Last-Event-ID if dropped)
and plays legal moves whenever its seat is awaited, reading them again after a 409 or 422; it exits printing the
result once the match is finished. Given a tournament player's token, it follows the tournament's stream instead,
plays each table it is seated at, and exits with each match's line and its final standing."""
from __future__ import annotations

import http.client
import json
import random
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator

READ_SECONDS = 45  # a stream silent this long (three missed heartbeats) is dropped and resumed
RECONNECTS = 30  # tries failing in a row (the server out of reach) before the bot gives up, `retry` apart
REFUSALS = 5  # moves refused in a row (409, 422) before the bot gives up: a server refusing what it offered
STRATEGIES: dict[str, Callable[[random.Random, list[dict]], dict]] = {
    "random": lambda chooser, moves: chooser.choice(moves),
    "first": lambda chooser, moves: moves[0],
}


class Refused(Exception):
    """The server refused the bot something it cannot go on without (an unknown token, a referee's...)."""


class Api:
    """The HTTP API at `base`, with a bearer token; a server out of reach (or failing, 5xx) is tried again."""

    def __init__(self, base: str, token: str):
        self.base = base.rstrip("/")
        self.token = token
        self.retry = 2.0  # seconds before trying again, until a stream says (its `retry:` field)

    def request(self, path: str, body: dict | None = None, headers: dict | None = None) -> urllib.request.Request:
        """A GET, or a POST of `body` as JSON, with the token."""
        data = None if body is None else json.dumps(body).encode()
        return urllib.request.Request(self.base + path, data=data, headers={
            "Authorization": f"Bearer {self.token}", **({"Content-Type": "application/json"} if data else {}),
            **(headers or {})})

    def wait(self, failures: int, error: Exception) -> None:
        """Pause before trying again, or Refused once RECONNECTS tries in a row have failed: the server is gone."""
        if failures > RECONNECTS:
            raise Refused(f"{self.base} has not answered {failures} times in a row: {error}")
        time.sleep(self.retry)

    def call(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        """(status, parsed answer) of a request, a refusal's problem document too. A move sent again after a lost
        answer is safe: it carries expected_version, so one already recorded is refused with 409."""
        failures = 0
        while True:
            try:
                with urllib.request.urlopen(self.request(path, body), timeout=READ_SECONDS) as response:
                    return response.status, json.load(response)
            except urllib.error.HTTPError as error:
                if error.code < 500:
                    return error.code, problem(error)
                failure: Exception = error
            except (OSError, http.client.HTTPException, ValueError) as error:
                failure = error
            failures += 1
            self.wait(failures, failure)

    def expect(self, path: str) -> dict:
        """The answer of a GET that must succeed, else Refused with the server's reason."""
        status, answer = self.call(path)
        if status != 200:
            raise Refused(f"{path}: {status} {answer.get('detail', answer)}")
        return answer

    def stream(self, path: str, last_id: int | None) -> Iterator[tuple[str, str]]:
        """The (field, value) lines of a server-sent event stream, resumed after `last_id`, ("", "") ending each
        event; Refused when the server refuses it (a 4xx), OSError when it cannot be reached or drops it."""
        resume = {} if last_id is None else {"Last-Event-ID": str(last_id)}
        try:
            response = urllib.request.urlopen(self.request(path, headers=resume), timeout=READ_SECONDS)
        except urllib.error.HTTPError as error:
            if error.code >= 500:
                raise OSError(f"{path}: {error.code}") from None
            raise Refused(f"{path}: {error.code} {problem(error).get('detail', '')}") from None
        with response:
            for raw in iter(response.readline, b""):
                line = raw.decode().rstrip("\r\n")
                if not line.startswith(":"):  # a comment: a heartbeat
                    field, _, value = line.partition(":")
                    yield field, value.removeprefix(" ")


def problem(error: urllib.error.HTTPError) -> dict:
    """A refusal's problem document, or its text as the detail."""
    text = error.read().decode(errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        return {"detail": text.strip() or error.reason}


class Stream:
    """A live stream's messages until the one that is `over`, resumed with Last-Event-ID from the last one seen
    whenever the connection drops, or closes before that one (a server killed mid-stream closes it cleanly)."""

    def __init__(self, api: Api, path: str, over: Callable[[dict], bool]):
        self.api, self.path, self.over = api, path, over
        self.last_id: int | None = None

    def __iter__(self) -> Iterator[dict]:
        failures = 0
        while True:
            try:
                for message in self.messages():
                    failures = 0
                    yield message
                    if self.over(message):
                        return
                error: Exception = ConnectionError(f"{self.path} closed before its end")
            except (OSError, http.client.HTTPException, ValueError) as failure:
                error = failure
            failures += 1
            self.api.wait(failures, error)

    def messages(self) -> Iterator[dict]:
        """The messages of one connection, each once its blank line has come (a cut one is read again)."""
        ident, data = None, []
        for field, value in self.api.stream(self.path, self.last_id):
            if field == "data":
                data.append(value)
            elif field == "id":
                ident = value
            elif field == "retry" and value.isdigit():
                self.api.retry = int(value) / 1000
            elif not field and data:
                message = json.loads("\n".join(data))
                self.last_id = int(ident) if ident else self.last_id
                ident, data = None, []
                yield message


def finished(message: dict) -> bool:
    """Whether a match stream's message shows the match over (its newest message of a burst carries the view)."""
    return message.get("view", {}).get("status") == "finished"


class Bot:
    """One seat's player: its token, the server, and how it picks a move among the legal ones."""

    def __init__(self, api: Api, strategy: str = "random", seed: int | None = None):
        self.api = api
        self.pick = STRATEGIES[strategy]
        self.chooser = random.Random(seed)

    def run(self) -> str:
        """Play what the token holds (a seat of a match) to its end: the result line."""
        holder = self.api.expect("/whoami")
        if "seat" in holder:
            return self.play(holder["match_id"], holder["seat"])
        if "player_id" in holder:
            return self.enter(holder["tournament_id"], holder["player_id"])
        raise Refused(f"this is the {holder['role']}'s token, who plays no moves: give the bot a seat's or a "
                      "tournament player's token")

    def enter(self, tournament_id: str, player: str) -> str:
        """Play each table the tournament's stream seats this player at (the stream is left while a match is played,
        and resumed after), until the tournament is over: each match's line, then the player's final standing."""
        stream = Stream(self.api, f"/tournaments/{tournament_id}/stream",
                        lambda message: message["event"] == "TournamentFinished")
        lines = []
        while True:
            table = next((m["table"] for m in stream if "table" in m), None)
            if table is None:
                break
            lines.append(f"round {table['round']}, table {table['table']}: "
                         + self.play(table["match_id"], table["seat"]))
        standings = self.api.expect(f"/tournaments/{tournament_id}/standings")
        row = next(r for r in standings["standings"] if r["player_id"] == player)
        return "\n".join([*lines, f"tournament {tournament_id} finished: {player} placed {row['rank']}"])

    def play(self, match_id: str, seat: int) -> str:
        """Follow the match's stream, taking each turn the newest message of a burst (the one with the view) says is
        this seat's, until the match is over."""
        done = 0  # the version after this seat's last turn: older messages are about turns already taken
        for message in Stream(self.api, f"/matches/{match_id}/stream", finished):
            if "view" in message and message["awaiting_seat"] == seat and message["version"] > done:
                done = self.take_turn(match_id)
        return self.result(match_id, seat)

    def take_turn(self, match_id: str) -> int:
        """Play while this seat has legal moves: the version at which it has none left."""
        path = f"/matches/{match_id}"
        legal, refusals = self.api.expect(f"{path}/legal-moves"), 0
        while legal["moves"]:
            move = {**self.pick(self.chooser, legal["moves"]), "expected_version": legal["version"]}
            status, answer = self.api.call(f"{path}/moves?include=legal_moves", move)
            if status == 200:
                legal, refusals = {"version": answer["version"], "moves": answer["legal_moves"]}, 0
                continue
            refusals += 1
            if status not in (409, 422) or refusals >= REFUSALS:
                raise Refused(f"{path}/moves: {status} {answer.get('detail', answer)}")
            legal = self.api.expect(f"{path}/legal-moves")  # the match moved on, or the move is no longer legal
        return legal["version"]

    def result(self, match_id: str, seat: int) -> str:
        """The finished match in a line: who won, from this seat's side."""
        summary = self.api.expect(f"/matches/{match_id}")
        players, winner = summary["players"], summary.get("winner")
        name = f"{players[seat]} (seat {seat})"
        if winner is None:
            outcome = "no single winner"
        else:
            outcome = "won" if winner == seat else f"lost to {players[winner]} (seat {winner})"
        return f"match {match_id} finished at version {summary['version']}: {name} {outcome}"


def main(args) -> int:
    """`herald bot`: play the token's seat to the end of its match; 0 once it is over, 1 if the bot cannot go on."""
    try:
        said = Bot(Api(args.base, args.token), args.strategy, args.seed).run()
        sys.stdout.write(f"{said}\n")  # in one write, so that bots sharing a terminal never join their lines
        sys.stdout.flush()
    except Refused as refused:
        print(f"herald bot: {refused}", file=sys.stderr)
        return 1
    return 0
