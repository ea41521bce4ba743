"""Logs exported before a rules change (tests/data/*.ndjson, exported before the fixes of RULINGS K3, K13, K15 and
C2, C20) stay verifiable: their chains and draws are untouched, and re-refereeing one that used a move now refused
names that move and its version."""
from __future__ import annotations

from pathlib import Path

import pytest

from replays import verify
from replays.referee import Rejected, rereferee

DATA = Path(__file__).parent / "data"

# log -> (version of the first move today's rules refuse, the move as the timeline tells it)
REFUSED = {
    "korona-swap-gave-nothing": (18, "P0 played Tactical Swap on P2."),
    "korona-revolt-single-card-passed": (272, "P0 had P1 pass Healer to P0 in the Revolt."),
    "korona-revolt-second-ruler-pair": (263, "P0 had P0 pass Ruler and Ruler to P1 in the Revolt."),
}


def lines(name: str) -> list[str]:
    return (DATA / f"{name}.ndjson").read_text().splitlines()


@pytest.mark.parametrize("name", [*REFUSED, "crusader-kingdoms-2p"])
def test_an_old_log_still_verifies(name):
    """The standalone verifier passes every old log: hash chain, seed commitment and every draw."""
    out = []
    assert verify.verify(lines(name), out=out.append), out
    assert all(line.startswith("ok") for line in out)


@pytest.mark.parametrize("name", list(REFUSED))
def test_rereferee_names_the_move_now_refused_and_its_version(name):
    """A Korona log that used a move the rules now refuse (a Swap giving nothing, a lone card passed without its
    placement, a second Ruler pair) is re-refereed up to that move, and the refusal names it and its version."""
    version, told = REFUSED[name]
    with pytest.raises(Rejected) as refused:
        rereferee(lines(name))
    assert refused.value.version == version
    assert f"({told})" in str(refused.value) and str(refused.value).startswith(f"version {version}: ")


def test_an_old_crusader_kingdoms_log_rereferees_to_its_end():
    """Crusader Kingdoms' changes only allow more (C2, C20), so an old log is re-refereed whole."""
    match = rereferee(lines("crusader-kingdoms-2p"))
    assert match.finished and match.version == len(lines("crusader-kingdoms-2p")) - 1
