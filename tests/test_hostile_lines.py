"""Hostile lines (issue 11, section 2): each case is a clear `malformed` naming file, line and seq, exit 1,
the rest of the file still checked, output and memory bounded. Through the installed console script."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominolog.log.reader import MAX_LINE_BYTES, MAX_MATCH_EVENTS, decode_line, iter_matches
from dominolog.reducer import reduce_match
from tests.conftest import Ran, clean_env, console_script
from tests.helpers import to_bytes

Cli = Callable[..., Ran]
START = b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"]}'
GOOD_MATCH = b'{"type":"match_start","variant":"ghost13","players":["Cy","Di"],"id":"fine"}'


def _file(tmp_path: Path, *lines: bytes, name: str = "h.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _verify_json(cli: Cli, path: Path) -> list[dict]:
    done = cli("verify", "--json", path)
    assert done.code == 1, done.err
    return json.loads(done.out)["matches"]


# -- lone surrogates -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "where"),
    [
        (b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"hash":"\\ud800"}', "hash"),
        (b'{"type":"match_start","variant":"ghost13","players":["Ana","B\\ud800"]}', "players[1]"),
        (b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"x\\udfff"}', "id"),
        (b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"meta":{"k\\ud800":""}}', "a key of meta"),
        (b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"meta":{"k":"\\udfff"}}', "meta.k"),
    ],
)
def test_a_lone_surrogate_is_malformed_at_its_line_and_the_next_match_is_checked(
    cli: Cli, tmp_path: Path, line: bytes, where: str
) -> None:
    path = _file(tmp_path, line, b'{"type":"note","text":"after"}', GOOD_MATCH)
    first, second = _verify_json(cli, path)
    assert first["valid"] is False
    assert first["violations"][0]["line"] == 1 and first["violations"][0]["seq"] == 1
    assert first["violations"][0]["code"] == "malformed"
    assert first["violations"][0]["message"] == f"not valid Unicode text: a lone surrogate in {where}"
    assert second["valid"] is True and second["players"] == ["Cy", "Di"]
    human = cli("verify", path)
    assert human.code == 1
    assert f"h.jsonl:1: seq 1: malformed: not valid Unicode text: a lone surrogate in {where}" in human.out
    db = tmp_path / "s.db"
    stored = cli("import", path, "--db", db)
    assert stored.code in (0, 1)
    assert "fine" in cli("list", "--db", db).out


def test_a_lone_surrogate_in_a_note_of_a_match_is_one_malformed_line(cli: Cli, tmp_path: Path) -> None:
    path = _file(tmp_path, START, b'{"type":"note","text":"\\ud83d oops"}')
    (m,) = _verify_json(cli, path)
    assert [(v["seq"], v["code"], v["message"]) for v in m["violations"]] == [
        (2, "malformed", "not valid Unicode text: a lone surrogate in text")
    ]


# -- duplicate keys -----------------------------------------------------------------------------------------


def test_a_key_written_twice_is_malformed_and_changes_the_head(cli: Cli, tmp_path: Path) -> None:
    honest = _file(tmp_path, START, b'{"type":"note","text":"6-6"}', name="honest.jsonl")
    twice = _file(tmp_path, START, b'{"type":"note","text":"1-2","text":"6-6"}', name="twice.jsonl")
    (h,) = json.loads(cli("verify", "--json", honest).out)["matches"]
    (t,) = _verify_json(cli, twice)
    assert [(v["line"], v["seq"], v["code"], v["message"]) for v in t["violations"]] == [
        (2, 2, "malformed", "the key 'text' is written twice in one object")
    ]
    assert h["head"] != t["head"]


def test_a_key_twice_deep_inside_is_found_and_colons_in_strings_are_not_keys() -> None:
    deep = b'{"type":"deal","leader":"Ana","hands":{"Ana":null,"Ana":null}}'
    assert decode_line(deep, 1, 1).error == "the key 'Ana' is written twice in one object"
    timed = b'{"type":"note","text":"a:b:c","at":"2026-11-21T19:04:11Z"}'
    assert decode_line(timed, 1, 1).error is None


#: texts for keys and values: colons, backslashes, escapes that spell a colon or a quote, non-ASCII
_PIECES = st.text(st.sampled_from('ab:"\\/é\u2028'), max_size=6)
_PIECE_VALUES = _PIECES | st.integers(-(2**63), 2**63 - 1) | st.none() | st.booleans()


def _spelled(text: str, rng: random.Random) -> str:
    """``text`` as a JSON string, a colon sometimes spelled ``\\u003a`` or ``\\u003A``, or escaped as is."""
    out = json.dumps(text, ensure_ascii=rng.random() < 0.5)
    return out.replace(":", rng.choice([":", "\\u003a", "\\u003A"])) if rng.random() < 0.5 else out


@settings(max_examples=300, deadline=None)
@given(
    pairs=st.lists(st.tuples(_PIECES, _PIECE_VALUES), min_size=1, max_size=6),
    hash_text=st.none() | _PIECES | st.just("0" * 64),
    again=st.integers(0, 6),
    seed=st.integers(0, 2**16),
)
def test_a_key_written_twice_is_found_whatever_the_line_spells(
    pairs: list[tuple[str, Any]], hash_text: str | None, again: int, seed: int
) -> None:
    """The colon count's shortcut never hides a key written twice: a line with one repeated key (the hash
    key among them, colons in keys, values and the hash, colons spelled as escapes) is always malformed."""
    rng = random.Random(seed)
    items = [("type", "note"), *pairs] + ([("hash", hash_text)] if hash_text is not None else [])
    items = list({k: v for k, v in items}.items())  # each key once: the honest line
    key, value = items[again % len(items)]
    twice = [*items[:1], (key, value), *items[1:]] if rng.random() < 0.5 else [*items, (key, value)]

    def line(written: list[tuple[str, Any]]) -> bytes:
        parts = [f"{_spelled(k, rng)}:{_spelled(v, rng) if isinstance(v, str) else json.dumps(v)}" for k, v in written]
        return ("{" + ",".join(parts) + "}").encode()

    assert "written twice" not in (decode_line(line(items), 1, 1).error or "")
    error = decode_line(line(twice), 1, 1).error or ""
    assert error.startswith("the key ") and error.endswith("is written twice in one object"), error


# -- the limits of the format --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"players": ["Ana", "B" * 41]}, "match_start: players.1: 41 characters, at most 40 allowed"),
        ({"id": "i" * 101}, "match_start: id: 101 characters, at most 100 allowed"),
        ({"meta": {"k" * 41: "v"}}, "match_start: meta.kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk.[key]: 41 characters"),
        ({"meta": {"k": "v" * 501}}, "match_start: meta.k: 501 characters, at most 500 allowed"),
        ({"meta": {f"k{i}": "v" for i in range(51)}}, "match_start: meta: 51 entries, at most 50 allowed"),
        ({"players": ["Ana", "Ben\x1b[2J"]}, "match_start: players.1: 'Ben\\x1b[2J' holds a control character"),
        ({"id": "club\x9b1"}, "match_start: id: 'club\\x9b1' holds a control character"),
    ],
)
def test_the_limits_of_match_start(cli: Cli, tmp_path: Path, event: dict, message: str) -> None:
    start = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], **event}
    path = _file(tmp_path, json.dumps(start).encode())
    (m,) = _verify_json(cli, path)
    (v,) = m["violations"]
    assert (v["line"], v["seq"], v["code"]) == (1, 1, "malformed")
    assert v["message"].startswith(message)
    assert "\x1b" not in cli("verify", path).out


def test_a_note_longer_than_2000_characters_is_malformed(cli: Cli, tmp_path: Path) -> None:
    path = _file(tmp_path, START, json.dumps({"type": "note", "text": "n" * 2001}).encode())
    (m,) = _verify_json(cli, path)
    assert [(v["seq"], v["message"]) for v in m["violations"]] == [
        (2, "note: text: 2,001 characters, at most 2,000 allowed")
    ]


def test_a_line_longer_than_one_mib_is_malformed_without_being_read(cli: Cli, tmp_path: Path) -> None:
    big = json.dumps({"type": "note", "text": "x" * (MAX_LINE_BYTES + 10)}).encode()
    path = _file(tmp_path, START, big, b'{"type":"note","text":"still read"}')
    (m,) = _verify_json(cli, path)
    assert [(v["line"], v["seq"], v["code"]) for v in m["violations"]] == [(2, 2, "malformed")]
    assert m["violations"][0]["message"] == (
        f"the line is {len(big):,} bytes long; a line may hold at most {MAX_LINE_BYTES:,} (1 MiB)"
    )
    assert m["events"] == 3
    (log,) = iter_matches(path)
    assert len(log.records[1].data) <= 200 and log.records[1].truncated


def test_a_twenty_megabyte_name_is_one_short_message(cli: Cli, tmp_path: Path) -> None:
    name = "N" * 20_000_000
    start = json.dumps({"type": "match_start", "variant": "ghost13", "players": ["Ana", name]}).encode()
    passes = [b'{"type":"pass","player":"Ana"}'] * 200
    path = _file(tmp_path, start, *passes)
    done = cli("verify", path)
    assert done.code == 1
    assert len(done.stdout) < 40_000
    as_json = cli("verify", "--json", path)
    assert len(as_json.stdout) < 200_000


def test_a_deal_naming_sixty_thousand_players_gives_a_short_report(cli: Cli, tmp_path: Path) -> None:
    for count, message in [
        (60_000, "the line is 1,248,934 bytes long; a line may hold at most 1,048,576 (1 MiB)"),
        (30_000, "deal: hands: 30,000 entries, at most 4 allowed"),
    ]:
        hands = {f"player{i}": None for i in range(count)}
        deal = json.dumps({"type": "deal", "leader": "Ana", "hands": hands}).encode()
        path = _file(tmp_path, START, deal)
        (m,) = _verify_json(cli, path)
        assert [(v["seq"], v["message"]) for v in m["violations"]] == [(2, message)]
        assert len(cli("verify", "--json", path).stdout) < 5_000


def _peak_rss_mib(*args: object, cwd: Path) -> tuple[int, int]:
    """Exit status and peak memory (MiB) of ``dominolog ARGS`` run alone in a fresh process."""
    probe = (
        "import resource, subprocess, sys;"
        "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode;"
        "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, console_script(), *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=600,
        check=True,
    )
    code, peak = done.stdout.split()
    return int(code), int(peak)


def test_a_million_events_in_one_hand_are_cut_at_the_limit_with_bounded_memory(tmp_path: Path) -> None:
    deal = b'{"type":"deal","leader":"Ana","hands":null}'
    path = tmp_path / "long.jsonl"
    with path.open("wb") as fh:
        fh.write(START + b"\n" + deal + b"\n")
        fh.write(b'{"type":"pass","player":"Ana"}\n' * 1_000_000)
        fh.write(GOOD_MATCH + b"\n")
    code, peak = _peak_rss_mib("verify", path, cwd=tmp_path)
    assert code == 1
    assert peak < 400, f"verify of a 10^6-event hand peaked at {peak} MiB"
    first, second = iter_matches(path)
    assert len(first.records) == MAX_MATCH_EVENTS + 1
    last = first.records[-1]
    assert last.seq == MAX_MATCH_EVENTS + 1 and last.truncated
    assert last.error == (
        f"a match holds at most {MAX_MATCH_EVENTS:,} events: "
        f"lines {MAX_MATCH_EVENTS + 1}-1000002 (900,002 lines) not read"
    )
    assert second.records[0].obj["id"] == "fine"


def test_the_limit_on_events_is_one_malformed_line_in_the_report() -> None:
    passes = [{"type": "pass", "player": "Ana"}] * (MAX_MATCH_EVENTS + 5)
    data = to_bytes([{"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"]}, *passes])
    (log,) = iter_matches("x.jsonl", data)
    report = reduce_match(log).report()
    tail = [v for v in report.violations if v.seq > MAX_MATCH_EVENTS]
    assert [(v.seq, v.code) for v in tail] == [(MAX_MATCH_EVENTS + 1, "malformed")]


def test_a_megabyte_of_random_bytes_gets_a_bounded_report(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "fuzz.jsonl"
    path.write_bytes(random.Random(11).randbytes(1 << 20))
    done = cli("verify", path)
    assert done.code == 1
    assert all(
        line.startswith(("fuzz.jsonl:", "INVALID", "1 match")) or "fuzz.jsonl" in line for line in done.out.splitlines()
    )
    assert len(done.stdout) < 2_000_000
    shown = cli("show", path)
    assert shown.code == 1


def test_an_empty_folder_is_a_usage_error(cli: Cli, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    done = cli("verify", empty)
    assert done.code == 2
    assert done.err == f"dominolog: {empty}: no .jsonl or .dn files in the folder\n"
