"""The tournament aggregate: one per tournament, every registration, drop, pairing and result an immutable event with
a chain link, its random choices drawn from its own committed seed (docs/FAIRNESS.md) and recorded in the events."""
from __future__ import annotations

import hashlib
import itertools
import json
import sys
from collections import Counter
from datetime import datetime, timedelta

from eventsourcing.domain import Aggregate
from eventsourcing.utils import get_topic, register_topic

from domain import clock, fair
from domain.chain import GENESIS, link
from domain.errors import IllegalMove
from domain.registry import GAMES
from domain.tournaments.pairing import BYE, ENGINE, swiss
from domain.tournaments.pods import pods
from domain.tournaments.standings import WIN, shown, standings

DEFAULT_EXTRA_TURNS = 5  # MTR 2.5: the turn under way, then five more
PODS = "herald pods: exhaustive up to 12 players, swaps between tables beyond"
# the pairing and standings rules a tournament records when created; up when an old tournament's log may pair otherwise
# (2: the cut follows its tables as seated, drops and byes in elimination, a bye worth the top of the points)
RULES = "tournament/2"
# this module's name before it moved into domain/tournaments/: the event store records each event's topic, module and
# class, so the tournaments stored then name it; registered as this module, their events load as they always did
MOVED_FROM = "domain.tournament"
register_topic(MOVED_FROM, sys.modules[__name__])


def stored_topics(cls: type) -> tuple[str, str]:
    """The topics an event class of this module may be stored under: today's, and the one from before it moved (for
    a query of the notification log by topic)."""
    topic = get_topic(cls)
    return topic, MOVED_FROM + topic.removeprefix(__name__)


class TournamentEvent(Aggregate.Event):
    """An immutable record of one thing that happened to a tournament: its public payload and its chain link."""

    payload: dict
    chain: str

    def apply(self, tournament) -> None:
        tournament.apply_event(type(self).__name__, self.payload, self.chain)


class PlayerRegistered(TournamentEvent):
    """A player joined: its name and, where the game has decklists, its decklist's commitment (RULINGS T12); its
    token's hash, its decklist and the decklist's salt are secret until the tournament ends. (Logs from before the
    commitments hold the decklist itself.)"""

    secret: dict

    def apply(self, tournament) -> None:
        player = self.payload["player_id"]
        tournament.token_hashes[player] = self.secret["token"]
        super().apply(tournament)
        if "decklist" in self.secret:
            tournament.decklists[player] = self.secret["decklist"]
            tournament.salts[player] = self.secret["salt"]


class PlayerDropped(TournamentEvent):
    """A player left; it is paired no more and stays in the standings."""


class PlayerUndropped(TournamentEvent):
    """A player who had dropped came back before the next round was paired: it is paired again from that round."""


class PlayerDisqualified(TournamentEvent):
    """The organiser disqualified a player, saying why: it is paired no more, and the standings say so."""


class RoundPaired(TournamentEvent):
    """A round's tables and byes, the engine that paired them, and the seeded draw that ordered players on equal
    standing; each table's match id."""


class PairingOverridden(TournamentEvent):
    """The organiser swapped two players of the current round between their tables, with a reason; the two tables'
    matches are replaced by new ones (the old ones are void)."""


class GameFinished(TournamentEvent):
    """A game of a best-of-N table finished (its match's placements); unless that decided the table, the next game's
    match and seat order (RULINGS T11)."""


class TimeCalled(TournamentEvent):
    """The round's time ran out (`at`, the server's time) with these tables still playing: each of their matches
    plays the end of round the organiser chose (RULINGS P4, T13)."""


class ResultRecorded(TournamentEvent):
    """A table's placements: from its match when it finished (best of N: its games, tallied), from a confirmed report,
    or by the organiser with a reason; with the games each player won and the games drawn where they are known."""


class ResultReported(TournamentEvent):
    """A player reported its two-player table's result in games (a table played off Herald): the opponent confirms or
    disputes it."""


class ReportAnswered(TournamentEvent):
    """The reporter's opponent confirmed the report (its result is then recorded) or disputed it, saying why (the
    organiser then records the result)."""


class TournamentFinished(TournamentEvent):
    """The last round's last result is in: the final standings, best first."""


class DecklistsRevealed(TournamentEvent):
    """The tournament is over: every decklist committed at registration, with its salt, so anyone can check each
    against its commitment (RULINGS T12)."""


class SeedRevealed(TournamentEvent):
    """The tournament is over: its server seed is revealed, so anyone can recompute every draw."""


