"""Known-answer vectors of herald-fair-v1, made by an independent implementation (shared/vectors)."""
import json
from pathlib import Path

import pytest

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
