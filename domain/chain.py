"""The tamper-evident hash chain over a match's events."""
from __future__ import annotations

import hashlib
import json

import orjson

GENESIS = "0" * 64

# canonical JSON: sorted keys, no spaces, UTF-8, non-ASCII kept as is
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
if json.encoder.c_make_encoder is None:  # a Python without json's C speedups
    _encode = _CANONICAL.encode
else:  # the C encoder that encode builds on every call, built once
    _ITERENCODE = json.encoder.c_make_encoder(None, _CANONICAL.default, json.encoder.encode_basestring, None, ":", ",",
                                              True, False, True)

    def _encode(value) -> str:
        return "".join(_ITERENCODE(value, 0))

# orjson writes the same bytes several times faster, except where it writes a float (an exponent's digits, NaN as
# null) and where it refuses what json writes (an integer past 64 bits, a key not a string, a subclass, a date):
# there, wherever its bytes hold a point or an exponent's sign (as every finite float orjson writes does), and where
# a null they hold does not read back as the None it was (a NaN or an infinity), json writes them. (orjson also
# writes a UUID or an Enum, which json refuses: no payload holds one, and the event store, which writes payloads with
# json, would refuse it.)
_ORJSON = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME | \
    orjson.OPT_PASSTHROUGH_DATACLASS


def _body(version: int, type_: str, payload: dict) -> bytes:
    """The canonical JSON of {"version", "type", "payload"}."""
    value = {"payload": payload, "type": type_, "version": int(version)}
    try:
        body = orjson.dumps(value, option=_ORJSON)
    except TypeError:
        return _encode(value).encode()
    text = body.decode()  # searched as text: bytes' own search parses its arguments or tries an int first, slower
    if "." in text or "e+" in text or "e-" in text or ("null" in text and orjson.loads(body) != value):
        return _encode(value).encode()
    return body


_head = ("", b"")  # the latest link, as hex and as bytes: the link after it reads its bytes without parsing the hex


def link(previous: str, version: int, type_: str, payload: dict) -> str:
    """The chain value of an event: SHA-256 of the previous chain's bytes and the canonical JSON of
    {"version", "type", "payload"}."""
    global _head
    head = _head
    prior = head[1] if head[0] is previous else bytes.fromhex(previous)
    digest = hashlib.sha256(prior + _body(version, type_, payload)).digest()
    value = digest.hex()
    _head = (value, digest)  # replaced whole, so that threads read it whole
    return value


def links_after(previous: str, version: int, events: list[tuple[str, dict]]) -> list[str]:
    """The chain values that events would take if appended after the event at `version` whose chain is `previous`."""
    chains = []
    for offset, (type_, payload) in enumerate(events, start=1):
        previous = link(previous, version + offset, type_, payload)
        chains.append(previous)
    return chains
