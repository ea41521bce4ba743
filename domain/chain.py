"""The tamper-evident hash chain over a match's events."""
from __future__ import annotations

import hashlib
import json

GENESIS = "0" * 64


def canonical(obj) -> bytes:
    """Canonical JSON: sorted keys, no spaces, UTF-8, non-ASCII kept as is."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def link(previous: str, version: int, type_: str, payload: dict) -> str:
    """The chain value of an event: SHA-256 of the previous chain's bytes and the event's canonical JSON."""
    body = canonical({"version": version, "type": type_, "payload": payload})
    return hashlib.sha256(bytes.fromhex(previous) + body).hexdigest()