EVENTS = {cls.__name__: cls for cls in (PlayerRegistered, PlayerDropped, PlayerUndropped, PlayerDisqualified,
                                        RoundPaired, PairingOverridden, GameFinished, TimeCalled, ResultRecorded,
                                        ResultReported,
                                        ReportAnswered, TournamentFinished, DecklistsRevealed, SeedRevealed)}


class Tournament(Aggregate):
    """A tournament of one game; its state is only ever changed by applying its own events."""

    class TournamentCreated(Aggregate.Created):
        payload: dict
        chain: str
        secret: dict  # the server seed and the organiser's token hash

    def __init__(self, payload: dict, chain: str, secret: dict):
        self.created = payload
        self.chain = chain
        self.secret = secret
        self.next_nonce = 0
        self.players: dict[str, dict] = {}
        self.token_hashes: dict[str, str] = {}
        self.decklists: dict[str, dict | None] = {}
        self.salts: dict[str, str] = {}  # by player: the salt its decklist's commitment was made with
        self.revealed_seed: str | None = None
        self.rounds: list[dict] = []
        self.reports: dict[str, dict] = {}  # by report id: round, table, by, games, drawn, status

    @classmethod
    def create(cls, tournament_id, spec: dict, organiser_hash: str, server_seed: bytes,
               rules: str | None = RULES) -> Tournament:
        """A new tournament; `rules`, the version of its pairing rules it records (an audit passes the logged one, None
        for a log from before tournaments recorded it)."""
        game = GAMES.get(spec["game"])
        if game is None:
            raise IllegalMove(f"unknown game {spec['game']!r}; Herald referees {', '.join(sorted(GAMES))}")
        if not game.min_players <= spec["table_size"] <= game.max_players:
            raise IllegalMove(f"{game.name} is played by {game.min_players} to {game.max_players}: no tables of "
                              f"{spec['table_size']}")
        if spec["table_size"] > 2 and (spec["format"] != "swiss" or spec["top_cut"]):
            raise IllegalMove("tables of more than 2 are played as Swiss pods, without a top cut")
        if spec["format"] == "single_elimination" and spec["top_cut"]:
            raise IllegalMove("single elimination has no top cut: it is one")
        if spec.get("best_of", 1) > 1 and spec["table_size"] != 2:
            raise IllegalMove(f"best of {spec['best_of']} is played at two-player tables: a pod plays one game")
        if "end_of_round" in spec and "round_minutes" not in spec:
            raise IllegalMove("an end of round follows round time: give round_minutes too")
        if len(spec.get("end_of_round", {"draw": True})) != 1:
            raise IllegalMove('the end of round is {"extra_turns": N} or {"draw": true}')
        if spec.get("late_entry_until_round", 1) > 1 and spec["format"] != "swiss":
            raise IllegalMove("late entry is for Swiss tournaments: a round robin's schedule and a bracket are fixed")
        unknown = sorted(set(spec["options"]) - game.match_options)
        if unknown:
            raise IllegalMove(f"{game.name} takes no option {', '.join(unknown)}")
        game.check_options(spec["options"])
        payload = {**spec, "tournament_id": str(tournament_id), "seed_commitment": fair.commitment(server_seed),
                   "fairness": fair.SCHEME, **({"rules": rules} if rules else {})}
        chain = link(GENESIS, cls.INITIAL_VERSION, "TournamentCreated", payload)
        return cls._create(cls.TournamentCreated, id=tournament_id, payload=payload, chain=chain,
                           secret={"server_seed": server_seed.hex(), "organiser": organiser_hash})

    @property
    def status(self) -> str:
        if not self.rounds:
            return "registering"
        return "finished" if len(self.rounds) >= self.total_rounds and self.round_complete else "running"

    @property
    def swiss_rounds(self) -> int:
        """The rounds before any elimination: as created, else as many as the entrants call for (each round halves
        the undefeated: 9-16 players 4 rounds, 17-32 5, as tournament organisers' tables say); one per opponent in a
        round robin (and a bye each with an odd count), none in single elimination."""
        if self.created["format"] == "round_robin":
            return len(self.players) - 1 + len(self.players) % 2
        if self.created["format"] == "single_elimination":
            return 0
        return self.created.get("rounds") or max(1, (self.entrants - 1).bit_length())

    @property
    def entrants(self) -> int:
        """The players of round 1 once it is paired (seated or given a bye), else those registered."""
        if not self.rounds:
            return len(self.players)
        first = self.rounds[0]
        return sum(len(table["players"]) for table in first["tables"]) + len(first["byes"])

    @property
    def total_rounds(self) -> int:
        """Those rounds, then the elimination's: a top cut of 4 (2 rounds) or 8 (3), or single elimination's."""
        if self.created["format"] == "single_elimination":
            entrants = len(self.players) if not self.rounds else len(self.rounds[0]["random"][0]["result"])
            return max(1, (entrants - 1).bit_length())
        return self.swiss_rounds + {0: 0, 4: 2, 8: 3}[self.created["top_cut"]]

    @property
    def best_of(self) -> int:
        """The games a table plays at most (RULINGS T11): 1, 3 or 5; 1 for a tournament created before the option."""
        return self.created.get("best_of", 1)

    @property
    def scheme(self) -> list[int]:
        """Points by placement: the organiser's at pods; at two seats [3, 0], whatever the spec says (table_points scores
        a two-seat table itself: only the top, a bye's worth, is read there)."""
        return self.created["placement_points"] if self.created["table_size"] > 2 else [WIN, 0]

    @property
    def extra_turns(self) -> int | None:
        """The turns each unfinished match plays once time is called, before its position is counted (MTR 2.5's
        five by default); None: those matches are draws at once (RULINGS P4, T13)."""
        end = self.created.get("end_of_round", {"extra_turns": DEFAULT_EXTRA_TURNS})
        return None if end.get("draw") else end["extra_turns"]

    def deadline(self) -> datetime | None:
        """When the current round's time runs out, while it is still to be called and tables still play."""
        round_ = self.rounds[-1] if self.rounds else {}
        if "deadline" not in round_ or "time_called" in round_ or self.round_complete:
            return None
        return clock.read(round_["deadline"])

    def call_time(self, at: datetime) -> list[dict]:
        """The round's time has run out at `at`: TimeCalled, naming the tables still playing, which it returns;
        IllegalMove if no round time runs out by then."""
        deadline = self.deadline()
        if deadline is None or at < deadline:
            raise IllegalMove("no round's time has run out")
        playing = [t for t in self.rounds[-1]["tables"] if t["placements"] is None]
        self._record(TimeCalled, {"round": len(self.rounds), "at": clock.stamp(at),
                                  "tables": [t["table"] for t in playing]})
        return playing

    @property
    def round_complete(self) -> bool:
        return all(t["placements"] is not None for t in self.rounds[-1]["tables"]) if self.rounds else True

    def rng(self) -> fair.Generator:
        return fair.Generator(self.secret["server_seed"], str(self.id), [], self.next_nonce)

    def register(self, name: str, decklist: dict | None, token_hash: str, missed: str | None = None,
                 byes: int = 0, salt: str | None = None) -> str:
        """A new player: before round 1, or late until the round the organiser set (late_entry_until_round), each
        round it missed counted as `missed` ("loss" or "bye", the organiser's choice); `byes`, the first rounds it is
        given a bye at registration (Swiss). Its decklist is kept secret behind a commitment made with `salt`
        (RULINGS T12); without a salt (an audit of a log from before commitments) it is public in the payload."""
        last = self.created.get("late_entry_until_round", 1)
        if len(self.rounds) >= last:
            raise IllegalMove("registration closes when round 1 is paired" if last == 1 else
                              f"late entry closed when round {last} was paired")
        if self.rounds and missed not in ("loss", "bye"):
            raise IllegalMove(f"round {len(self.rounds)} is already paired: say whether each round the player missed "
                              "counts as a loss or a bye (\"missed\")")
        if byes and (self.created["format"] != "swiss" or self.rounds):
            raise IllegalMove("byes are given at registration before round 1, in a Swiss tournament")
        check = GAMES[self.created["game"]].check_decklist
        if check and decklist is not None:
            problems = check(decklist, self.created["options"].get("catalogue"))
            if problems:
                raise IllegalMove("the decklist is not valid: " + "; ".join(problems))
        player_id = f"p{len(self.players) + 1}"
        hidden = bool(decklist) and salt is not None
        deck = {"decklist_commitment": decklist_commitment(decklist, salt)} if hidden else \
            {"decklist": decklist} if decklist else {}
        payload = {"player_id": player_id, "name": name, **deck,
                   **({"missed": {"rounds": len(self.rounds), "as": missed}} if self.rounds else {}),
                   **({"byes": byes} if byes else {})}
        self._record(PlayerRegistered, payload, secret={"token": token_hash, **(
            {"decklist": decklist, "salt": salt} if hidden else {})})
        return player_id

    def drop(self, player_id: str) -> None:
        if self.players[player_id]["dropped"]:
            raise IllegalMove(f"{self.players[player_id]['name']} has already dropped")
        self._record(PlayerDropped, {"player_id": player_id, "after_round": len(self.rounds)})

    def undrop(self, player_id: str) -> None:
        """A dropped player comes back, to be paired from the next round: not a disqualified one, and not once the
        Swiss or round-robin rounds are all paired (an elimination's bracket has no place for it)."""
        player = self.players[player_id]
        if player.get("disqualified"):
            raise IllegalMove(f"{player['name']} was disqualified: a disqualification is not undone")
        if not player["dropped"]:
            raise IllegalMove(f"{player['name']} has not dropped")
        if len(self.rounds) >= self.swiss_rounds:
            raise IllegalMove("every Swiss round is paired: a player who dropped cannot come back into an elimination")
        self._record(PlayerUndropped, {"player_id": player_id, "after_round": len(self.rounds)})

    def disqualify(self, player_id: str, reason: str) -> None:
        if self.players[player_id].get("disqualified"):
            raise IllegalMove(f"{self.players[player_id]['name']} is already disqualified")
        self._record(PlayerDisqualified, {"player_id": player_id, "after_round": len(self.rounds), "reason": reason})

    def pairing(self) -> tuple[list[list[str]], list[str], dict | None]:
        """The next round's tables and byes, and the seeded draw that ordered players on equal standing (None where
        no draw was needed); nothing recorded."""
        if not self.round_complete:
            raise IllegalMove("results are missing")
        if len(self.rounds) >= self.total_rounds:
            raise IllegalMove(f"all {self.total_rounds} rounds have been paired")
        number = len(self.rounds) + 1
        given = [p for p, player in self.players.items() if not player["dropped"] and player["byes"] >= number]
        active = [p for p, player in self.players.items() if not player["dropped"] and p not in given]
        if len(active) < 2 and not self.rounds:  # later, those still in play on with byes, so that it ends
            raise IllegalMove("at least 2 players still in are needed to pair a round")
        cut = self.created["top_cut"]
        if not self.rounds and len(active) < cut:  # it could never be played: the tournament would never end
            raise IllegalMove(f"a top {cut} needs {cut} players; {len(active)} are registered")
        if len(self.rounds) >= self.swiss_rounds:
            pairs, draw = self._elimination()
            return (*split(pairs), draw)
        if self.created["format"] == "round_robin":
            pairs, draw = self._round_robin()
            return (*split(pairs), draw)
        draw = self.rng().shuffle(active)
        seeded = {p: {**self.players[p], "order": draw["result"].index(p) if p in active else len(self.players)}
                  for p in self.players}
        rows = standings(seeded, self.rounds, self.scheme)
        ranked = [row["player_id"] for row in rows if row["player_id"] in active]
        points = {row["player_id"]: row["points"] for row in rows}
        byes = {p for r in self.rounds for p in r["byes"]} | {p for p, player in self.players.items()
                                                             if player["byes"] or player["missed"] == "bye"}
        if self.created["table_size"] > 2:
            size = self.created["table_size"]
            met = Counter(frozenset(pair) for r in self.rounds for t in r["tables"]
                          for pair in itertools.combinations(t["players"], 2))
            smallest = max(3, GAMES[self.created["game"]].min_players, size - 1)  # pods seat 3 or more
            tables, bye_list = pods(ranked, points, met, byes, size, smallest)
            return tables, [*bye_list, *given], draw
        met = {frozenset(t["players"]) for r in self.rounds for t in r["tables"]}
        tables, bye_list = split(swiss(ranked, points, met, byes))
        return tables, [*bye_list, *given], draw

    def _round_robin(self) -> tuple[list[tuple], dict | None]:
        """Everyone meets everyone once, by the circle method over the order drawn for round 1 (a seeded shuffle);
        with an odd count each player has one bye, and a dropped player's opponent has the bye instead."""
        draw = self.rng().shuffle(list(self.players)) if not self.rounds else None
        order = list((draw or self.rounds[0]["random"][0])["result"]) + ([BYE] if len(self.players) % 2 else [])
        k = len(self.rounds)
        circle = [order[0], *(order[1:][-k:] + order[1:][:-k] if k else order[1:])]
        half = len(circle) // 2
        pairs = []
        for a, b in zip(circle[:half], reversed(circle[half:])):
            out = [p for p in (a, b) if p is BYE or self.players[p]["dropped"]]
            if not out:
                pairs.append((a, b))
            elif len(out) == 1:
                pairs.append((b if out[0] == a else a, BYE))
        return sorted(pairs, key=lambda pair: pair[1] is BYE), draw

    def _elimination(self) -> tuple[list[tuple], dict | None]:
        """Single elimination, alone or as a top cut (RULINGS T4): the seeds in bracket order (1v8, 4v5, 2v7, 3v6, so
        that the top seeds meet last), an empty place a bye for the seed facing it; each round the players still in,
        in bracket order, meet two by two."""
        first = self.swiss_rounds
        draw = None
        if self.created["format"] == "single_elimination":
            if len(self.rounds) == first:
                draw = self.rng().shuffle([p for p, player in self.players.items() if not player["dropped"]])
            seeds = list((draw or self.rounds[first]["random"][0])["result"])
            slots = _placed(seeds, 1 << (len(seeds) - 1).bit_length())
        elif len(self.rounds) == first:
            cut = self.created["top_cut"]
            slots = _placed([row["player_id"] for row in self.standings() if not row["dropped"]][:cut], cut)
        else:  # the cut as its first round seated it: a later correction of a Swiss result does not reseed it
            slots = _as_seated(self.rounds[first], bracket(self.created["top_cut"]))
        for round_ in self.rounds[first:]:
            tables = iter(round_["tables"])  # a table for each two places without a bye, in bracket order
            seated = {p for t in round_["tables"] for p in t["players"]}
            slots = [_through(a, b, round_["byes"], seated, tables) for a, b in zip(slots[::2], slots[1::2])]
        pairs = []
        for a, b in zip(slots[::2], slots[1::2]):
            if any(p is not BYE and self.players[p]["dropped"] for p in (a, b)):
                # a player who dropped is paired no more: the other, if still in, goes through with a bye
                a, b = next((p for p in (a, b) if p is not BYE and not self.players[p]["dropped"]), BYE), BYE
            if a is not BYE or b is not BYE:
                pairs.append((a, b) if a is not BYE else (b, a))
        return pairs, draw

    def pair(self, tables: list[list[str]], byes: list[str], draw: dict | None, match_ids: list[str],
             at: datetime | None = None) -> dict:
        """Record a round's tables and byes; with round time, when it began (`at`) and when its time runs out."""
        seated = [{"table": i + 1, "match_id": match_id, "players": list(players), "placements": None}
                  for i, (players, match_id) in enumerate(zip(tables, match_ids))]
        kind = ("elimination" if len(self.rounds) >= self.swiss_rounds else
                "round_robin" if self.created["format"] == "round_robin" else "swiss")
        engine = {"swiss": ENGINE if self.created["table_size"] == 2 else PODS, "round_robin": "circle method",
                  "elimination": "bracket"}[kind]
        payload = {"round": len(self.rounds) + 1, "kind": kind, "engine": engine, "tables": seated,
                   "byes": list(byes), "random": [draw] if draw else []}
        if "round_minutes" in self.created:
            payload.update(at=clock.stamp(at), deadline=clock.stamp(at + timedelta(minutes=self.created["round_minutes"])))
        self._record(RoundPaired, payload)
        self._finish_if_over()  # a last round of byes alone has no result to wait for
        return payload

    def swapped(self, a: str, b: str) -> list[dict]:
        """The current round's two tables with players a and b swapped (nothing recorded); IllegalMove if they are
        not at two different tables still without a result."""
        tables = self.rounds[-1]["tables"] if self.rounds else []
        at = {p: t for t in tables for p in t["players"]}
        if a not in at or b not in at or at[a] is at[b]:
            raise IllegalMove("the organiser swaps two players seated at two different tables of the current round")
        if at[a]["placements"] is not None or at[b]["placements"] is not None:
            raise IllegalMove("a table with a result keeps its players: correct the result instead")
        if any(game["placements"] for t in (at[a], at[b]) for game in t.get("games", ())):
            raise IllegalMove("a table that has finished a game keeps its players: record its result instead")
        return [{**t, "players": [b if p == a else a if p == b else p for p in t["players"]]} for t in (at[a], at[b])]

    def override(self, tables: list[dict], match_ids: list[str], reason: str) -> None:
        changed = [{"table": t["table"], "match_id": m, "players": t["players"]} for t, m in zip(tables, match_ids)]
        self._record(PairingOverridden, {"round": len(self.rounds), "tables": changed, "reason": reason})

    def table(self, round_: int, table: int) -> dict:
        """A table of a round (players, match, placements); KeyError for one the tournament does not have."""
        if not 1 <= round_ <= len(self.rounds) or not 1 <= table <= len(self.rounds[round_ - 1]["tables"]):
            raise KeyError(f"round {round_}, table {table}")
        return self.rounds[round_ - 1]["tables"][table - 1]

    def record_result(self, round_: int, table: int, placements: list[list[str]], by: str, reason: str,
                      games: dict[str, int] | None = None, drawn: int = 0) -> None:
        """A table's result; `games`, where known, the games each of its two players won (and `drawn`, the games
        drawn), which the placements must follow: more games won first, equal games a draw."""
        seated = self.table(round_, table)["players"]
        if sorted(p for group in placements for p in group) != sorted(seated):
            raise IllegalMove(f"the placements must name each player of table {table} once: {', '.join(seated)}")
        if games is not None and sorted(games) != sorted(seated):
            raise IllegalMove(f"the games must name each player of table {table}: {', '.join(seated)}")
        if games is not None and [sorted(g) for g in by_games(seated, games)] != [sorted(g) for g in placements]:
            raise IllegalMove(f"the placements must follow the games: {by_games(seated, games)} for {games}")
        scores = {"games": dict(games), "drawn": drawn} if games is not None else {}
        self._record(ResultRecorded, {"round": round_, "table": table, "placements": placements, **scores, "by": by,
                                      "reason": reason})
        self._finish_if_over()

    def next_seats(self, round_: int, table: int, placements: list[list[str]]) -> list[str] | None:
        """The seat order of a best-of-N table's next game once its current game ends with these placements: its loser
        first, or after a drawn game the order flipped (RULINGS T11); None where that game decides the table."""
        seated = self.table(round_, table)
        played = [game["placements"] for game in seated["games"] if game["placements"] is not None]
        won, _ = tally([*played, placements], seated["players"])
        if 2 * max(won.values()) > self.best_of or len(played) + 1 >= self.best_of or \
                "time_called" in self.rounds[round_ - 1]:  # no game begins once time is called (RULINGS T13)
            return None
        current = seated["games"][-1]["players"]
        return list(reversed(current)) if len(placements) == 1 else [placements[1][0], placements[0][0]]

    def finish_game(self, round_: int, table: int, placements: list[list[str]], match_id: str | None) -> None:
        """A best-of-N table's current game finished with these placements: recorded with the next game's match
        (`match_id`, created for the seats next_seats gives), or where it decides the table, the table's result from
        its games."""
        seated = self.table(round_, table)
        if "games" not in seated or seated["placements"] is not None:
            raise IllegalMove(f"table {table} of round {round_} has no game being played")
        current = seated["games"][-1]
        if sorted(p for group in placements for p in group) != sorted(current["players"]):
            raise IllegalMove(f"the placements must name each player of table {table} once")
        following = self.next_seats(round_, table, placements)
        if (following is None) != (match_id is None):
            raise IllegalMove(f"game {len(seated['games'])} of table {table} " +
                              ("decides the table: no game follows it" if following is None else
                               "does not decide the table: the next game's match is missing"))
        self._record(GameFinished, {"round": round_, "table": table, "game": len(seated["games"]),
                                    "match_id": current["match_id"], "placements": placements,
                                    **({"next": {"match_id": match_id, "players": following}} if following else {})})
        if following is None:
            won, drawn = tally([game["placements"] for game in seated["games"]], seated["players"])
            self.record_result(round_, table, by_games(seated["players"], won), "match", "its games finished", won,
                               drawn)

    def report(self, round_: int, table: int, by: str, games: dict[str, int], drawn: int) -> str:
        """A seated player reports its table's result in games; KeyError for a table the tournament does not have."""
        seated = self.table(round_, table)
        if len(seated["players"]) != 2:
            raise IllegalMove("players report two-player tables; the organiser records a pod's result")
        if sorted(games) != sorted(seated["players"]):
            raise IllegalMove(f"the games must name each player of table {table}: {', '.join(seated['players'])}")
        if seated["placements"] is not None:
            raise IllegalMove(f"table {table} of round {round_} already has its result")
        if any(r["round"] == round_ and r["table"] == table and r["status"] == "waiting" for r in self.reports.values()):
            raise IllegalMove(f"a report of table {table} is waiting for the opponent's answer")
        report_id = f"r{len(self.reports) + 1}"
        self._record(ResultReported, {"report_id": report_id, "round": round_, "table": table, "by": by,
                                      "games": dict(games), "drawn": drawn})
        return report_id

    def answer(self, report_id: str, by: str, decision: str, reason: str | None) -> None:
        """The opponent confirms or disputes a waiting report (its result is then recorded by the caller)."""
        report = self.reports[report_id]
        if report["status"] != "waiting":
            raise IllegalMove(f"report {report_id} is already {report['status']}")
        self._record(ReportAnswered, {"report_id": report_id, "by": by, "decision": decision,
                                      **({"reason": reason} if reason else {})})

    def reported_placements(self, report_id: str) -> list[list[str]]:
        """A report's result as placements: the player who won more games first, else a draw (in seat order)."""
        report = self.reports[report_id]
        return by_games(self.table(report["round"], report["table"])["players"], report["games"])

    def _finish_if_over(self) -> None:
        """Once the last round is complete: the final standings and champion, then the seed revealed."""
        if self.status == "finished" and self.revealed_seed is None:
            eliminated = self.created["top_cut"] or self.created["format"] == "single_elimination"
            last = self.rounds[-1]
            champion = (advancing(last["tables"][0]) if last["tables"] else next(iter(last["byes"]), None)) \
                if eliminated else None  # none where both finalists dropped
            self._record(TournamentFinished, {"standings": [row["player_id"] for row in self.standings()],
                                              "champion": champion})
            if self.salts:
                self._record(DecklistsRevealed, {"decklists": {p: {"decklist": self.decklists[p], "salt": salt}
                                                               for p, salt in self.salts.items()}})
            self._record(SeedRevealed, {"server_seed": self.secret["server_seed"]})

    def standings(self) -> list[dict]:
        """The standings of the Swiss or round-robin rounds: a top cut decides the champion, not the standings (MTR)."""
        swiss_rounds = [r for r in self.rounds if r["kind"] != "elimination"]
        return standings(self.players, swiss_rounds, self.scheme)

    def summary(self) -> dict:
        created = self.created
        return {"tournament_id": str(self.id), "name": created["name"], "game": created["game"],
                "format": created["format"], "rounds": created["rounds"], "total_rounds": self.total_rounds,
                "status": self.status, "round": len(self.rounds), "players": len(self.players),
                "seed_commitment": created["seed_commitment"], "created_on": self.created_on.isoformat()}

    def _seated(self, table: dict) -> dict:
        """A table as paired or re-seated by a swap: best of N, its first game about to be played, at its seats."""
        if self.best_of > 1:
            table["games"] = [{"match_id": table["match_id"], "players": list(table["players"]), "placements": None}]
        return table

    def _record(self, cls, payload: dict, **extra) -> None:
        chain = link(self.chain, self.version + 1, cls.__name__, payload)
        self.trigger_event(cls, payload=payload, chain=chain, **extra)

    def apply_event(self, type_: str, payload: dict, chain: str) -> None:
        for entry in payload.get("random", ()):
            self.next_nonce = entry["nonce"] + 1
        if type_ == "PlayerRegistered":
            self.players[payload["player_id"]] = {
                "name": payload["name"], "dropped": False, "order": len(self.players), "byes": payload.get("byes", 0),
                "missed": payload["missed"]["as"] if "missed" in payload else None,
                "missed_rounds": payload["missed"]["rounds"] if "missed" in payload else 0}
            self.decklists[payload["player_id"]] = payload.get("decklist")
        elif type_ in ("PlayerDropped", "PlayerUndropped"):
            self.players[payload["player_id"]]["dropped"] = type_ == "PlayerDropped"
        elif type_ == "PlayerDisqualified":
            self.players[payload["player_id"]].update(dropped=True, disqualified=payload["reason"])
        elif type_ == "RoundPaired":
            self.rounds.append({**payload, "tables": [self._seated(dict(t)) for t in payload["tables"]]})
        elif type_ == "TimeCalled":
            self.rounds[payload["round"] - 1]["time_called"] = {"at": payload["at"], "tables": payload["tables"]}
        elif type_ == "PairingOverridden":
            for table in payload["tables"]:
                seated = self.rounds[payload["round"] - 1]["tables"][table["table"] - 1]
                seated.update(table)
                self._seated(seated)
        elif type_ == "GameFinished":
            table = self.rounds[payload["round"] - 1]["tables"][payload["table"] - 1]
            table["games"][payload["game"] - 1]["placements"] = payload["placements"]
            if "next" in payload:
                table["games"].append({**payload["next"], "placements": None})
                table["match_id"] = payload["next"]["match_id"]
        elif type_ == "ResultRecorded":
            table = self.rounds[payload["round"] - 1]["tables"][payload["table"] - 1]
            table["placements"] = payload["placements"]
            table["tally"] = {k: payload[k] for k in ("games", "drawn")} if "games" in payload else None
            for report in self.reports.values():  # a report still open is settled by the result recorded
                if (report["round"], report["table"]) == (payload["round"], payload["table"]) and \
                        report["status"] in ("waiting", "disputed"):
                    report["status"] = "settled"
        elif type_ == "ResultReported":
            self.reports[payload["report_id"]] = {**payload, "games": dict(payload["games"]), "status": "waiting"}
        elif type_ == "ReportAnswered":
            self.reports[payload["report_id"]].update(
                status={"confirm": "confirmed", "dispute": "disputed"}[payload["decision"]],
                answer={k: payload[k] for k in ("by", "reason") if k in payload})
        elif type_ == "SeedRevealed":
            self.revealed_seed = payload["server_seed"]
        self.chain = chain


