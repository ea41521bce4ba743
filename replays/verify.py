"""Verify a herald-log-v1 export without trusting the server: standard library only, no project imports.

    python -m replays.verify LOG.ndjson [--receipt HEX ...]

It re-derives every random draw from the revealed server seed (herald-fair-v1, docs/FAIRNESS.md),
recomputes the hash chain, and prints one line per check; it exits 1 naming the first bad event.
"""
from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import re
import sys

GENESIS = "0" * 64
MAX_DEPTH = 32  # arrays and objects inside one another; Herald's own documents nest fewer than 10
MAX_LINE = 1024 * 1024  # characters in one line (one event) of a log
_STRINGS = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_BRACKETS = re.compile(r"[][{}]")


class Failure(Exception):
    """A check failed; the message names the first bad event, whose version (0 for none) is `version`."""

    def __init__(self, message: str, version: int = 0):
        super().__init__(message)
        self.version = version


def _stream(seed: bytes, match_id: str, client_seeds: list[str], nonce: int):
    prefix = ":".join([match_id, *client_seeds, str(nonce)])
    rnd = 0
    while True:
        yield from hmac.new(seed, f"{prefix}:{rnd}".encode(), hashlib.sha256).digest()
        rnd += 1


DICE = 2**16  # the most dice one random entry rolls, far above any game's


def _uniform(stream, n: int) -> int:
    if not isinstance(n, int) or not 0 < n <= 2**32:
        raise ValueError(f"no uniform integer in [0, {n}) can be drawn from 4-byte words")
    limit = 2**32 - (2**32 % n)
    while True:
        x = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if x < limit:
            return x % n


def recompute(seed: bytes, match_id: str, client_seeds: list[str], entry: dict):
    """The result herald-fair-v1 gives for one random entry."""
    stream = _stream(seed, match_id, client_seeds, entry["nonce"])
    if entry["kind"] == "dice":
        if not isinstance(entry["count"], int) or not 0 <= entry["count"] <= DICE:  # else a roll that never ends
            raise ValueError(f"no roll of {entry['count']} dice: 0 to {DICE}")
        return [_uniform(stream, entry["faces"]) + 1 for _ in range(entry["count"])]
    if entry["kind"] == "choice":
        return _uniform(stream, entry["n"])
    if entry["kind"] == "shuffle":
        items = list(entry["input"])
        for i in range(len(items) - 1, 0, -1):
            j = _uniform(stream, i + 1)
            items[i], items[j] = items[j], items[i]
        return items
    raise Failure(f"unknown random kind {entry['kind']!r} at nonce {entry['nonce']}")


