"""The match aggregate: one per match, every change an immutable event with a chain link."""
from __future__ import annotations

from eventsourcing.domain import Aggregate

from domain import fair
from domain.chain import GENESIS, link
from domain.errors import IllegalMove
from domain.events import BOOKKEEPING, PLATFORM_EVENTS
from domain.games import GAMES


class Match(Aggregate):
    """A refereed match. Its state is only ever changed by applying its own events."""

    class MatchCreated(Aggregate.Created):
        """MatchCreated: the game, seats, client seeds and the server seed's commitment."""

        payload: dict
        chain: str
        secret: dict  # server seed and token hashes: never in a payload, view or log

    def __init__(self, payload: dict, chain: str, secret: dict):
        self.game_name = payload["game"]
        self.created = payload
        self.secret = secret
        self.chain = chain
        self.next_nonce = 0
        self.revealed_seed = None
        self.state = self.game.new_state(payload)

    @classmethod
    def create(cls, match_id, game: str, players: list[str], client_seeds: list[str],
               token_hashes: dict, server_seed: bytes, options: dict | None = None) -> Match:
        payload = {
            "game": game,
            "match_id": str(match_id),
            "players": list(players),
            "client_seeds": list(client_seeds),
            "seed_commitment": fair.commitment(server_seed),
            "fairness": fair.SCHEME,
            "options": options or {},
        }
        chain = link(GENESIS, cls.INITIAL_VERSION, "MatchCreated", payload)
        secret = {"server_seed": server_seed.hex(), "tokens": token_hashes}
        return cls._create(cls.MatchCreated, id=match_id, payload=payload, chain=chain, secret=secret)

    @property
    def game(self):
        return GAMES[self.game_name]

    @property
    def finished(self) -> bool:
        return self.state["status"] == "finished"

    def rng(self) -> fair.Generator:
        return fair.Generator(bytes.fromhex(self.secret["server_seed"]), str(self.id),
                              self.created["client_seeds"], self.next_nonce)

    def start(self) -> None:
        """Deal and begin: the game's setup events."""
        self._record_all(self.game.start(self.state, self.rng()))

    def play(self, seat: int, move: dict) -> None:
        """Referee a move: the rules decide its events (or raise IllegalMove), then they are recorded."""
        self._record_all(self.game.decide(self.state, seat, move, self.rng()))

    def resolve(self, seat: int, move: dict) -> None:
        """The referee decides for a seat: the given move, or with type 'default' the rule's default."""
        options = self.game.legal_moves(self.state, seat)
        if not options:
            raise IllegalMove(f"no decision of seat {seat} is pending")
        default = move.get("type") == "default"
        if default:
            move = {"type": "pass"} if {"type": "pass"} in options else options[0]
        events = self.game.decide(self.state, seat, move, self.rng())
        self._record_all([("RefereeResolved", {"seat": seat, "move": move, "default": default}), *events])

    def _record_all(self, events: list[tuple[str, dict]]) -> None:
        for type_, payload in events:
            self._record(type_, payload)
        if self.finished and self.revealed_seed is None:
            self._record("SeedRevealed", {"server_seed": self.secret["server_seed"]})

    def _record(self, type_: str, payload: dict) -> None:
        event_class = PLATFORM_EVENTS.get(type_) or self.game.events[type_]
        chain = link(self.chain, self.version + 1, type_, payload)
        self.trigger_event(event_class, payload=payload, chain=chain)

    def apply_event(self, type_: str, payload: dict, chain: str) -> None:
        """Evolve from one event: the game's state, the nonce counter and the chain head."""
        for entry in payload.get("random", ()):
            self.next_nonce = entry["nonce"] + 1
        if type_ == "SeedRevealed":
            self.revealed_seed = payload["server_seed"]
        if type_ not in BOOKKEEPING:
            self.game.evolve(self.state, type_, payload)
        self.chain = chain
