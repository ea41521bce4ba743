"""Known-answer vectors of herald-fair-v1, made by an independent implementation (shared/vectors)."""
import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain import fair
from domain.chain import GENESIS, link
from replays import verify

VECTORS = json.loads((Path(__file__).parent / "data" / "herald-fair-v1.json").read_text())


@pytest.mark.parametrize("vector", VECTORS["random"], ids=lambda v: f"{v['match_id']}-{v['nonce']}-{v['kind']}")
def test_random_vector_recomputes(vector):
    seed = bytes.fromhex(vector["server_seed"])
    assert fair.commitment(seed) == vector["seed_commitment"]
    entry = {k: v for k, v in vector.items() if k in ("nonce", "kind", "faces", "count", "input", "n")}
    assert fair.recompute(seed, vector["match_id"], vector["client_seeds"], entry) == vector["result"]
    assert verify.recompute(seed, vector["match_id"], vector["client_seeds"], entry) == vector["result"], \
        "the standalone verifier's own implementation"


def test_generator_draws_in_nonce_order():
    vector = VECTORS["random"][0]
    rng = fair.Generator(bytes.fromhex(vector["server_seed"]), vector["match_id"], vector["client_seeds"])
    first = rng.shuffle(vector["input"])
    assert first == {"nonce": 0, "kind": "shuffle", "input": vector["input"], "result": vector["result"]}
    assert rng.dice(6, 10)["result"] == VECTORS["random"][1]["result"]
    assert rng.choice(4) == {"nonce": 2, "kind": "choice", "n": 4, "result": VECTORS["random"][2]["result"]}


def test_chain_vectors_recompute():
    previous = GENESIS
    for event in VECTORS["chain"]:
        previous_link = link(previous, event["version"], event["type"], event["payload"])
        assert previous_link == event["chain"]
        assert verify.chain_link(previous, event) == event["chain"], "the standalone verifier's own implementation"
        previous = previous_link


def test_uniform_rejects_out_of_range_bound():
    stream = fair.ByteStream(b"\0" * 32, "m", ["a"], 0)
    with pytest.raises(ValueError):
        stream.uniform(0)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=20)


@given(payload=st.dictionaries(st.text(), JSON, max_size=5), version=st.integers(1, 10**6),
       type_=st.text(min_size=1))
def test_a_link_hashes_the_canonical_json_of_version_type_and_payload(payload, version, type_):
    """docs/FAIRNESS.md: an event's chain value is SHA-256 of the previous value's bytes and the canonical JSON
    (sorted keys, no spaces, UTF-8, non-ASCII as is) of {version, type, payload}: link's own writing of those bytes
    equals json.dumps' for any payload, unicode, floats (NaN and infinities too, which json writes as NaN and
    Infinity, beside a null or not) and nesting included."""
    body = json.dumps({"version": version, "type": type_, "payload": payload}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode()
    assert link(GENESIS, version, type_, payload) == hashlib.sha256(bytes.fromhex(GENESIS) + body).hexdigest()
