"""The ``dominolog`` command line, through Typer's CliRunner: exit codes, output shapes, messages."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dominolog.build_info import described
from dominolog.cli import app
from dominolog.log.writer import dump_line
from dominolog.schema import render, schema_documents
from dominolog.simulate import simulate_match
from tests.conftest import console_script
from tests.ghost13_scenarios import DIRECT_ANA, DIRECT_BEN, DIRECT_PLAYS, HIGH, LOW, direct_hand
from tests.helpers import deal, hand_end, match_log, pass_, to_bytes

runner = CliRunner()

FORMAT_KEYS = [
    "source",
    "line",
    "variant",
    "players",
    "valid",
    "complete",
    "violations",
    "unverified",
    "hands",
    "totals",
    "winner",
    "head",
]
MATCH_END = {"type": "match_end", "totals": {"Ana": 0, "Ben": 124}, "winner": "Ben"}
# One hand: Ben locks the 6-6 line at seq 12 (direct aggressor, 28 pips against Ana's 62) and scores 2 x 62.
WON_BY_BEN = match_log([*direct_hand(HIGH, LOW), hand_end({"Ana": 0, "Ben": 124}, "Ben"), MATCH_END])


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def write(path: Path, events: list[dict[str, Any]]) -> Path:
    path.write_bytes(to_bytes(events))
    return path


def no_traceback(result: Any) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def matches_of(result: Any) -> list[dict[str, Any]]:
    doc = json.loads(result.stdout)
    assert list(doc) == ["build", "matches"]
    assert doc["build"] == described()  # the program that checked, as --version names it
    return doc["matches"]


# -- verify: exit codes --------------------------------------------------------------------------


def test_verify_a_valid_file_exits_0(tmp_path: Path) -> None:
    path = write(tmp_path / "good.jsonl", WON_BY_BEN)
    result = invoke("verify", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        f"OK {path}:1 ghost13 Ana vs Ben | 1 hand, totals Ana 0, Ben 124, winner Ben | complete | head "
    )
    assert lines[1:] == ["1 matches: 1 valid, 0 invalid"]


def test_verify_a_file_with_violations_exits_1(tmp_path: Path) -> None:
    events = match_log([*direct_hand(HIGH, LOW), hand_end({"Ana": 0, "Ben": 100}, "Ben"), MATCH_END])
    path = write(tmp_path / "claims.jsonl", events)
    result = invoke("verify", str(path))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"INVALID {path}:1 ghost13 Ana vs Ben | 1 hand, totals Ana 0, Ben 124, winner Ben")
    assert lines[1] == (
        f"{path}:13: seq 13: score-mismatch: hand 1 (block, aggressor Ben): claimed Ana 0, Ben 100; "
        "the rules give Ana 0, Ben 124"
    )
    assert lines[2:] == ["1 matches: 0 valid, 1 invalid"]


def test_verify_a_missing_path_exits_2_with_a_message(tmp_path: Path) -> None:
    good = write(tmp_path / "good.jsonl", WON_BY_BEN)
    missing = tmp_path / "nope.jsonl"
    result = invoke("verify", str(good), str(missing))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"dominolog: {missing}: no such file or folder\n"
    no_traceback(result)


def test_verify_without_arguments_is_a_usage_error() -> None:
    result = invoke("verify")
    assert result.exit_code == 2
    assert "give log files or folders to verify, or --db PATH for the store" in result.stderr
    no_traceback(result)


# -- verify: output ---------------------------------------------------------------------------------


def test_verify_json_has_the_shape_of_format_md(tmp_path: Path) -> None:
    bad = match_log([*direct_hand(HIGH, LOW), hand_end({"Ana": 0, "Ben": 100}, "Ben"), MATCH_END])
    path = write(tmp_path / "claims.jsonl", bad)
    result = invoke("verify", "--json", str(path))
    assert result.exit_code == 1
    (m,) = matches_of(result)
    assert list(m)[: len(FORMAT_KEYS)] == FORMAT_KEYS
    assert m["source"] == str(path) and m["line"] == 1
    assert (m["variant"], m["players"], m["valid"], m["complete"]) == ("ghost13", ["Ana", "Ben"], False, True)
    assert [list(v) for v in m["violations"]] == [["seq", "line", "code", "message"]]
    assert [(v["seq"], v["line"], v["code"]) for v in m["violations"]] == [(13, 13, "score-mismatch")]
    assert m["unverified"] == []
    (h,) = m["hands"]
    assert list(h)[:4] == ["number", "end", "winner", "points"]
    assert (h["number"], h["end"], h["winner"], h["points"]) == (1, "block", "Ben", {"Ana": 0, "Ben": 124})
    assert (m["totals"], m["winner"]) == ({"Ana": 0, "Ben": 124}, "Ben")
    assert re.fullmatch(r"[0-9a-f]{64}", m["head"])


def test_verify_json_lists_unverified_rules_without_making_the_match_invalid(tmp_path: Path) -> None:
    # recorded with hidden hands and no reveals: the lock is sure, the points are the table's claim
    tabletop = match_log([deal("Ana", None), *DIRECT_PLAYS, pass_("Ana"), pass_("Ben")])
    tabletop += [hand_end({"Ana": 0, "Ben": 124}, "Ben"), MATCH_END]
    path = write(tmp_path / "tabletop.jsonl", tabletop)
    result = invoke("verify", "--json", str(path))
    assert result.exit_code == 0
    (m,) = matches_of(result)
    assert (m["valid"], m["complete"], m["violations"]) == (True, True, [])
    assert [list(u) for u in m["unverified"]] == [["seq", "line", "code", "message"]]
    assert [(u["seq"], u["line"], u["code"]) for u in m["unverified"]] == [(15, 15, "score-mismatch")]
    assert [(h["end"], h["winner"], h["points"]) for h in m["hands"]] == [("block", "Ben", {"Ana": 0, "Ben": 124})]
    text = invoke("verify", str(path))
    assert text.exit_code == 0
    assert text.stdout.splitlines()[1] == "  1 rule not checkable: hidden tiles (--verbose lists them)"
    assert text.stdout.splitlines()[-1] == "1 matches: 1 valid, 0 invalid; 1 rules unverified (hidden tiles)"
    verbose = invoke("verify", "--verbose", str(path))
    assert verbose.stdout.splitlines()[1].startswith(f"{path}:15: seq 15: unverified score-mismatch: ")


def test_verify_a_folder_checks_every_jsonl_in_it(tmp_path: Path) -> None:
    write(tmp_path / "b.jsonl", match_log([*direct_hand(HIGH, LOW), hand_end({"Ben": 1}), MATCH_END]))
    write(tmp_path / "a.jsonl", WON_BY_BEN)
    (tmp_path / "notes.txt").write_text("not a log\n")
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub" / "c.jsonl", WON_BY_BEN)
    result = invoke("verify", "--json", str(tmp_path))
    assert result.exit_code == 1
    got = [(m["source"], m["valid"]) for m in matches_of(result)]
    assert got == [(str(tmp_path / "a.jsonl"), True), (str(tmp_path / "b.jsonl"), False)]


def _many_problems(tmp_path: Path) -> tuple[Path, int]:
    """A match with one of each problem (and a blank line, so lines and seqs differ), then a good match."""
    start, first_deal, *plays = (dump_line(e).encode() for e in match_log(direct_hand(LOW, HIGH)))
    second_deal = deal("Ana", {"Ana": DIRECT_ANA + HIGH, "Ben": DIRECT_BEN + LOW})
    lines = [
        start,  # line 1, seq 1
        b"",  # line 2: blank, ignored
        first_deal,  # line 3, seq 2
        plays[0],  # line 4, seq 3: Ana 6-6
        b"\xff\xfe not UTF-8",  # line 5, seq 4
        b"this is not JSON",  # line 6, seq 5
        b'{"type":"shuffle","player":"Ana"}',  # line 7, seq 6
        b'{"type":"play","player":"Zed","tile":"6-1","end":"left"}',  # line 8, seq 7
        b'{"type":"play","player":"Ben","tile":"7-1","end":"left"}',  # line 9, seq 8
        *plays[1:],  # lines 10-18, seq 9-17: the lock at seq 17 (Ana wins 90)
        b'{"type":"play","player":"Ana","tile":"0-2","end":"left"}',  # line 19, seq 18
        dump_line(second_deal).encode(),  # line 20, seq 19: no hand_end before it
        b'{"type":"match_end","reason":"abandoned"}',  # line 21, seq 20
    ]
    path = tmp_path / "many.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n" + to_bytes(simulate_match("ghost13", 1)))
    return path, len(lines) + 1


MANY_PROBLEMS = [
    (5, 4, "malformed", "not UTF-8 (bad byte at column 1)"),
    (6, 5, "malformed", "not JSON: "),
    (7, 6, "malformed", "unknown event type 'shuffle'"),
    (8, 7, "malformed", "play: unknown player 'Zed'"),
    (9, 8, "malformed", "play: tile: '7-1' is not a tile of the double-six set"),
    (19, 18, "out-of-order", "play after hand 1 was over (block at seq 17)"),
    (20, 19, "out-of-order", "hand 1 ended without a hand_end before this deal"),
]


def test_each_problem_is_named_with_file_line_and_seq_and_the_check_goes_on(tmp_path: Path) -> None:
    path, second_line = _many_problems(tmp_path)
    result = invoke("verify", str(path))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"INVALID {path}:1 ghost13 Ana vs Ben | 2 hands, totals Ana 90, Ben 0, winner none")
    problems = lines[1 : 1 + len(MANY_PROBLEMS)]
    for text, (line, seq, code, start) in zip(problems, MANY_PROBLEMS, strict=True):
        assert text.startswith(f"{path}:{line}: seq {seq}: {code}: {start}"), text
    pattern = re.compile(rf"{re.escape(str(path))}:(\d+): seq (\d+): ([a-z-]+): \S.*")
    assert all(pattern.fullmatch(text) for text in problems)
    # the second match of the file is still checked, from its own line
    assert lines[1 + len(MANY_PROBLEMS)].startswith(f"OK {path}:{second_line} ghost13 Ana vs Ben | ")
    assert lines[2 + len(MANY_PROBLEMS) :] == ["2 matches: 1 valid, 1 invalid"]


def test_each_problem_in_json_too(tmp_path: Path) -> None:
    path, second_line = _many_problems(tmp_path)
    result = invoke("verify", "--json", str(path))
    assert result.exit_code == 1
    first, second = matches_of(result)
    assert [(v["line"], v["seq"], v["code"]) for v in first["violations"]] == [p[:3] for p in MANY_PROBLEMS]
    assert [(h["number"], h["end"], h["winner"], h["points"]) for h in first["hands"]] == [
        (1, "block", "Ana", {"Ana": 90, "Ben": 0}),
        (2, "abandoned", None, {"Ana": 0, "Ben": 0}),
    ]
    assert (first["complete"], first["totals"], first["winner"]) == (True, {"Ana": 90, "Ben": 0}, None)
    assert (second["line"], second["valid"], second["complete"]) == (second_line, True, True)
    assert (second["totals"], second["winner"]) == ({"Ana": 107, "Ben": 8}, "Ana")


def test_an_unfinished_match_is_valid_but_incomplete(tmp_path: Path) -> None:
    path = write(tmp_path / "live.jsonl", WON_BY_BEN[:8])
    result = invoke("verify", "--json", str(path))
    assert result.exit_code == 0
    (m,) = matches_of(result)
    assert (m["valid"], m["complete"], m["hands"], m["winner"]) == (True, False, [], None)


# -- simulate -------------------------------------------------------------------------------------------


def test_simulate_writes_a_file_that_verifies_clean(tmp_path: Path) -> None:
    out = tmp_path / "sim.jsonl"
    result = invoke("simulate", "--matches", "3", "--seed", "5", "--out", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    checked = invoke("verify", "--json", str(out))
    assert checked.exit_code == 0
    reports = matches_of(checked)
    assert len(reports) == 3
    assert all(m["valid"] and m["complete"] and not m["unverified"] for m in reports)
    assert all(max(m["totals"].values()) >= 100 for m in reports)


def test_simulate_same_seed_same_bytes(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    for path, seed in ((a, "9"), (b, "9"), (c, "10")):
        assert invoke("simulate", "--matches", "2", "--seed", seed, "--out", str(path)).exit_code == 0
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    assert invoke("simulate", "--matches", "2", "--seed", "9").stdout.encode() == a.read_bytes()


def test_simulate_into_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    out = tmp_path / "no" / "sim.jsonl"
    result = invoke("simulate", "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr == f"dominolog: {out}: cannot write: No such file or directory\n"
    no_traceback(result)


def test_simulate_rejects_an_unknown_variant() -> None:
    result = invoke("simulate", "--variant", "canasta")
    assert result.exit_code == 2
    assert "unknown or not yet supported variant 'canasta'" in result.stderr
    no_traceback(result)


@pytest.mark.parametrize(
    ("args", "players", "options"),
    [
        (["--variant", "brettspielnetz"], ["Ana", "Ben"], None),
        (["--variant", "brettspielnetz", "--option", "draw_limit=null"], ["Ana", "Ben"], {"draw_limit": None}),
        (["--variant", "double-draw", "--players", "3"], ["Ana", "Ben", "Cleo"], None),
        (
            ["--variant", "double-draw", "--players", "4", "--option", "partners=true", "--option", "target=61"],
            ["Ana", "Ben", "Cleo", "Dev"],
            {"partners": True, "target": 61},
        ),
    ],
)
def test_simulate_any_variant_players_and_options(
    tmp_path: Path, args: list[str], players: list[str], options: Any
) -> None:
    result = invoke("simulate", "--seed", "3", *args)
    assert result.exit_code == 0, result.stderr
    start = json.loads(result.stdout.splitlines()[0])
    assert start["players"] == players and start.get("options") == options
    path = tmp_path / "sim.jsonl"
    path.write_text(result.stdout)
    (m,) = matches_of(invoke("verify", "--json", str(path)))
    assert m["valid"] and m["complete"] and not m["unverified"]


def test_simulate_hide_writes_what_a_recorder_sees_and_scores_the_same(tmp_path: Path) -> None:
    full, hidden, own = tmp_path / "full.jsonl", tmp_path / "hidden.jsonl", tmp_path / "own.jsonl"
    common = ["simulate", "--variant", "double-draw", "--players", "3", "--seed", "4"]
    assert invoke(*common, "--out", str(full)).exit_code == 0
    assert invoke(*common, "--hide", "--out", str(hidden)).exit_code == 0
    assert invoke(*common, "--viewer", "Cleo", "--out", str(own)).exit_code == 0
    events = [json.loads(line) for line in hidden.read_text().splitlines()]
    assert all(e["hands"] is None for e in events if e["type"] == "deal")
    assert all(e["tile"] is None for e in events if e["type"] == "draw")
    assert any(e["type"] == "reveal" for e in events)
    mine = [json.loads(line) for line in own.read_text().splitlines()]
    assert all(list(e["hands"]) == ["Cleo"] for e in mine if e["type"] == "deal")
    assert all((e["tile"] is None) == (e["player"] != "Cleo") for e in mine if e["type"] == "draw")
    reports = [matches_of(invoke("verify", "--json", str(p)))[0] for p in (full, hidden, own)]
    assert all(r["valid"] for r in reports)
    assert reports[0]["hands"] == reports[1]["hands"] == reports[2]["hands"]
    assert not any(v["message"].startswith("Cleo ") for v in reports[2]["unverified"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "double-draw", "--players", "3", "--option", "partners=true"], "'partners' needs 4 players"),
        (["--variant", "ghost13", "--players", "3"], "ghost13 is played by 2 players, not 3"),
        (["--option", "target"], "--option wants KEY=VALUE"),
        (["--option", "colour=red"], "unknown option 'colour' for ghost13"),
        (["--hide", "--viewer", "Zoe"], "--viewer 'Zoe' is not a player"),
    ],
)
def test_simulate_bad_players_options_or_viewer_are_clear_errors(args: list[str], message: str) -> None:
    result = invoke("simulate", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    no_traceback(result)


# -- show -------------------------------------------------------------------------------------------------


def test_show_at_a_seq_prints_the_table_the_hands_and_the_scores(tmp_path: Path) -> None:
    path = write(tmp_path / "m.jsonl", WON_BY_BEN)
    result = invoke("show", str(path), "--at", "7")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"{path}: match 1 of 1, line 1",
        "at seq 7 (line 7): play Ana 2-3 right",
        "ghost13: Ana vs Ben; target: 100 (default)",
        "",
        "Hand 1: leader Ana",
        "  turn: Ben",
        "  table, 5 tiles  (left 0, right 3):",
        "    [0|1][1|6][6|6][6|2][2|3]",
        "  Ana (11): 1-5 2-2 2-4 2-5 3-3 3-4 3-5 3-6 4-4 4-5 5-5",
        "  Ben (12): 0-0 0-2 0-3 0-4 0-5 0-6 1-1 1-2 1-3 1-4 4-6 5-6  <- on move",
        "",
        "scores: Ana 0, Ben 0",
    ]


def test_show_a_draw_game_prints_the_start_tile_the_boneyard_and_the_unknown_tiles() -> None:
    replay = Path(__file__).resolve().parent.parent / "replays" / "brettspielnetz-tabletop-hidden.jsonl"
    result = invoke("show", str(replay), "--at", "28")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1:14] == [
        "at seq 28 (line 28): draw Ana 5-5",
        "brettspielnetz: Ana vs Ben; hands: 4 (default), draw_limit: 3 (default)",
        "",
        "Hand 2: leader Ben",
        "  start tile: 2-4",
        "  turn: Ana",
        "  table, 10 tiles  (left 4, right 3):",
        "    [4|6][6|5][5|1][1|0][0|3][3|5][5|2][2|4][4|3][3|3]",
        "  Ana (4): 0-2 2-6 5-5 6-6  <- on move",
        "  Ben (2): 2 unknown tiles",
        "  boneyard, 12 tiles (not seen)",
        "  Ana has drawn 1 this turn",
        "  not yet seen (14, in hidden hands or the boneyard): 0-0 0-4 0-5 0-6 1-1 1-2 1-3 1-4 1-6 2-2 2-3 3-6 4-4 4-5",
    ]


def test_show_after_the_lock_and_at_the_end(tmp_path: Path) -> None:
    path = write(tmp_path / "m.jsonl", WON_BY_BEN)
    locked = invoke("show", str(path), "--at", "12").stdout.splitlines()
    assert "  over: block (seq 12)" in locked
    assert "    [6|5][5|4][4|6][6|0][0|1][1|6][6|6][6|2][2|3][3|6]" in locked
    end = invoke("show", str(path))
    assert end.exit_code == 0
    assert end.stdout.splitlines()[1:] == [
        "at seq 14 (line 14): match_end",
        "ghost13: Ana vs Ben; target: 100 (default)",
        "",
        "the match is over",
        "",
        "hand 1: block, aggressor Ben, winner Ben: Ana 0, Ben 124",
        "scores: Ana 0, Ben 124",
        "match winner: Ben",
    ]


@pytest.mark.parametrize(
    ("variant", "players", "options", "header"),
    [
        ("ghost13", "Ana Ben", None, "ghost13: Ana vs Ben; target: 100 (default)"),
        ("ghost13", "Ana Ben", {"target": 250}, "ghost13: Ana vs Ben; target: 250"),
        ("brettspielnetz", "Ana Ben", {}, "brettspielnetz: Ana vs Ben; hands: 4 (default), draw_limit: 3 (default)"),
        (
            "brettspielnetz",
            "Ana Ben",
            {"draw_limit": None},
            "brettspielnetz: Ana vs Ben; hands: 4 (default), draw_limit: no limit",
        ),
        (
            "brettspielnetz",
            "Ana Ben",
            {"hands": 2, "draw_limit": 5},
            "brettspielnetz: Ana vs Ben; hands: 2, draw_limit: 5",
        ),
        ("double-draw", "Ana Ben", None, "double-draw: Ana vs Ben; partners: no (default), target: 100 (default)"),
        (
            "double-draw",
            "Ana Ben Cleo Dev",
            None,
            "double-draw: Ana vs Ben vs Cleo vs Dev; partners: no (default), target: 61 (default)",
        ),
        (
            "double-draw",
            "Ana Ben Cleo Dev",
            {"partners": True},
            "double-draw: Ana vs Ben vs Cleo vs Dev; partners: yes, target: 100 (default)",
        ),
        (
            "double-draw",
            "Ana Ben Cleo",
            {"partners": False, "target": None},
            "double-draw: Ana vs Ben vs Cleo; partners: no, target: 61 (default)",
        ),
        (
            "double-draw",
            "Ana Ben Cleo",
            {"target": 80},
            "double-draw: Ana vs Ben vs Cleo; partners: no (default), target: 80",
        ),
        ("39", "Ana Ben", None, "39: Ana vs Ben; hands: 5 (default)"),
        ("39", "Ana Ben", {"hands": 3}, "39: Ana vs Ben; hands: 3"),
        (
            "double-bergen",
            "Ana Ben Cleo",
            None,
            "double-bergen: Ana vs Ben vs Cleo; target: 100 (default), reserve: 0 (default)",
        ),
        (
            "double-bergen",
            "Ana Ben",
            {"reserve": 2, "target": 150},
            "double-bergen: Ana vs Ben; target: 150, reserve: 2",
        ),
    ],
)
def test_show_names_every_option_as_the_rulebook_says_it(
    tmp_path: Path, variant: str, players: str, options: dict[str, Any] | None, header: str
) -> None:
    """Flags as yes/no, numbers as numbers, Brettspielnetz's null draw limit as "no limit"; an option the
    match_start does not give (or gives as null, Double Draw's target) is the variant's default, named."""
    start: dict[str, Any] = {"type": "match_start", "variant": variant, "players": players.split()}
    if options is not None:
        start["options"] = options
    path = write(tmp_path / "m.jsonl", [start])
    result = invoke("show", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[2] == header


def test_show_lists_the_violations_so_far(tmp_path: Path) -> None:
    path, _ = _many_problems(tmp_path)
    out = invoke("show", str(path), "--at", "8").stdout.splitlines()
    assert "violations so far (5):" in out
    tile = "play: tile: '7-1' is not a tile of the double-six set (a-b, digits 0-6)"
    assert f"  {path}:9: seq 8: malformed: {tile}" in out


def test_show_a_later_match_of_the_file(tmp_path: Path) -> None:
    path, second_line = _many_problems(tmp_path)
    result = invoke("show", str(path), "--match", "2", "--at", "1")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == [
        f"{path}: match 2 of 2, line {second_line}",
        f"at seq 1 (line {second_line}): match_start ghost13 Ana vs Ben",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--match", "2"], "there is no match 2 (the file holds 1)"),
        (["--at", "15"], "match 1 has 14 events; there is no seq 15"),
    ],
)
def test_show_out_of_range_is_a_clear_error(tmp_path: Path, args: list[str], message: str) -> None:
    path = write(tmp_path / "m.jsonl", WON_BY_BEN)
    result = invoke("show", str(path), *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"dominolog: {path}: {message}\n"
    no_traceback(result)


def test_show_a_missing_file(tmp_path: Path) -> None:
    result = invoke("show", str(tmp_path / "nope.jsonl"))
    assert result.exit_code == 2
    assert "no such file" in result.stderr
    no_traceback(result)


def test_the_installed_command_reports_errors_without_a_traceback(tmp_path: Path) -> None:
    path = write(tmp_path / "m.jsonl", WON_BY_BEN)
    done = subprocess.run(
        [console_script(), "show", str(path), "--match", "3"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stderr == f"dominolog: {path}: there is no match 3 (the file holds 1)\n"


# -- schema ------------------------------------------------------------------------------------------------


def test_schema_writes_one_file_per_document(tmp_path: Path) -> None:
    out = tmp_path / "schemas"
    result = invoke("schema", "--out", str(out))
    assert result.exit_code == 0
    docs = schema_documents()
    assert sorted(p.name for p in out.iterdir()) == sorted(docs)
    assert sorted(result.stdout.splitlines()) == sorted(str(out / name) for name in docs)
    for name, doc in docs.items():
        assert (out / name).read_text(encoding="utf-8") == render(doc)


def test_schema_into_a_file_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "schemas"
    blocker.write_text("a file, not a folder\n")
    result = invoke("schema", "--out", str(blocker))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"dominolog: {blocker}: cannot write: ")
    no_traceback(result)


# -- export ------------------------------------------------------------------------------------------------


def _spinner_match(tmp_path: Path) -> tuple[Path, int]:
    events = simulate_match("double-bergen", 3, 0, ["Ana", "Ben", "Cleo", "Dev"])
    path = write(tmp_path / "db.jsonl", events)
    return path, 24


def test_export_svg_draws_every_tile_and_open_end(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    from dominolog.log.reader import iter_matches
    from dominolog.reducer import reduce_match

    path, seq = _spinner_match(tmp_path)
    out = tmp_path / "table.svg"
    result = invoke("export", str(path), "--at", str(seq), "--out", str(out))
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text())
    ns = {"s": "http://www.w3.org/2000/svg"}
    tiles = {g.get("data-tile") for g in root.iterfind(".//s:g[@class='tile']", ns)}
    ends = {g.get("data-end"): int(g.get("data-value") or -1) for g in root.iterfind(".//s:g[@class='open-end']", ns)}
    (log,) = iter_matches(path)
    hand = reduce_match(log, seq).state.hand
    assert tiles == {str(t) for t in hand.layout.on_board} and len(tiles) == 16
    assert ends == hand.layout.ends()
    pips = root.findall(".//s:circle[@class='pip']", ns)
    assert len(pips) == sum(t.pips for t in hand.layout.on_board)


def test_export_text_is_the_picture_show_prints(tmp_path: Path) -> None:
    path, seq = _spinner_match(tmp_path)
    text = invoke("export", str(path), "--at", str(seq), "--format", "text")
    assert text.exit_code == 0
    shown = invoke("show", str(path), "--at", str(seq)).stdout
    assert all(f"    {row}".rstrip() in shown for row in text.stdout.splitlines())
    assert "┌" in text.stdout and "→6" in text.stdout


def test_export_a_line_game_draws_one_row(tmp_path: Path) -> None:
    path = write(tmp_path / "m.jsonl", WON_BY_BEN)
    result = invoke("export", str(path), "--at", "7", "--format", "text")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].startswith("←0 ┌──0──┬─1──┐┌──1──┬─6──┐")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--at", "1"], "no hand is open at seq 1 (between hands"),
        (["--at", "999"], "there is no seq 999"),
        (["--match", "2"], "there is no match 2"),
        (["--format", "png"], "Invalid value for '--format'"),
    ],
)
def test_export_errors_are_clear(tmp_path: Path, args: list[str], message: str) -> None:
    path = write(tmp_path / "m.jsonl", WON_BY_BEN)
    result = invoke("export", str(path), *args)
    assert result.exit_code == 2
    assert message in result.stderr or message in result.output
    no_traceback(result)
