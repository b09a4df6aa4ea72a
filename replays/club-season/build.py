"""Rebuild the club season: ``python replays/club-season/build.py`` with dominolog installed.

The Thursday club's autumn season: three evenings, three tables each, mixed variants, eight players.
Each evening is one file (``2026-09-03.jsonl`` ...) holding its tables' matches in table order. The
matches are played by ``dominolog simulate`` (random legal play, the rules' claims), then given the
club's ids, meta (season, event, date, table, recorder) and clock times on the evening. Ghost 13
tables are written as a spectator records them (no hand seen; the reveals at each hand's end). One
match is disputed: at table 3 on the third evening Fay says Eli drew in hand 2 while holding a tile
that played; it was so (the policy below makes Eli draw once with a playable tile), the table wrote
the scores as the rules give them, and the log shows the renege. ``tests/test_club_season.py``
checks that this script writes the files byte for byte, and the standings of the season.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from dominolog.log.hashchain import add_hashes
from dominolog.log.writer import dump_line
from dominolog.simulate import hide_match, simulate_match
from dominolog.state import HandState, MatchState

OUT = Path(__file__).resolve().parent
SEASON = "Autumn 2026"
CLUB = "Thursday club"

Events = list[dict[str, Any]]


class Table:
    """One match of the season: where, who, which game, and the seed its play came from."""

    def __init__(
        self,
        table: str,
        variant: str,
        players: list[str],
        seed: int,
        options: dict[str, Any] | None = None,
        hidden: bool = False,
        recorder: str = "",
        dispute: bool = False,
    ) -> None:
        self.table, self.variant, self.players, self.seed = table, variant, players, seed
        self.options, self.hidden, self.recorder, self.dispute = options, hidden, recorder, dispute


PARTNERS = {"partners": True}

#: evening (its date and the time play starts) -> its tables
EVENINGS: dict[tuple[str, str], list[Table]] = {
    ("2026-09-03", "19:30"): [
        Table("1", "ghost13", ["Ana", "Ben"], 11, hidden=True, recorder="Gus"),
        Table("2", "double-draw", ["Cleo", "Dev", "Eli", "Fay"], 12, PARTNERS),
        Table("3", "brettspielnetz", ["Gus", "Hana"], 13),
    ],
    ("2026-09-17", "19:30"): [
        Table("1", "ghost13", ["Cleo", "Gus"], 21, hidden=True, recorder="Ana"),
        Table("2", "double-draw", ["Ana", "Ben", "Hana", "Fay"], 22, PARTNERS),
        Table("3", "39", ["Dev", "Eli"], 23),
    ],
    ("2026-10-01", "19:30"): [
        Table("1", "ghost13", ["Ana", "Cleo"], 31, hidden=True, recorder="Ben"),
        Table("2", "double-bergen", ["Ben", "Dev", "Gus", "Hana"], 32),
        Table("3", "brettspielnetz", ["Eli", "Fay"], 33, dispute=True),
    ],
}


def renege_once(player: str, hand_number: int) -> Any:
    """A policy: ``player`` draws once in hand ``hand_number`` although a tile of theirs plays."""
    done: list[bool] = []

    def policy(match: MatchState, hand: HandState, mover: str, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        if done or mover != player or hand.number != hand_number or not hand.boneyard.count:
            return None
        if not any(a["type"] == "play" for a in actions):
            return None
        done.append(True)
        return {"type": "draw", "player": mover}

    return policy


def timed(events: Events, day: str, start: str) -> Events:
    """The match moved to ``day`` from ``start`` (HH:MM), keeping the gaps the simulation drew."""
    first = datetime.fromisoformat(events[0]["at"].replace("Z", "+00:00"))
    begin = datetime.fromisoformat(f"{day}T{start}:00+00:00")
    out = []
    at = begin
    for e in events:
        if "at" in e:  # (a reveal written by hide_match has none: it takes the time of the event before)
            at = datetime.fromisoformat(e["at"].replace("Z", "+00:00")) - first + begin
        out.append({**e, "at": at.strftime("%Y-%m-%dT%H:%M:%SZ")})
    return out


def match(day: str, start: str, t: Table) -> Events:
    policy = renege_once("Eli", 2) if t.dispute else None
    events = simulate_match(t.variant, f"club-{t.seed}", 0, t.players, t.options, policy=policy)
    if t.hidden:
        events = hide_match(events)
    events = timed(events, day, start)
    evening = list(EVENINGS).index((day, start)) + 1
    meta = {"season": SEASON, "event": f"{CLUB}, evening {evening}", "date": day, "table": t.table}
    if t.recorder:
        meta["recorder"] = t.recorder
    head = {**events[0], "id": f"club-{day}-table-{t.table}", "meta": meta}
    body = [head]
    if t.dispute:
        question = "Fay: in hand 2 Eli drew while holding a tile that played. Did Eli renege?"
        body.append({"type": "note", "text": question})
    body += events[1:]
    out = []
    for i, e in enumerate(body, 1):
        fields = {k: v for k, v in e.items() if k not in ("type", "seq", "hash", "at")}
        at = e.get("at") or body[i]["at"]  # (the note takes the time of the event after it)
        out.append({"type": e["type"], "seq": i, **fields, "at": at})
    return add_hashes(out)


def files() -> dict[str, Events]:
    """File name -> the matches of that evening, one after the other."""
    out: dict[str, Events] = {}
    for (day, start), tables in EVENINGS.items():
        out[f"{day}.jsonl"] = [e for t in tables for e in match(day, start, t)]
    return out


def main() -> None:
    for name, events in files().items():
        (OUT / name).write_text("".join(dump_line(e) + "\n" for e in events), encoding="utf-8")


if __name__ == "__main__":
    main()
