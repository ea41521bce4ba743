"""What the console's pages show beside the views themselves: words for moves, a score chart, the flags on tables,
clocks and round time counting down."""
from __future__ import annotations

from datetime import UTC, datetime

from domain import clock

DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2")  # each seat's line is told apart by its dashes, not colour alone
WIDTH, HEIGHT, MARGIN = 640, 220, 30


def words(name) -> str:
    """A snake_case name as a player reads it: sneak_attack -> Sneak Attack."""
    return str(name).replace("_", " ").title()


def card_names(view) -> dict:
    """Every card a view shows, id -> name (any object with an integer id and a name)."""
    found = {}
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("id"), int) and isinstance(item.get("name"), str):
                found[item["id"]] = item["name"]
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def move_label(move: dict, view: dict, players: list[str], game) -> str:
    """A legal move as a button reads it, cards and seats by name (the game's move_names, else the view's cards for
    its card_keys; its seat_keys): "Draw: card Healer (#48), source market"."""
    names = game.move_names(view) if game.move_names else dict.fromkeys(game.card_keys, card_names(view))

    def shown(key, value):
        if key in names and isinstance(value, int):
            return f"{words(names[key].get(value, 'card'))} (#{value})"
        if key in names and isinstance(value, list):
            return ", ".join(shown(key, v) for v in value)
        if key in game.seat_keys and isinstance(value, int) and 0 <= value < len(players):
            return players[value]
        return str(value).replace("_", " ")

    details = [f"{key.replace('_', ' ')} {shown(key, value)}" for key, value in move.items() if key != "type"]
    return words(move["type"]) + (": " + ", ".join(details) if details else "")


def chart(series: list[tuple[int, list]], players: list[str], marked: int | None = None) -> dict | None:
    """An inline SVG chart of each seat's score by version: one dashed polyline a seat, labelled by name."""
    if not series:
        return None
    last_version = max(series[-1][0], 2)
    top = max(1, max(max(scores) for _, scores in series))
    bottom = min(0, min(min(scores) for _, scores in series))

    def x(version):
        return MARGIN + (WIDTH - 2 * MARGIN) * (version - 1) / (last_version - 1)

    def y(score):
        return HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * (score - bottom) / (top - bottom)

    lines = [{"name": name, "dash": DASHES[seat % len(DASHES)], "final": series[-1][1][seat],
              "points": " ".join(f"{x(v):.1f},{y(scores[seat]):.1f}" for v, scores in series)}
             for seat, name in enumerate(players)]
    return {"width": WIDTH, "height": HEIGHT, "margin": MARGIN, "top": top, "bottom": bottom, "zero": round(y(0), 1),
            "last": series[-1][0], "lines": lines,
            "marker": None if marked is None else round(x(marked), 1), "baseline": HEIGHT - MARGIN}


def flags(match, stall_seconds: int, awaiting_result: bool = False, now: datetime | None = None) -> list[str]:
    """Why a table needs the referee or the organiser now: requests, disputes, a stalled decision, a missing result."""
    now = now or datetime.now(UTC)
    out = []
    pending = sum(r["status"] == "pending" for r in match.undo_requests.values())
    if pending:
        out.append(f"{pending} undo request{'s' if pending > 1 else ''} waiting")
    disputed = sum(d.get("ruling") is None for d in match.disputes.values())
    if disputed:
        out.append(f"{disputed} open dispute{'s' if disputed > 1 else ''}")
    seat = None if match.finished else match.game.awaiting(match.state)
    waited = (now - match.modified_on).total_seconds()
    if seat is not None and waited > stall_seconds:
        out.append(f"{match.created['players'][seat]} has been deciding for {int(waited // 60)} min")
    if awaiting_result and match.finished:
        out.append("finished, result not yet in the tournament")
    return out


def countdown(deadline: str, now: datetime) -> dict:
    """A time running out at `deadline` (ISO 8601 UTC), as a page shows it: the time left now, and the deadline and the
    server's time for console.js, which counts it down every second from there (correcting the browser's clock)."""
    left = max(0.0, (clock.read(deadline) - now).total_seconds())
    return {"left": clock.told(left), "deadline": deadline, "now": clock.stamp(now)}


def clocks(shown: list[dict], players: list[str], live: bool, now: datetime | None = None) -> list[dict]:
    """Each seat's clock as a match page shows it. On a live page the running clock counts down from its deadline,
    and every clock carries the server's time, so that one a stream's message starts counts down from it as well;
    otherwise (another version, a paused or stopped clock) it shows the time the view gives, still."""
    now = now or datetime.now(UTC)
    out = []
    for row in shown:
        ticking = live and row["running"] and "deadline" in row
        still = {"left": clock.told(row["remaining_s"]), "deadline": None, "now": clock.stamp(now) if live else None}
        out.append({"seat": row["seat"], "name": players[row["seat"]], "running": row["running"],
                    **(countdown(row["deadline"], now) if ticking else still)})
    return out


def round_time(current: dict | None, now: datetime | None = None) -> dict | None:
    """The current round's time, where the tournament has round time: counting down to its deadline while a table
    still plays, or the moment time was called (None if neither applies)."""
    if not current:
        return None
    if current.get("time_called"):
        called = clock.read(current["time_called"]["at"]).astimezone(UTC)
        return {"round": current["round"], "called": called.strftime("%H:%M:%S UTC")}
    playing = any(table["placements"] is None for table in current["tables"])
    if not current.get("deadline") or not playing:
        return None
    return {"round": current["round"], "called": None, **countdown(current["deadline"], now or datetime.now(UTC))}