def round_document(round_: dict) -> dict:
    """A round as the API shows it: tables (players in seat order, placements or null, and best of N, each game so
    far: its match, seats and placements) and byes; with round time, its deadline, and once called, when."""
    return {"round": round_["round"], "kind": round_["kind"], "byes": round_["byes"],
            "tables": [{k: t[k] for k in ("table", "match_id", "players", "placements", "games") if k in t}
                       for t in round_["tables"]],
            **{k: round_[k] for k in ("deadline", "time_called") if k in round_}}


def tournament_document(tournament: Tournament) -> dict:
    """What the projections hold of a tournament: its summary, its rounds and its standings, as the API shows them."""
    return {"version": tournament.version, "summary": tournament.summary(),
            "rounds": [round_document(r) for r in tournament.rounds],
            "standings": {"round": len(tournament.rounds),
                          "standings": [shown(row) for row in tournament.standings()]}}


def advancing(table: dict) -> str:
    """Who goes on from a top-cut table: its winner; after a draw, the higher seed (seated first)."""
    first = table["placements"][0]
    return first[0] if len(first) == 1 else table["players"][0]


def decklist_commitment(decklist: dict, salt: str) -> str:
    """A decklist's commitment: hex SHA-256 of its salt then its canonical JSON (sorted keys, no spaces, UTF-8)."""
    canonical = json.dumps(decklist, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((salt + canonical).encode()).hexdigest()


def tally(games: list[list[list[str]]], players: list[str]) -> tuple[dict[str, int], int]:
    """Two players' games, each as its placements: the games each won, and the games drawn."""
    won = {p: 0 for p in players}
    for placements in games:
        if len(placements) > 1:
            won[placements[0][0]] += 1
    return won, sum(len(placements) == 1 for placements in games)


def by_games(players: list[str], won: dict[str, int]) -> list[list[str]]:
    """Two players' placements by the games each won: more first, equal a draw (in seat order)."""
    a, b = players
    return [[a, b]] if won[a] == won[b] else [[a], [b]] if won[a] > won[b] else [[b], [a]]


def split(pairs: list[tuple]) -> tuple[list[list[str]], list[str]]:
    """Pairs as tables and byes."""
    return [list(p) for p in pairs if BYE not in p], [a for a, b in pairs if b is BYE]


def bracket(size: int) -> list[int]:
    """Seed numbers in bracket order for a power-of-two field: [1, 4, 2, 3], [1, 8, 4, 5, 2, 7, 3, 6], ..."""
    order = [1, 2]
    while len(order) < size:
        order = [x for seed in order for x in (seed, 2 * len(order) + 1 - seed)]
    return order[:size] if size > 1 else [1]


def _placed(seeds: list[str], size: int) -> list:
    """The places of a bracket of `size`: each seed at its bracket place, a place past the seeds an empty one (a bye
    for the seed facing it)."""
    return [seeds[n - 1] if n <= len(seeds) else BYE for n in bracket(size)]


def _as_seated(round_: dict, order: list[int]) -> list:
    """A cut's places as its first round seated them: each pair of seeds in bracket order a table's two players, or
    where a seed number passes the players seeded (2 a table, 1 a bye), the bye's player and an empty place."""
    seeded = 2 * len(round_["tables"]) + len(round_["byes"])
    tables, byes = iter(round_["tables"]), iter(round_["byes"])
    slots = []
    for a, b in zip(order[::2], order[1::2]):
        empty = (a > seeded) + (b > seeded)
        slots += next(tables)["players"] if not empty else [next(byes), BYE] if empty == 1 else [BYE, BYE]
    return slots


def _through(a, b, byes: list[str], seated: set[str], tables):
    """Who of two bracket places goes on from a round: a bye's player (an empty place's, or a dropped player's
    opponent's), nobody (BYE) where both had dropped and neither was seated, or the winner of the round's next table
    (the one these places were seated at, or, after an organiser's swap, the players seated there instead)."""
    if a is BYE or b is BYE:
        return b if a is BYE else a
    if a in byes or b in byes:
        return a if a in byes else b
    if a not in seated and b not in seated:  # a swap moves seated players only
        return BYE
    return advancing(next(tables))
