"""Tonight first (issue 35): the board and /tables show the current round of the current club event,
with links to the other rounds and events (``dominolog.club.tonight``, and the pages that use it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dominolog.club.tonight import tonight
from tests.helpers import parsed
from tests.webserver import Server


def _row(
    mid: str, event: str | None, round_: str | None, table: str, last_at: str | None, **meta: str
) -> dict[str, Any]:
    m = {k: v for k, v in (("event", event), ("round", round_), ("table", table)) if v is not None}
    return {"id": mid, "meta": {**m, **meta}, "last_at": last_at}


ROWS = [
    _row("e1-r1-t1", "Evening 1", "1", "1", "2026-09-03T19:40:00Z"),
    _row("e1-r2-t1", "Evening 1", "2", "1", "2026-09-03T21:10:00Z"),
    _row("e2-r9-t1", "Evening 2", "9", "1", "2026-09-17T21:00:00Z"),
    _row("e2-r10-t2", "Evening 2", "10", "2", "2026-09-17T20:30:00Z"),
    _row("e2-r10-t10", "Evening 2", "10", "10", None),  # no time yet: its evening's round all the same
    _row("loose", None, None, "1", None, date="2026-08-01"),
]


def test_the_current_event_and_round() -> None:
    t = tonight(ROWS)
    # the event of the most recent activity; its highest round read as a number (10 after 9); by table
    assert (t.event, t.round, [r["id"] for r in t.matches], t.current) == (
        "Evening 2",
        "10",
        ["e2-r10-t2", "e2-r10-t10"],
        True,
    )
    assert [(e.event, e.rounds) for e in t.evenings] == [
        ("Evening 2", ["9", "10"]),
        ("Evening 1", ["1", "2"]),
        ("", [""]),  # the matches with no event (and no round): one group
    ]
    other = tonight(ROWS, "Evening 1")
    assert (other.round, [r["id"] for r in other.matches], other.current) == ("2", ["e1-r2-t1"], False)
    assert [r["id"] for r in tonight(ROWS, "Evening 2", "9").matches] == ["e2-r9-t1"]
    assert [r["id"] for r in tonight(ROWS, "").matches] == ["loose"]
    assert tonight(ROWS, "Evening 7").unknown and tonight(ROWS, "Evening 2", "3").unknown
    # without any time, meta.date says which is the most recent; without either, the last in the list
    dated = [_row("a", "A", None, "1", None, date="2026-10-01"), _row("b", "B", None, "1", None, date="2026-09-01")]
    assert tonight(dated).event == "A"
    assert tonight([_row("a", "A", None, "1", None), _row("b", "B", None, "1", None)]).event == "B"
    assert tonight([]).matches == []


def _begin(s: Server, mid: str, event: str, round_: str, table: str, at: str) -> None:
    start = {
        "type": "match_start",
        "variant": "ghost13",
        "players": [f"{mid} Ana", "<b>Ben</b>"],
        "id": mid,
        "meta": {"event": event, "round": round_, "table": table},
        "at": at,
    }
    headers = {"Content-Type": "application/json", **s.auth(s.organiser)}
    r = s.client.post("/api/matches", content=json.dumps(start), headers=headers)
    assert r.status_code == 201, r.text


def test_the_board_and_tables_show_tonight_first_with_the_others_one_click_away(tmp_path: Path) -> None:
    with Server(tmp_path / "t.db", tmp_path) as s:
        _begin(s, "old-1", "Evening <i>1</i>", "1", "1", "2026-09-03T19:30:00Z")
        _begin(s, "now-r1", "Evening 2", "1", "1", "2026-09-17T19:30:00Z")
        _begin(s, "now-r2-t2", "Evening 2", "2", "2", "2026-09-17T20:30:00Z")
        _begin(s, "now-r2-t1", "Evening 2", "2", "1", "2026-09-17T20:31:00Z")
        for base in ("/", "/tables"):
            page = s.client.get(base)
            tags = parsed(page.text)
            text = "".join(tags.text)
            assert "now-r2-t1" in text and "now-r2-t2" in text
            assert "now-r1 Ana" not in text and "old-1" not in text  # not mixed in
            assert text.index("now-r2-t1") < text.index("now-r2-t2")  # by table
            assert "Evening 2, round 2 (tonight)" in text
            links = [a["href"] for t, a in tags.tags if t == "a" and "href" in a]
            assert f"{base}?event=Evening%202&round=1" in links  # the other round of tonight's event
            assert f"{base}?event=Evening%20%3Ci%3E1%3C%2Fi%3E" in links  # the finished evening, one click
            assert "<i>1</i>" not in page.text and "Evening &lt;i&gt;1&lt;/i&gt;" in page.text
            main = next(a for t, a in tags.tags if t == "main")
            assert main["data-part"] == ("/part" if base == "/" else "/tables/part")  # follows tonight
            old = s.client.get(f"{base}?event=Evening%20%3Ci%3E1%3C%2Fi%3E")
            text = "".join(parsed(old.text).text)
            assert "old-1" in text and "now-r2-t1" not in text and "back to tonight" in text
            main = next(a for t, a in parsed(old.text).tags if t == "main")
            assert main["data-part"].endswith("part?event=Evening%20%3Ci%3E1%3C%2Fi%3E")  # the pick, kept live
            first = "".join(parsed(s.client.get(f"{base}?event=Evening%202&round=1").text).text)
            assert "now-r1 Ana" in first and "now-r2-t1" not in first
            assert "No match of that event and round." in s.client.get(f"{base}?event=nope").text
        # a new round begun: the board's part (no pick) moves on to it
        _begin(s, "now-r3", "Evening 2", "3", "1", "2026-09-17T21:30:00Z")
        part = "".join(parsed(s.client.get("/part").text).text)
        assert "now-r3" in part and "now-r2-t1" not in part and "Evening 2, round 3 (tonight)" in part
