"""What ``dominolog import`` stores, row for row, is what it stored before it was made faster (issue 28,
section 3), and what appending the same events one by one through :meth:`Store.append` stores.

The corpus: every replay (each variant, open and hidden, disputed ones with violations), the club season,
the disputes, the notation files, and a file of hostile and awkward lines (lines before any match_start,
not JSON, not UTF-8, a key written twice, a lone surrogate, an integer beyond 64 bits, a line too long, an
edited event, a match without id, the same match twice, the same content under another id, the same id
with other lines). ``tests/data/import_expected.json`` holds, for each table, the number of rows and the
sha256 of their dump, and the messages of the import, as the import made them at commit 4b63ef3, before
the change (regenerate it only for a change that means to store something else:
``python tests/test_import_identical.py FOLDER`` writes it from the installed package).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
EXPECTED = ROOT / "tests" / "data" / "import_expected.json"
#: every table of a store and the columns of its dump (``imports``: not the time of the import; its
#: source as the file's name)
TABLES = {
    "dominolog_meta": "SELECT * FROM dominolog_meta ORDER BY key",
    "events": "SELECT * FROM events ORDER BY match_id, seq",
    "matches": "SELECT * FROM matches ORDER BY id",
    "hands": "SELECT * FROM hands ORDER BY match_id, number",
    "imports": "SELECT rowid, match_id, source, line FROM imports ORDER BY rowid",
    "analyses": "SELECT * FROM analyses ORDER BY 1, 2, 3",
}


def _line(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def hostile_file() -> bytes:
    """Lines an import must refuse, mark or skip exactly as it did (made from a replay's lines)."""
    src = (REPLAYS / "ghost13-simulated.jsonl").read_bytes().splitlines()
    ends = [i for i, x in enumerate(src) if b'"match_start"' in x][1:] or [len(src)]
    first = [json.loads(x) for x in src[: ends[0]]]
    bare = [{k: v for k, v in e.items() if k not in ("hash", "seq", "id")} for e in first]
    out = [b'{"type":"note","text":"before any match"}', b"not json at all"]
    # a hashed match with one event edited after it was written (a hash-mismatch: stored, invalid)
    edited = [dict(e) for e in first]
    edited[0]["id"] = "edited"
    edited[3] = {**edited[3], "at": "2026-01-01T00:00:00Z"}
    out += [_line(e) for e in edited]
    # a match with no id (stored under its head), then the same content again (skipped)
    out += [_line(e) for e in bare] * 2
    # the same match under another id: skipped as stored already
    out += [_line({**bare[0], "id": "same-content"}), *(_line(e) for e in bare[1:])]
    # awkward lines inside a match: stored as read, the match invalid
    awkward = [_line({**bare[0], "id": 'awkward \u00e9\u6f22 \\"q"', "meta": {"note": "caf\u00e9", "n": "1"}})]
    awkward += [_line(e) for e in bare[1:4]]
    awkward += [
        b'{"type":"note","text":"twice","text":"again"}',
        b'{"type":"note","text":"\\ud800 lone"}',
        b'{"type":"note","text":"big","n":123456789012345678901234567890}',
        b'{"type":"note","text":"bad byte \xff here"}',
        b"[1, 2, 3]",
        b"42",
        b'{"type":"note","text":"a stray CR"}\r',
        b'{"type":"play","player":"Nobody","tile":"9-9"}',
        b'{"type":"note","text":"tab\\there","at":"2026-02-02T02:02:02Z"}',
    ]
    awkward += [_line(e) for e in bare[4:]]
    out += awkward
    # a line too long: the match cannot be stored
    out += [_line({**bare[0], "id": "too-long"}), _line({"type": "note", "text": "x" * (1 << 20)})]
    # the id of a replay with other lines: a conflict
    clash = [json.loads(x) for x in (REPLAYS / "ghost13-disputed.jsonl").read_bytes().splitlines()[:3]]
    out += [_line({k: v for k, v in e.items() if k != "hash"}) for e in clash]
    return b"\xef\xbb\xbf" + b"\n".join(out) + b"\n\n"


def write_corpus(folder: Path) -> list[Path]:
    """The corpus's files in ``folder``, in the order they are imported."""
    folder.mkdir(parents=True, exist_ok=True)
    sources = [
        *sorted(REPLAYS.glob("*.jsonl")),
        *sorted((REPLAYS / "club-season").glob("*.jsonl")),
        *sorted((REPLAYS / "disputes").glob("*.jsonl")),
        *sorted((ROOT / "tests" / "data" / "notation").glob("*.dn")),
    ]
    files = []
    for i, src in enumerate(sources):
        dst = folder / f"{i:02d}-{src.name}"
        shutil.copyfile(src, dst)
        files.append(dst)
    hostile = folder / "99-hostile.jsonl"
    hostile.write_bytes(hostile_file())
    return [*files, hostile]


def table_dump(db: Path) -> dict[str, list[list[Any]]]:
    """Every row of every table (the import times left out, the sources as file names)."""
    out: dict[str, list[list[Any]]] = {}
    with sqlite3.connect(db) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert set(TABLES) <= names
        for name, sql in TABLES.items():
            rows = [list(r) for r in conn.execute(sql)]
            if name == "imports":
                rows = [[r[0], r[1], Path(r[2]).name, r[3]] for r in rows]
            out[name] = [[c.hex() if isinstance(c, bytes) else c for c in r] for r in rows]
        for name in sorted(names - set(TABLES)):  # the tokens' tables and any other: empty after an import
            out[name] = [list(r) for r in conn.execute(f'SELECT * FROM "{name}"')]
    conn.close()
    return out


def digest(dump: dict[str, list[list[Any]]]) -> dict[str, Any]:
    return {
        name: {"rows": len(rows), "sha256": hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()}
        for name, rows in sorted(dump.items())
    }


def messages(text: str, folder: Path) -> list[str]:
    """The lines the import printed, with the folder's path taken out and the timing left out."""
    return [line.replace(str(folder), "<dir>").split(" events in ")[0] for line in text.splitlines()]


def expectation(run: Callable[..., Any], folder: Path, db: Path, *extra: object) -> dict[str, Any]:
    files = write_corpus(folder)
    done = run("import", *files, "--db", db, *extra)
    return {
        "code": done.code,
        "out": messages(done.out, folder),
        "err": messages(done.err, folder),
        "tables": digest(table_dump(db)),
    }


@pytest.mark.parametrize("jobs", [1, 2])
def test_import_stores_exactly_what_it_stored_before(cli: Callable[..., Any], tmp_path: Path, jobs: int) -> None:
    got = expectation(cli, tmp_path / "logs", tmp_path / "store.db", "--jobs", jobs)
    want = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert got["code"] == want["code"] == 1
    assert got["err"] == want["err"]
    assert got["out"] == want["out"]
    assert got["tables"] == want["tables"]


def test_an_import_stores_what_appending_the_events_one_by_one_stores(tmp_path: Path) -> None:
    """Each valid match of the replays, imported, and appended line by line to another store: the same
    rows of ``events``, ``matches`` and ``hands``."""
    from dominolog.log.reader import iter_matches
    from dominolog.store import open_store

    files = write_corpus(tmp_path / "logs")[:-1]
    imported, appended = tmp_path / "imported.db", tmp_path / "appended.db"
    n = 0
    with open_store(imported) as a, open_store(appended) as b:
        for f in files:
            for log in iter_matches(f) if f.suffix == ".jsonl" else ():
                (result,) = a.import_matches([log])
                if result.status != "imported" or not result.valid:
                    continue
                for rec in log.records:
                    b.append(result.match_id or "", rec.data)
                n += 1
    assert n >= 20
    with sqlite3.connect(imported) as ca, sqlite3.connect(appended) as cb:
        ids = {r[0] for r in cb.execute("SELECT id FROM matches")}
        assert len(ids) == n
        for name in ("events", "matches", "hands"):
            theirs = cb.execute(TABLES[name]).fetchall()
            assert theirs == [r for r in ca.execute(TABLES[name]).fetchall() if r[0] in ids]
    ca.close()
    cb.close()


if __name__ == "__main__":  # python tests/test_import_identical.py FOLDER: write the expectation
    import subprocess
    from types import SimpleNamespace

    work = Path(sys.argv[1])

    def _run(*args: object) -> Any:
        done = subprocess.run(["dominolog", *map(str, args)], capture_output=True, check=False)
        return SimpleNamespace(
            code=done.returncode,
            out=done.stdout.decode("utf-8", "replace"),
            err=done.stderr.decode("utf-8", "replace"),
        )

    EXPECTED.write_text(
        json.dumps(expectation(_run, work / "logs", work / "store.db"), ensure_ascii=False, indent=1) + "\n",
        encoding="utf-8",
    )


def test_the_projections_json_is_json_dumps_compact_and_unescaped() -> None:
    """The ``matches`` and ``hands`` columns holding JSON are written by one encoder made once
    (``rows._jdump``): byte for byte ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from dominolog.store.rows import _jdump

    values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    )

    @settings(max_examples=300, deadline=None)
    @given(values)
    def same(value: Any) -> None:
        expected = None if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        assert _jdump(value) == expected

    same()
