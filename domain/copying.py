"""Deep copies of JSON-like state: a marshal round trip, several times faster than copy.deepcopy."""
from __future__ import annotations

import marshal


def copy_sharing(data: dict, shared: tuple[str, ...] = ()) -> dict:
    """A deep copy of a dict of plain values (dicts, lists, tuples, str, numbers, bool, None) whose `shared` keys
    keep their value itself: parts that never change, such as a match's card list or map."""
    if not shared:
        return marshal.loads(marshal.dumps(data))
    return {**data, **marshal.loads(marshal.dumps({k: v for k, v in data.items() if k not in shared}))}
