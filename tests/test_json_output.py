"""JSON the tool writes for people and tools never carries a raw control character (issue 25): the C1
controls (U+0080-U+009F; U+009B is a terminal's one-character CSI) are escaped as ``\\u009b`` like the
C0 ones, the value unchanged. Event logs are not touched: the lines stay as they were written."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dominolog.jsontext import c1_escaped, dumps
from tests.conftest import ROOT, Ran

Cli = Callable[..., Ran]
#: a player name as a hostile log writes it: a CSI that would clear the screen, and a NEL
HOSTILE = "Cee\u009b2J\u0085"
C1_TEXT = re.compile("[\x80-\x9f]")
C1_BYTES = re.compile(b"\xc2[\x80-\x9f]")

#: text mixing what JSON escapes, what it does not, and the C1 controls around backslashes and quotes
TRICKY = ["\\", '"', "u", "0", "\x9b", "\x85", "\x80", "\x9f", "\xa0", "\x1b", "\x7f", "a", "é"]
tricky_text = st.text(alphabet=st.sampled_from(TRICKY))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text() | tricky_text,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=4) | tricky_text, kids, max_size=4),
    max_leaves=12,
)


@settings(max_examples=500, deadline=None)
@given(value=json_values, indent=st.sampled_from([None, 1, 2]))
def test_c1_escaping_changes_the_text_of_the_c1_controls_only(value: Any, indent: int | None) -> None:
    plain = json.dumps(value, indent=indent, ensure_ascii=False)
    text = dumps(value, indent=indent)
    assert text == c1_escaped(plain)
    assert json.loads(text) == value  # the same value
    assert C1_TEXT.search(text) is None
    # the text is json.dumps's with each C1 character, and only those, written as \u00XX
    assert C1_TEXT.sub(lambda m: f"\\u{ord(m.group()):04x}", plain) == text
    assert len(text) == len(plain) + 5 * len(C1_TEXT.findall(plain))


def test_c1_escaped_examples() -> None:
    assert dumps(f"hands.{HOSTILE}.[key]") == '"hands.Cee\\u009b2J\\u0085.[key]"'
    assert dumps("\\\x9b") == '"\\\\\\u009b"'  # an escaped backslash, then the CSI
    assert dumps("\x1b\x7f\xa0") == '"\\u001b\x7f\xa0"'  # C0 as JSON escapes it; DEL and U+00A0 stay


def _hostile_log(tmp_path: Path) -> Path:
    """A Ghost 13 match whose second deal names a player HOSTILE (a malformed event, with the name in
    its message), whose meta and a note hold it, in a file whose name holds it too."""
    src = [json.loads(line) for line in (ROOT / "replays/ghost13-tabletop-hidden.jsonl").read_text().splitlines()]
    start = {k: v for k, v in src[0].items() if k not in ("hash", "seq")}
    start |= {"id": "hostile-1", "meta": {"event": f"club {HOSTILE}"}}
    body = [{k: v for k, v in e.items() if k not in ("hash", "seq")} for e in src[1:]]
    body[1:1] = [
        {"type": "note", "text": f"note {HOSTILE}"},
        {"type": "deal", "leader": "Ana", "hands": {HOSTILE: None}},
    ]
    path = tmp_path / "table\u009b.jsonl"
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in [start, *body]), encoding="utf-8")
    return path


def _document(done: Ran) -> Any:
    """The JSON a command printed: no raw C1 control in its bytes, and read back."""
    assert C1_BYTES.search(done.stdout) is None, done.stdout[:2000]
    return json.loads(done.stdout)


def test_every_json_document_escapes_the_c1_controls_of_a_hostile_name(cli: Cli, tmp_path: Path) -> None:
    path = _hostile_log(tmp_path)
    db = tmp_path / "s.db"
    assert cli("import", path, "--db", db).code == 0
    message = f"deal: hands.{HOSTILE}.[key]: 'Cee\\x9b2J\\x85' holds a control character"

    verified = cli("verify", "--json", path)
    assert verified.code == 1
    assert b'"message": "deal: hands.Cee\\u009b2J\\u0085.[key]: ' in verified.stdout  # as the C0 ones are
    (match,) = _document(verified)["matches"]
    assert match["source"] == str(path)
    assert [v["message"] for v in match["violations"]] == [message]

    from_store = ("--db", db, "hostile-1")
    for exported in (cli("export", path, "--format", "json"), cli("export", *from_store, "--format", "json")):
        assert exported.code == 0
        assert [v["message"] for v in _document(exported)["matches"][0]["violations"]] == [message]

    for audited in (cli("audit", path, "--format", "json"), cli("audit", *from_store, "--format", "json")):
        assert audited.code == 1
        assert [f["message"] for f in _document(audited)["findings"]] == [message]

    listed = cli("list", "--db", db, "--json")
    assert listed.code == 0
    assert _document(listed)["matches"][0]["meta"]["event"] == f"club {HOSTILE}"

    analysed = cli("analyze", path, "--hand", 1, "--format", "json")
    assert analysed.code == 0, analysed.err
    assert _document(analysed)["source"] == str(path)

    standings = cli("standings", path, "--format", "json")
    assert standings.code == 0
    _document(standings)


def test_the_event_log_keeps_its_lines_as_written(cli: Cli, tmp_path: Path) -> None:
    """The log is the record: a stored line and its export are the bytes of the file, C1 controls raw."""
    path = _hostile_log(tmp_path)
    db = tmp_path / "s.db"
    assert cli("import", path, "--db", db).code == 0
    exported = cli("export", "--db", db, "hostile-1", "--format", "jsonl")
    assert exported.code == 0
    assert exported.stdout == path.read_bytes()
    assert HOSTILE.encode() in exported.stdout
