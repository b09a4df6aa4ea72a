"""One big file read in parts by several processes (``verify --jobs``, ``import --jobs``): the parts,
read one after the other from their first lines' numbers, give the same matches with the same records
as the whole file, on hostile files; and the commands give the same output, the same store.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.log.parts import parts_of, read_part
from dominolog.log.reader import MAX_LINE_BYTES, MAX_MATCH_EVENTS, MatchLog, iter_matches
from dominolog.simulate import simulate_lines
from tests.conftest import Ran

Cli = Callable[..., Ran]


def _seen(logs: list[MatchLog]) -> list[Any]:
    """Everything a match read holds, to compare two readings."""
    return [
        (
            log.source,
            log.line,
            log.orphan,
            [
                (r.line, r.seq, r.data, r.error, r.raw_only, r.truncated, r.length, r.digest, r.event)
                for r in log.records
            ],
        )
        for log in logs
    ]


def _in_parts(path: Path, count: int, smallest: int) -> list[MatchLog]:
    parts = parts_of(path, count, smallest)
    size = path.stat().st_size
    assert parts[0][0] == 0 and parts[-1][1] == size
    assert all(a[1] == b[0] for a, b in itertools.pairwise(parts))
    out: list[MatchLog] = []
    for part in parts:
        out.extend(iter_matches(path, read_part(path, part), part[2]))
    return out


def _start(n: int) -> bytes:
    return orjson.dumps({"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": f"m{n}"})


#: lines of every kind the reader meets, some of which look like the start of a match and are not
LINES = [
    b'{"type":"deal","leader":"Ana"}',
    b'{"type":"play","player":"Ana","tile":"3-3"}',
    b'{"type":"note","text":"\\"type\\":\\"match_start\\" is how a match begins"}',
    b'{"type":"\\u006datch_start","variant":"ghost13","players":["Ana","Ben"]}',  # a match_start, escaped
    b'{"type":"match_start","type":"match_start","variant":"39","players":["A","B"]}',  # a key twice
    b'{"type":"match_start", broken',
    b"  \t ",
    b"",
    b"\xff\xfe match_start \xc3",
    b'   {"type":"pass","player":"Ben"}   ',
    b'{"type":"match_start","variant":"double-draw","players":["Ana","Ben"],"seq":4}\r',
]


@st.composite
def hostile_files(draw: st.DrawFn) -> bytes:
    pieces = draw(st.lists(st.one_of(st.sampled_from(LINES), st.integers(0, 99).map(_start)), min_size=0, max_size=40))
    text = b"\n".join(pieces)
    if draw(st.booleans()):
        text = b"\xef\xbb\xbf" + text
    if draw(st.booleans()):
        text += b"\n"
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hostile_files(), count=st.integers(1, 9), smallest=st.sampled_from([1, 7, 40, 200]))
def test_the_parts_read_one_after_the_other_are_the_whole_file(tmp_path: Path, data: bytes, count: int, smallest: int):
    path = tmp_path / "log.jsonl"
    path.write_bytes(data)
    assert _seen(_in_parts(path, count, smallest)) == _seen(list(iter_matches(path)))


def test_a_part_begins_only_where_a_match_begins(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"\n".join([_start(1), LINES[0], LINES[2], LINES[3], LINES[1], LINES[4], LINES[5], _start(2)]))
    parts = parts_of(path, 50, 1)
    starts = [path.read_bytes()[a:b].split(b"\n")[0] for a, b, _ in parts]
    # the escaped match_start is one (the reader decodes it so); the note and the broken line are not
    assert starts == [_start(1), LINES[4], _start(2)]
    assert [line for _, _, line in parts] == [1, 6, 8]
    assert _seen(_in_parts(path, 50, 1)) == _seen(list(iter_matches(path)))


def test_no_part_begins_inside_a_line_too_long_to_read(tmp_path: Path) -> None:
    long = b'{"type":"note","text":"' + b"x" * MAX_LINE_BYTES + b'"}'
    long_start = b'{"type":"match_start","variant":"ghost13","players":["A","B"],"meta":{"p":"' + b"y" * MAX_LINE_BYTES
    path = tmp_path / "log.jsonl"
    path.write_bytes(
        b"\n".join([_start(1), LINES[1], long, long_start + b'"}}', LINES[1], _start(2), LINES[0]]) + b"\n"
    )
    parts = parts_of(path, 8, 1)
    assert len(parts) == 2 and parts[1][2] == 6  # the long match_start is malformed, not a beginning
    assert _seen(_in_parts(path, 8, 1)) == _seen(list(iter_matches(path)))


def test_a_match_cut_short_past_the_events_a_match_may_hold(tmp_path: Path) -> None:
    play = b'{"type":"pass","player":"Ana"}'
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"\n".join([_start(1), *[play] * (MAX_MATCH_EVENTS + 5), LINES[2], _start(2), play]) + b"\n")
    whole = list(iter_matches(path))
    assert [len(m.records) for m in whole] == [MAX_MATCH_EVENTS + 1, 2]
    assert _seen(_in_parts(path, 16, 1)) == _seen(whole)


def _big(tmp_path: Path) -> Path:
    """One file of about 2.5 MB (parts are at least 1 MB): 120 simulated Double Draw matches, one broken line."""
    lines = list(simulate_lines("double-draw", 120, "parts"))
    lines.insert(len(lines) // 2, '{"type":"play", broken')
    path = tmp_path / "big.jsonl"
    path.write_text("".join(line if line.endswith("\n") else line + "\n" for line in lines), encoding="utf-8")
    assert path.stat().st_size > 2 << 20
    return path


def test_verify_jobs_cuts_one_big_file_and_says_the_same(cli: Cli, tmp_path: Path) -> None:
    path = _big(tmp_path)
    assert len(parts_of(path, 8)) >= 2
    one = cli("verify", path, "--json")
    two = cli("verify", path, "--json", "--jobs", 2)
    assert one.code == two.code == 1  # the broken line
    assert two.out == one.out and two.err == one.err
    text = cli("verify", path, "-j", 3)
    assert text.out == cli("verify", path).out


def test_import_jobs_cuts_one_big_file_and_stores_the_same(cli: Cli, tmp_path: Path) -> None:
    path = _big(tmp_path)
    one = cli("import", path, "--db", tmp_path / "one.db")
    two = cli("import", path, "--db", tmp_path / "two.db", "--jobs", 2)
    assert one.code == two.code == 0
    assert one.out.rsplit(" events in ", 1)[0] == two.out.rsplit(" events in ", 1)[0]
    assert "120 stored" in one.out

    def rows(db: Path) -> list[Any]:
        with sqlite3.connect(db) as conn:
            return [
                conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("events", "matches", "hands")
            ] + [conn.execute("SELECT match_id, source, line FROM imports ORDER BY 1").fetchall()]

    assert rows(tmp_path / "one.db") == rows(tmp_path / "two.db")
