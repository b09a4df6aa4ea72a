"""``export`` writes a match at a time: the same bytes as writing the whole document at once, and a
file given with ``--out`` is replaced only once it is whole."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominolog.cli.export import _write_chunks
from dominolog.export import CSV_HEADER, csv_chunks, csv_text
from dominolog.log.reader import iter_matches
from dominolog.reducer import verify_match
from dominolog.simulate import simulate_lines

CELLS = st.none() | st.booleans() | st.integers() | st.text(max_size=30)


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.lists(CELLS, min_size=1, max_size=5), max_size=40), size=st.integers(1, 200))
def test_csv_in_pieces_is_the_csv_text(rows: list[list[Any]], size: int) -> None:
    pieces = list(csv_chunks(rows, CSV_HEADER, size=size))
    assert "".join(pieces) == csv_text(rows, CSV_HEADER)


def test_a_failed_export_leaves_the_old_file_and_no_part(tmp_path: Path) -> None:
    out = tmp_path / "sheet.csv"
    out.write_bytes(b"the old export\n")

    def chunks() -> Iterator[bytes]:
        yield b"a,b\n"
        raise RuntimeError("the store went away")

    with pytest.raises(RuntimeError):
        _write_chunks(chunks(), out)
    assert out.read_bytes() == b"the old export\n"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.csv"]
    _write_chunks(iter([b"a,b\n", b"1,2\n"]), out)
    assert out.read_bytes() == b"a,b\n1,2\n"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.csv"]


def test_exporting_a_whole_store_gives_the_documents_written_whole(cli: Callable[..., Any], tmp_path: Path) -> None:
    log = tmp_path / "many.jsonl"
    log.write_text("".join(line + "\n" for line in simulate_lines("brettspielnetz", 12, 5)), encoding="utf-8")
    db = tmp_path / "store.db"
    assert cli("import", log, "--db", db, "-q").code == 0
    reports = [verify_match(m) for m in iter_matches(log)]
    stored = cli("export", "--all", "--db", db, "--format", "json")
    assert stored.code == 0
    doc = json.loads(stored.stdout)
    # the document written a match at a time is the one json.dumps writes whole, byte for byte
    assert stored.stdout == (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode()
    by_head = {r.head: r.as_dict() for r in reports}
    assert len(doc["matches"]) == 12
    for m in doc["matches"]:  # the same reports as verifying the file (named after the store's match)
        assert {**m, "source": None, "line": None} == {**by_head[m["head"]], "source": None, "line": None}
    lines = cli("export", "--all", "--db", db)
    assert sorted(lines.stdout.splitlines()) == sorted(log.read_bytes().splitlines())
    out = tmp_path / "hands.csv"
    assert cli("export", "--all", "--db", db, "--format", "csv", "--out", out).code == 0
    rows = out.read_text().splitlines()
    assert rows[0].split(",")[:3] == CSV_HEADER[:3]
    assert len(rows) == 1 + sum(len(r.hands) + 1 for r in reports)  # a row per hand, then the match's row