def chain_link(previous: str, event: dict) -> str:
    body = json.dumps({"version": event["version"], "type": event["type"], "payload": event["payload"]},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return hashlib.sha256(bytes.fromhex(previous) + body).hexdigest()


def nesting(text: str) -> int:
    """How deeply JSON text nests arrays and objects, counted without parsing it (so a document too deep for
    Python's recursion can be refused first); never less than the parser would find."""
    deepest = level = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        level = level + 1 if bracket in "[{" else max(level - 1, 0)
        deepest = max(deepest, level)
    return deepest


def too_deep(text: str) -> str | None:
    """Why JSON text is refused before parsing, or None: it nests deeper than MAX_DEPTH."""
    depth = nesting(text)
    if depth > MAX_DEPTH:
        return f"it nests {depth} arrays or objects inside one another; at most {MAX_DEPTH} are accepted"
    return None


def read(lines) -> tuple[dict, list[dict]]:
    rows = []
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r\n")
        if len(line) > MAX_LINE:
            raise Failure(f"line {number} is {len(line)} characters long; a log line holds at most {MAX_LINE}")
        if reason := too_deep(line):
            raise Failure(f"line {number} is refused unread: {reason}")
        if line.strip():
            try:
                row = json.loads(line)
            except ValueError:
                raise Failure(f"line {number} is not JSON: the log is cut or corrupted there") from None
            if not isinstance(row, dict):
                raise Failure(f"line {number} is not a JSON object: the log is corrupted there")
            rows.append(row)
    if len(rows) == 1 and isinstance(rows[0].get("status"), int) and "detail" in rows[0]:  # a problem document
        raise Failure(f"the file holds no log but the server's refusal ({rows[0]['status']}): {rows[0]['detail']}")
    if not rows or rows[0].get("format") != "herald-log-v1":
        raise Failure("not a herald-log-v1 export: the first line must be its header")
    return rows[0], rows[1:]


def check_chain(events: list[dict]) -> str:
    previous = GENESIS
    for expected_version, event in enumerate(events, start=1):
        if event.get("version") != expected_version:
            raise Failure(f"event at position {expected_version} has version {event.get('version')}: "
                          "events are missing, inserted or reordered", expected_version)
        previous = chain_link(previous, event)
        if previous != event.get("chain"):
            raise Failure(f"chain breaks at version {event['version']} ({event['type']})", event["version"])
    return previous


def check_commitment(events: list[dict]) -> tuple[bytes, str, list[str]]:
    created = events[0]
    if created["type"] != "MatchCreated" or "seed_commitment" not in created["payload"]:
        raise Failure("version 1 is not a MatchCreated event with a seed commitment")
    if created["payload"].get("random"):
        raise Failure("version 1 (MatchCreated) holds random draws: nothing random may precede the commitment")
    revealed = [e for e in events if e["type"] == "SeedRevealed"]
    if not revealed:
        raise Failure("the match is not over yet: its server seed is revealed (SeedRevealed) only when it ends, so "
                      "no draw can be checked; export the log again after the last move")
    seed_hex = revealed[0]["payload"]["server_seed"]
    if hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest() != created["payload"]["seed_commitment"]:
        raise Failure(f"version {revealed[0]['version']} (SeedRevealed): the seed does not match the commitment",
                      revealed[0]["version"])
    return bytes.fromhex(seed_hex), created["payload"]["match_id"], list(created["payload"]["client_seeds"])


def check_random(events: list[dict], seed: bytes, match_id: str, client_seeds: list[str]) -> int:
    expected_nonce = 0
    seeds = list(client_seeds)
    for event in events[1:]:
        if event["type"] == "ClientSeedSet":
            seat = event["payload"]["seat"]
            if seeds[seat] is not None:
                raise Failure(f"version {event['version']} (ClientSeedSet): seat {seat}'s client seed was already "
                              "set; it may never change")
            seeds[seat] = event["payload"]["client_seed"]
        for entry in event["payload"].get("random", ()):
            if None in seeds:
                raise Failure(f"version {event['version']}: a random draw before every client seed was set")
            if entry["nonce"] != expected_nonce:
                raise Failure(f"version {event['version']} ({event['type']}): nonce {entry['nonce']}, "
                              f"expected {expected_nonce}")
            try:
                result = recompute(seed, match_id, seeds, entry)
            except ValueError as error:
                raise Failure(f"version {event['version']} ({event['type']}): the {entry['kind']} entry at nonce "
                              f"{entry['nonce']} cannot be recomputed: {error}", event["version"]) from None
            if result != entry["result"]:
                raise Failure(f"version {event['version']} ({event['type']}): the {entry['kind']} result at "
                              f"nonce {entry['nonce']} does not recompute")
            expected_nonce += 1
    return expected_nonce


def verify(lines, receipts=(), out=print) -> bool:
    """Run every check, printing one line each; False at the first failure."""
    try:
        header, events = read(lines)
        if not events:
            raise Failure("the log has no events")
        head = check_chain(events)
        out(f"ok   chain: {len(events)} events link from genesis to {head}")
        seed, match_id, client_seeds = check_commitment(events)
        if match_id != header.get("match_id"):
            raise Failure("the header's match_id differs from MatchCreated's")
        out("ok   commitment: SHA-256 of the revealed server seed equals the published seed_commitment")
        first_random = next((e["version"] for e in events if e["payload"].get("random")), None)
        out(f"ok   order: the commitment (version 1) precedes the first random draw (version {first_random})")
        count = check_random(events, seed, match_id, client_seeds)
        out(f"ok   randomness: {count} draws recompute, nonces 0..{count - 1} without gaps")
        chains = {e["chain"] for e in events}
        for receipt in receipts:
            if receipt not in chains:
                raise Failure(f"receipt {receipt} is not in this log")
        if receipts:
            out(f"ok   receipts: all {len(receipts)} appear in the log")
        return True
    except Failure as failure:
        out(f"FAIL {failure}")
        return False
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        out(f"FAIL the log is malformed: {error!r}")
        return False


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="herald verify", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", help="a herald-log-v1 export (NDJSON)")
    parser.add_argument("--receipt", action="append", default=[], help="a chain_head a move returned")
    args = parser.parse_args(argv)
    try:
        with open(args.log, encoding="utf-8") as handle:
            return 0 if verify(handle, args.receipt) else 1
    except OSError as error:
        print(f"FAIL cannot read {args.log}: {error.strerror or error}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
