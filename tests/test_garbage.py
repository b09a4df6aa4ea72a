"""Garbage in, clear answers out: random bytes, random JSON and events with random fields, written into
files and sent to ``record``. Whatever comes in, the command line exits 0, 1 or 2 (never 3, the
internal error), prints no traceback, and every event the store accepted is exported byte for byte;
the store's verdict on a match is the verdict on its exported file.

The commands run in-process through the console entry point ``dominolog.cli.main`` (the function the
installed script calls) for speed, and a few examples through the installed script itself."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.cli import main
from tests.conftest import run_cli

NAMES = ["Ana", "Ben", "Cy", "\x1b[2J", "[bold]x", "\ud800", "é" * 41, "", "Ana\x00"]
TILES = ["0-0", "1-2", "6-6", "5-3", "7-1", "a-b", "", "3-3"]

text = st.one_of(st.sampled_from(NAMES), st.text(max_size=8))
scalar = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False), text)
json_value = st.recursive(
    scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)),
    max_leaves=12,
)
field_value = st.one_of(json_value, st.sampled_from(TILES), st.sampled_from(NAMES))

event = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("match_start"), "variant": st.sampled_from(["ghost13", "double-draw", "nope"])},
        optional={
            "players": st.lists(st.sampled_from(NAMES), min_size=0, max_size=5),
            "id": text,
            "meta": st.dictionaries(text, st.one_of(text, json_value), max_size=3),
            "options": json_value,
        },
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["deal", "play", "pass", "draw", "reveal", "hand_end", "match_end", "note", "undo"])},
        optional={
            "player": st.sampled_from(NAMES),
            "leader": st.sampled_from(NAMES),
            "tile": st.sampled_from(TILES),
            "end": st.sampled_from(["left", "right", "3-3:N", "x"]),
            "hands": st.one_of(st.none(), st.dictionaries(st.sampled_from(NAMES), st.lists(st.sampled_from(TILES)))),
            "tiles": st.lists(st.sampled_from(TILES), max_size=3),
            "text": text,
            "points": st.dictionaries(st.sampled_from(NAMES), st.integers(-5, 300), max_size=2),
            "seq": st.integers(-1, 5),
            "hash": st.one_of(text, st.just("0" * 64)),
            "at": st.sampled_from(["2026-11-21T19:04:11Z", "yesterday"]),
            "bogus": json_value,
        },
    ),
    st.dictionaries(text, field_value, max_size=4),
)


def _as_line(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


line = st.one_of(
    event.map(_as_line),
    json_value.map(_as_line),
    st.binary(max_size=40).filter(lambda b: b"\n" not in b),
    st.sampled_from([b'{"type":"pass","player":"Ana","player":"Ben"}', b"\xff\xfe", b"{", b'"\\ud800"', b"[]"]),
)


def _main(*argv: str) -> tuple[int, str]:
    """``dominolog ARGV`` through the console entry point; (exit status, stdout + stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.argv
    sys.argv = ["dominolog", *argv]
    code: int | str | None = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as exc:
                code = exc.code
    finally:
        sys.argv = old
    text = out.getvalue() + err.getvalue()
    assert "Traceback" not in text
    assert isinstance(code, int | None), code
    return code or 0, text


def _export(db: Path, match_id: str) -> bytes:
    """The stored log of a match, as ``export --out`` writes it (bytes as stored)."""
    out = db.parent / "export.jsonl"
    code, said = _main("export", match_id, "--db", str(db), "--format", "jsonl", "--out", str(out))
    assert code == 0, said
    return out.read_bytes()


def _arg(data: bytes) -> str:
    """A line as the shell hands it to Python: bytes that are not UTF-8 as surrogate escapes."""
    return data.decode("utf-8", "surrogateescape")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(line, max_size=12))
def test_garbage_files_get_clear_answers(tmp_path_factory: Any, lines: list[bytes]) -> None:
    folder = tmp_path_factory.mktemp("garbage")
    path = folder / "g.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    for argv in (["verify", str(path)], ["verify", "--json", str(path)], ["show", str(path)]):
        code, _ = _main(*argv)
        assert code in (0, 1, 2), argv
    db = folder / "g.db"
    code, _ = _main("import", str(path), "--db", str(db))
    assert code in (0, 1, 2)
    if db.exists():
        _stored_matches_export_as_imported(db, path)


def _stored_matches_export_as_imported(db: Path, path: Path) -> None:
    code, listing = _main("list", "--db", str(db), "--json")
    assert code == 0, listing
    kept = [line.strip() for line in path.read_bytes().split(b"\n") if line.strip()]
    for m in json.loads(listing[listing.index("{") :])["matches"]:
        got = _export(db, m["id"])
        assert got, m["id"]
        for data in got.split(b"\n")[:-1]:  # lines end at \n only (a \r inside a line is part of it)
            assert data in kept


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(line, min_size=1, max_size=10), st.booleans())
def test_garbage_sent_to_append_is_refused_or_stored_exactly(
    tmp_path_factory: Any, lines: list[bytes], start_well: bool
) -> None:
    db = tmp_path_factory.mktemp("record") / "r.db"
    if start_well:
        lines = [b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"]}', *lines]
    accepted: list[bytes] = []
    for data in lines:
        code, said = _main("append", "m1", _arg(data), "--db", str(db))
        assert code in (0, 1, 2), said
        if code == 0:
            accepted.append(data.strip())
    if not accepted:
        return
    assert _export(db, "m1") == b"".join(a + b"\n" for a in accepted)
    # the store's verdict is the verdict on the exported file
    out = db.parent / "m1.jsonl"
    out.write_bytes(b"".join(a + b"\n" for a in accepted))
    stored, _ = _main("verify", "--db", str(db), "m1")
    exported_code, _ = _main("verify", str(out))
    assert stored == exported_code


def test_garbage_through_the_installed_script(tmp_path: Path) -> None:
    """The same promise from the real console script, on a file of every kind of garbage at once."""
    path = tmp_path / "g.jsonl"
    path.write_bytes(
        b"\n".join(
            [
                b"\xff\xfe\x00garbage",
                b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"hash":"\\ud800"}',
                b'{"type":"pass","player":"Ana","player":"Ben"}',
                b'{"type":"note","text":"\\u001b[2J\\u001b]0;pwned\\u0007"}',
                b"[1e999999]",
                b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"meta":{"k":"\\udfff"}}',
            ]
        )
        + b"\n"
    )
    for argv in (["verify", path], ["verify", "--json", path], ["show", path], ["import", path, "--db", "x.db"]):
        done = run_cli(*argv, cwd=tmp_path).no_traceback()
        assert done.code in (0, 1, 2), (argv, done.err)
    assert run_cli("append", "m", b"\xff\xfe", "--db", "x.db", cwd=tmp_path).no_traceback().code == 2
