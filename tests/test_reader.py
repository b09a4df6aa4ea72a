"""The JSON Lines reader: line numbers, matches, broken lines."""

from __future__ import annotations

from dominolog.log.reader import iter_matches
from dominolog.reducer import verify_match

START = b'{"type":"match_start","variant":"ghost13","players":["A","B"]}'


def _reports(data: bytes):
    return [verify_match(log) for log in iter_matches("f.jsonl", data)]


def test_blank_lines_are_ignored_but_counted_in_line_numbers():
    (r,) = _reports(START + b"\n\n   \n" + b'{"type":"bogus"}\n')
    assert [(v.line, v.seq, v.code) for v in r.violations] == [(4, 2, "malformed")]
    assert "unknown event type 'bogus'" in r.violations[0].message


def test_a_byte_order_mark_at_the_start_is_not_content():
    (r,) = _reports(b"\xef\xbb\xbf" + START + b"\n")
    assert r.valid and r.variant == "ghost13" and r.line == 1


def test_an_escaped_match_start_still_starts_a_match():
    escaped = b'{"type":"match\\u005fstart","variant":"ghost13","players":["C","D"]}'
    first, second = _reports(START + b"\n" + escaped + b"\n")
    assert first.players == ["A", "B"] and second.players == ["C", "D"] and second.line == 2


def test_lines_before_the_first_match_start_are_reported():
    orphan, match = _reports(b'{"type":"note","text":"x"}\nnot json\n' + START + b"\n")
    assert orphan.variant is None and not orphan.valid
    assert [(v.line, v.code) for v in orphan.violations] == [(1, "out-of-order"), (2, "malformed")]
    assert match.valid


def test_broken_lines_name_their_reason():
    data = (
        START + b"\n" + b"\xff\xfe\n" + b'{"type":"deal"\n' + b"[1]\n" + b'{"type":"play","player":"A","tile":"7-1"}\n'
    )
    (r,) = _reports(data)
    assert [(v.line, v.seq, v.code) for v in r.violations] == [
        (2, 2, "malformed"),
        (3, 3, "malformed"),
        (4, 4, "malformed"),
        (5, 5, "malformed"),
    ]
    messages = [v.message for v in r.violations]
    assert messages[0].startswith("not UTF-8") and messages[1].startswith("not JSON")
    assert "is not a tile" in messages[3]


def test_a_wrong_seq_is_malformed_but_the_event_counts():
    (r,) = _reports(START + b"\n" + b'{"type":"deal","seq":5,"leader":"A","hands":null}\n')
    assert [(v.seq, v.code) for v in r.violations] == [(2, "malformed")]
    assert "seq is 5" in r.violations[0].message
