"""herald-log-v1 exports and herald-fair-v1 audit bundles, built from a match's full log."""
from __future__ import annotations

import json

FORMAT = "herald-log-v1"


def export_lines(match_id: str, game: str, events: list[dict]) -> list[str]:
    """The NDJSON lines of an export: a header, then one line per event."""
    header = {"format": FORMAT, "match_id": match_id, "game": game}
    rows = [header] + [{key: e[key] for key in ("version", "type", "payload", "chain")} for e in events]
    return [json.dumps(row, ensure_ascii=False) for row in rows]


def random_entries(events: list[dict]) -> list[dict]:
    """Every random entry with the version of its event, in nonce order."""
    entries = [{**entry, "version": e["version"]} for e in events for entry in e["payload"].get("random", ())]
    return sorted(entries, key=lambda entry: entry["nonce"])


def audit_bundle(match_id: str, events: list[dict], client_seeds: list, server_seed: str | None) -> dict:
    created = events[0]["payload"]
    return {"fairness": created.get("fairness", "herald-fair-v1"), "match_id": match_id,
            "seed_commitment": created["seed_commitment"], "client_seeds": client_seeds,
            "server_seed": server_seed, "random": random_entries(events), "chain_head": events[-1]["chain"]}
