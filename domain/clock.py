"""Match clocks, the pure rules (RULINGS P3): only the awaited seat's clock runs, and the time is the server's, recorded
in the events (ClockSet's and ClockExpired's "at"), so a replay never reads the wall clock.

Two kinds, one model: each seat has its `seats` time, and the running seat also an `allowance_s` for its current
decision, spent first.
- chess-style `{"initial_s", "increment_s"}`: no allowance; a seat gains its increment with each decision it makes;
- Board Game Arena's `{"per_decision_s", "bank_s"}`: each decision's allowance, then the bank.
"""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.errors import IllegalMove

OPTION = "clock"  # the match option, which every game takes
KINDS = ({"initial_s", "increment_s"}, {"per_decision_s", "bank_s"})
SPENT_FIRST = ("initial_s", "per_decision_s")  # more than 0: a clock that starts at 0 would only ever default
ON_TIMEOUT = ("default_move", "lose")
LONGEST = 7 * 24 * 3600  # seconds: a clock of more than a week is a typo
SHORTEST = 0.001  # the clocks' unit: the events record time to the millisecond


def check(option) -> None:
    """IllegalMove unless a match's clock option is one of the two kinds, with its on_timeout."""
    if not isinstance(option, dict):
        raise IllegalMove("the clock option is a JSON object")
    keys = set(option) - {"on_timeout"}
    if keys not in KINDS:
        raise IllegalMove('a clock is {"initial_s", "increment_s", "on_timeout"} or '
                          '{"per_decision_s", "bank_s", "on_timeout"}')
    if option.get("on_timeout") not in ON_TIMEOUT:
        raise IllegalMove('a clock\'s on_timeout is "default_move" or "lose"')
    for key in sorted(keys):
        value = option[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= LONGEST:
            raise IllegalMove(f"the clock's {key} is a number of seconds from 0 to {LONGEST}")
        if key in SPENT_FIRST and value < SHORTEST:
            raise IllegalMove(f"the clock's {key} is at least {SHORTEST} s")


def initial(option: dict, seats: int) -> dict:
    """The clocks before the first decision: nobody's runs yet."""
    time = option.get("initial_s", option.get("bank_s"))
    return {"at": None, "seats": [time] * seats, "allowance_s": 0, "running": None, "paused": False}


def stamp(moment: datetime) -> str:
    """A moment as the events record it: ISO 8601 UTC, to the millisecond."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def read(at: str) -> datetime:
    return datetime.fromisoformat(at)


def charged(clocks: dict, at: datetime) -> dict:
    """The clocks at `at`: the running seat's time since the last reading taken off its allowance, then its own time
    (never below 0; a server clock that stepped back charges nothing)."""
    running = clocks["running"]
    if running is None:
        return {**clocks, "at": stamp(at)}
    elapsed = max(0.0, (at - read(clocks["at"])).total_seconds())
    allowance = clocks["allowance_s"]
    seats = list(clocks["seats"])
    seats[running] = round(max(0.0, seats[running] - max(0.0, elapsed - allowance)), 3)
    return {**clocks, "at": stamp(at), "seats": seats, "allowance_s": round(max(0.0, allowance - elapsed), 3)}


def decided(clocks: dict, option: dict, seat: int | None, awaiting: int | None) -> dict:
    """After a decision by `seat` (None: none, as after a backup): its increment, and the awaited seat's clock running
    on a new decision's allowance (not while paused)."""
    seats = list(clocks["seats"])
    if seat is not None and option.get("increment_s"):
        seats[seat] = round(seats[seat] + option["increment_s"], 3)
    allowance = option.get("per_decision_s", 0) if awaiting is not None else 0
    return {**clocks, "seats": seats, "running": None if clocks["paused"] else awaiting, "allowance_s": allowance}


def recorded(clocks: dict) -> dict:
    """What a ClockSet records of the clocks, and the state keeps."""
    return {key: clocks[key] for key in ("at", "seats", "allowance_s", "running", "paused")}


def deadline(clocks: dict | None) -> datetime | None:
    """When the running seat's time runs out; None if no clock runs."""
    if not clocks or clocks["running"] is None:
        return None
    return read(clocks["at"]) + timedelta(seconds=clocks["allowance_s"] + clocks["seats"][clocks["running"]])


def told(seconds: float) -> str:
    """A clock's time as players read it: 9:05, 1:02:03."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def shown(clocks: dict) -> list[dict]:
    """The clocks as every view shows them: each seat's time left at the view's version, the running one's deadline."""
    rows = []
    for seat, time in enumerate(clocks["seats"]):
        running = seat == clocks["running"]
        row = {"seat": seat, "remaining_s": round(time + (clocks["allowance_s"] if running else 0), 3),
               "running": running}
        if running:
            row["deadline"] = stamp(deadline(clocks))
        rows.append(row)
    return rows
