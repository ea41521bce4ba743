"""Exported logs in tests: rows changed by hand, then chained again so that only the rules can tell."""
from __future__ import annotations

import json

from domain.chain import link
from replays.verify import GENESIS, chain_link


def rechain(rows: list[dict]) -> list[dict]:
    """A herald-log-v1 export's rows (header first) with every chain link recomputed after a change."""
    previous = GENESIS
    for row in rows[1:]:
        row["chain"] = previous = chain_link(previous, row)
    return rows


def rechain_tournament(rows: list[dict]) -> list[dict]:
    """A tournament export's rows (header first) with every chain link recomputed after a change."""
    previous = GENESIS
    for row in rows[1:]:
        row["chain"] = previous = link(previous, row["version"], row["type"], row["payload"])
    return rows


def rows(lines):
    return [json.loads(line) for line in lines]


def lines_of(rows_):
    return [json.dumps(r) for r in rows_]
