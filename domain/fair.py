"""herald-fair-v1: every random outcome derived from a committed server seed and the seats' client seeds.

See docs/FAIRNESS.md for the specification this module implements.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets

SCHEME = "herald-fair-v1"
CLIENT_SEED = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def new_server_seed() -> bytes:
    """32 fresh bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(32)


def new_client_seed() -> str:
    """A client seed for a seat that did not bring its own."""
    return secrets.token_urlsafe(16)


def commitment(server_seed: bytes) -> str:
    """The public commitment: hex SHA-256 of the server seed."""
    return hashlib.sha256(server_seed).hexdigest()


class ByteStream:
    """The byte stream of one nonce: HMAC-SHA256 blocks r = 0, 1, 2, ... concatenated."""

    def __init__(self, server_seed: bytes, match_id: str, client_seeds: list[str], nonce: int, trace: bool = False):
        self._key = server_seed
        self._prefix = ":".join([match_id, *client_seeds, str(nonce)])
        self._block = b""
        self._round = 0
        self._pos = 0
        self.blocks: list[dict] | None = [] if trace else None
        self.samples: list[dict] | None = [] if trace else None

    def read(self, size: int) -> bytes:
        out = b""
        while len(out) < size:
            if self._pos == len(self._block):
                message = f"{self._prefix}:{self._round}".encode()
                self._block = hmac.new(self._key, message, hashlib.sha256).digest()
                if self.blocks is not None:
                    self.blocks.append({"round": self._round, "message": message.decode(), "hmac": self._block.hex()})
                self._round += 1
                self._pos = 0
            take = min(size - len(out), len(self._block) - self._pos)
            out += self._block[self._pos:self._pos + take]
            self._pos += take
        return out

    def uniform(self, n: int) -> int:
        """A uniform integer in [0, n) by rejection sampling on 4-byte big-endian words."""
        if not 0 < n <= 2**32:
            raise ValueError(f"cannot draw uniformly among {n}")
        limit = 2**32 - (2**32 % n)
        while True:
            word = self.read(4)
            x = int.from_bytes(word, "big")
            if self.samples is not None:
                self.samples.append({"bytes": word.hex(), "x": x, "n": n, "accepted": x < limit,
                                     "value": x % n if x < limit else None})
            if x < limit:
                return x % n


def compute(stream: ByteStream, entry: dict):
    """The result of one random entry (kind and parameters) read from its stream."""
    kind = entry["kind"]
    if kind == "dice":
        return [stream.uniform(entry["faces"]) + 1 for _ in range(entry["count"])]
    if kind == "choice":
        return stream.uniform(entry["n"])
    if kind == "shuffle":
        items = list(entry["input"])
        for i in range(len(items) - 1, 0, -1):
            j = stream.uniform(i + 1)
            items[i], items[j] = items[j], items[i]
        return items
    raise ValueError(f"unknown random kind {kind!r}")


class Generator:
    """A match's random generator: each draw takes the next nonce and returns its recorded entry."""

    __slots__ = ("client_seeds", "match_id", "next_nonce", "server_seed")

    def __init__(self, server_seed: bytes | str, match_id: str, client_seeds: list[str], next_nonce: int = 0):
        self.server_seed = server_seed  # its bytes, or their hex as a match keeps it: read at the first draw
        self.match_id = match_id
        self.client_seeds = list(client_seeds)
        self.next_nonce = next_nonce

    def _draw(self, kind: str, **params) -> dict:
        entry = {"nonce": self.next_nonce, "kind": kind, **params}
        if isinstance(self.server_seed, str):
            self.server_seed = bytes.fromhex(self.server_seed)
        stream = ByteStream(self.server_seed, self.match_id, self.client_seeds, self.next_nonce)
        entry["result"] = compute(stream, entry)
        self.next_nonce += 1
        return entry

    def dice(self, faces: int, count: int) -> dict:
        return self._draw("dice", faces=faces, count=count)

    def shuffle(self, items: list) -> dict:
        return self._draw("shuffle", input=list(items))

    def choice(self, n: int) -> dict:
        return self._draw("choice", n=n)


def sealed(entry: dict) -> dict:
    """A random entry as a seat sees it before the seed is revealed: a shuffle shows neither the cards it shuffled
    nor their new order, since either tells what a hidden zone holds."""
    if entry["kind"] != "shuffle":
        return entry
    return {**entry, "input": None, "result": None}


def recompute(server_seed: bytes, match_id: str, client_seeds: list[str], entry: dict):
    """Recompute an entry's result from the seeds, for audits and disputes."""
    return compute(ByteStream(server_seed, match_id, client_seeds, entry["nonce"]), entry)


def trace(server_seed: bytes, match_id: str, client_seeds: list[str], entry: dict) -> dict:
    """The full recomputation of an entry: every HMAC block and every sample, rejected ones included."""
    stream = ByteStream(server_seed, match_id, client_seeds, entry["nonce"], trace=True)
    result = compute(stream, entry)
    return {"nonce": entry["nonce"], "kind": entry["kind"], "result": result, "matches": result == entry["result"],
            "blocks": stream.blocks, "samples": stream.samples}
