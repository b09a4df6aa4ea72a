"""What users expect of a command line (issue 11, section 3), and text from logs shown safely wherever a
person reads it (section 2). Through the installed console script, from a temp folder."""

from __future__ import annotations

import csv
import io
import json
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

from dominolog.simulate import simulate_lines
from tests.conftest import ROOT, Ran, clean_env, console_script

Cli = Callable[..., Ran]
REPLAYS = ROOT / "replays"
COMMANDS = [
    "verify",
    "analyze",
    "simulate",
    "show",
    "replay",
    "export",
    "import",
    "list",
    "reindex",
    "record",
    "append",
    "schema",
    "standings",
    "audit",
]
#: what a person must never read in a help text: Python types and reprs, pydantic's wording
NOT_ENGLISH = re.compile(r"<bool>|<list\[|<int|<str>|<path>|<Path>|\bFalse\b|\bNone\b|\[x>=|Value error|\{[A-Z_|.]+\}")
HOSTILE = "Eve\x1b[2J\x1b]0;pwned\x07\r\x9b[bold]x[/]"
ESC_BYTES = (b"\x1b", b"\x07", b"\r", b"\xc2\x9b")


def _hostile_log(tmp_path: Path) -> Path:
    """A valid match whose id, meta and notes hold terminal escapes, a C1 control, CR and Rich markup."""
    lines = [
        json.loads(line)
        for line in (REPLAYS / "ghost13-tabletop-hidden.jsonl").read_text().splitlines()
        if line.strip()
    ]
    start = {k: v for k, v in lines[0].items() if k not in ("hash", "seq")}
    start["id"] = "club [bold]x[/]"
    start["meta"] = {"event": HOSTILE, "table": '=HYPERLINK("http://x")'}
    body = [{k: v for k, v in e.items() if k not in ("hash", "seq")} for e in lines[1:]]
    body.insert(1, {"type": "note", "text": HOSTILE})
    path = tmp_path / "hostile.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in [start, *body]))
    return path


def test_version(cli: Cli) -> None:
    done = cli("--version")
    assert done.code == 0 and re.fullmatch(r"dominolog \d+\.\d+\.\d+ \((compiled|pure Python)\)\n", done.out)


def test_verify_json_names_the_build_that_checked(cli: Cli) -> None:
    """A club's report keeps which build checked it: the line ``--version`` prints, first in the document."""
    named = cli("--version").out.rstrip("\n")
    done = cli("verify", "--json", REPLAYS / "ghost13-disputed.jsonl")
    assert done.code == 1
    assert done.out.startswith('{\n  "build": "' + named + '",\n  "matches": [\n')
    doc = json.loads(done.out)
    assert list(doc) == ["build", "matches"] and doc["build"] == named
    from dominolog.verify import document_chunks

    assert "".join(document_chunks([], named)) == '{\n  "build": "' + named + '",\n  "matches": []\n}'
    assert "".join(document_chunks([])) == '{\n  "matches": []\n}'  # export --format json: the matches only


def test_shell_completion_is_available(tmp_path: Path) -> None:
    """Run from bash, as a user runs it: typer finds the shell among the parent processes (shellingham),
    so the script is started by bash here, which waits for it (started by pytest's worker, or exec'd by
    ``bash -c`` in its place, it finds no shell)."""
    done = subprocess.run(
        ["bash", "-c", f"{shlex.quote(console_script())} --show-completion; exit $?"],  # no exec: bash stays
        cwd=tmp_path, env=clean_env(SHELL="/bin/bash"), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "complete" in done.stdout and "dominolog" in done.stdout.lower()


@pytest.mark.parametrize("columns", ["60", "80", "200"])
def test_help_texts_read_as_english(cli: Cli, columns: str) -> None:
    for argv in [[], *[[c] for c in COMMANDS]]:
        done = cli(*argv, "--help", env=clean_env(COLUMNS=columns))
        assert done.code == 0
        found = NOT_ENGLISH.search(done.out)
        assert found is None, (argv, found.group(), done.out)


def test_every_help_names_the_value_of_db_as_a_path_or_url(cli: Cli) -> None:
    """--db takes a SQLite file or a postgresql:// URL: no help calls it TEXT; the options that name
    their value (--expect-head FP[@SEQ], --dask ADDRESS|local[:N]) keep that name."""
    with_db = []
    for command in COMMANDS:
        done = cli(command, "--help", env=clean_env(COLUMNS="200"))
        assert done.code == 0
        assert "--db TEXT" not in done.out, command
        if "--db" in done.out:
            assert re.search(r"^\s+--db PATH\|URL\s", done.out, re.M), (command, done.out)
            with_db.append(command)
    assert with_db == [c for c in COMMANDS if c not in ("simulate", "schema")]
    verify = cli("verify", "--help", env=clean_env(COLUMNS="200")).out
    assert "--expect-head FP[@SEQ]" in verify and "--dask ADDRESS|local[:N]" in verify


def test_a_bad_choice_lists_the_choices_in_words(cli: Cli) -> None:
    done = cli("export", "x.jsonl", "--format", "xml")
    assert done.code == 2
    assert "jsonl" in done.err and "svg" in done.err and "Value error" not in done.err


def test_an_argument_that_is_not_utf8_is_a_usage_error(cli: Cli) -> None:
    for argv in (["append", "m", b"\xff\xfe{}"], ["verify", b"\xffname.jsonl"], [b"\xc3"]):
        done = cli(*argv)
        assert done.code == 2
        assert re.fullmatch(r"dominolog: usage error: argument \d is not valid UTF-8 text\n", done.err)


# -- verify reads well ---------------------------------------------------------------------------------------


def test_verify_summarises_what_hidden_tiles_keep_from_being_checked(cli: Cli, tmp_path: Path) -> None:
    path = REPLAYS / "brettspielnetz-tabletop-hidden.jsonl"
    short = cli("verify", path)
    assert short.code == 0
    assert short.out.splitlines()[1] == (
        "  8 rules not checkable: draws not seen leave open which tiles were held then (--verbose lists them)"
    )
    assert len(short.out.splitlines()) == 3
    full = cli("verify", "--verbose", path)
    assert sum(" unverified renege: " in line for line in full.out.splitlines()) == 8
    assert json.loads(cli("verify", "--json", path).out)["matches"][0]["unverified"]  # unchanged


def test_the_quick_start_output_is_short(cli: Cli) -> None:
    done = cli("verify", REPLAYS)
    assert done.code == 1
    assert len(done.out.splitlines()) < 60
    assert done.out.splitlines()[-1].startswith("22 matches: 16 valid, 6 invalid")


def test_verify_quiet_prints_only_the_violations(cli: Cli) -> None:
    done = cli("verify", "-q", REPLAYS)
    assert done.code == 1
    lines = done.out.splitlines()
    assert lines and all(re.match(r"\S+\.jsonl:\d+: seq \d+: [a-z-]+: ", line) for line in lines)
    assert cli("verify", "-q", REPLAYS / "ghost13-simulated.jsonl").out == ""


def test_no_progress_bar_on_a_pipe(cli: Cli, tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    big.write_text("".join(line + "\n" for line in simulate_lines("ghost13", 40, 1)))
    now = clean_env(DOMINOLOG_PROGRESS_DELAY="0")  # the bar would show at once on a terminal
    done = cli("verify", big, env=now)
    assert done.code == 0 and done.err == ""
    stored = cli("import", big, "--db", tmp_path / "big.db", env=now)
    assert stored.code == 0 and stored.err == ""


@pytest.mark.parametrize("command", ["verify", "import"])
def test_a_long_job_shows_a_progress_bar_on_a_terminal(tmp_path: Path, command: str) -> None:
    big = tmp_path / "big.jsonl"
    big.write_text("".join(line + "\n" for line in simulate_lines("double-bergen", 40, 2)))
    argv = [command, str(big)] + (["--db", str(tmp_path / "big.db")] if command == "import" else [])
    child = pexpect.spawn(
        console_script(),
        argv,
        cwd=str(tmp_path),
        env=clean_env(TERM="xterm", DOMINOLOG_PROGRESS_DELAY="0"),
        timeout=120,
        encoding="utf-8",
    )
    child.expect("verifying" if command == "verify" else "importing")
    child.expect("matches")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    quiet = pexpect.spawn(
        console_script(), [*argv, "-q"], cwd=str(tmp_path), env=clean_env(TERM="xterm"), encoding="utf-8"
    )
    quiet.expect(pexpect.EOF)
    quiet.close()
    assert "verifying" not in (quiet.before or "") and "importing" not in (quiet.before or "")


# -- export ---------------------------------------------------------------------------------------------------


def test_export_picks_the_format_from_the_suffix(cli: Cli, tmp_path: Path) -> None:
    source = REPLAYS / "39-worked-example.jsonl"
    assert cli("export", source, "--out", tmp_path / "table.svg").code == 0
    ET.parse(tmp_path / "table.svg")
    assert cli("export", source, "--out", tmp_path / "table.txt").code == 0
    assert "┌" in (tmp_path / "table.txt").read_text()
    assert cli("export", REPLAYS / "ghost13-simulated.jsonl", "--out", tmp_path / "hands.csv").code == 0
    assert next(csv.reader(io.StringIO((tmp_path / "hands.csv").read_text())))[0] == "match"
    assert cli("export", source, "--out", tmp_path / "report.json").code == 0
    assert json.loads((tmp_path / "report.json").read_text())["matches"]


def test_svg_of_a_finished_match_is_its_last_table(cli: Cli) -> None:
    done = cli("export", REPLAYS / "ghost13-simulated.jsonl", "--format", "svg")
    assert done.code == 0
    title = ET.fromstring(done.stdout).find(".//{http://www.w3.org/2000/svg}text")
    assert title is not None and "hand 6, after seq" in (title.text or "")


def test_pictures_of_every_match_go_into_a_folder(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    cli("import", REPLAYS, "--db", db)
    no_folder = cli("export", "--all", "--format", "svg", "--db", db)
    assert no_folder.code == 2 and "give --out FOLDER" in no_folder.err
    out = tmp_path / "pictures"
    done = cli("export", "--all", "--format", "svg", "--db", db, "--out", out)
    assert done.code == 0
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 22 and "club-2026-11-20-table-3.svg" in files
    for f in out.iterdir():
        ET.parse(f)


def test_impossible_combinations_say_why(cli: Cli) -> None:
    source = REPLAYS / "ghost13-simulated.jsonl"
    assert "works with --format jsonl" in cli("export", source, "--format", "csv", "--scored").err
    assert "works with --format svg or text" in cli("export", source, "--format", "csv", "--at", "3").err


# -- show ------------------------------------------------------------------------------------------------------


def test_show_takes_a_file_or_a_stored_match_the_same_way(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    cli("import", REPLAYS / "ghost13-tabletop-hidden.jsonl", "--db", db)
    from_file = cli("show", REPLAYS / "ghost13-tabletop-hidden.jsonl", "--at", "20")
    from_store = cli("show", "--db", db, "club-2026-11-20-table-3", "--at", "20")
    assert from_file.code == from_store.code == 0
    assert from_file.out.splitlines()[1:] == from_store.out.splitlines()[1:]


def test_show_of_a_binary_file_is_exit_1(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "binary.jsonl"
    path.write_bytes(bytes(range(256)) * 4)
    done = cli("show", path)
    assert done.code == 1
    assert done.out.splitlines()[0].startswith(f"{path}:1: malformed: not JSON")
    assert "malformed: not UTF-8" in done.out
    assert "not a match: no match_start line" in done.err


# -- text from logs, shown safely ----------------------------------------------------------------------------------


def test_show_verify_list_and_append_never_print_terminal_controls(cli: Cli, tmp_path: Path) -> None:
    path = _hostile_log(tmp_path)
    db = tmp_path / "h.db"
    outputs = [
        cli("show", path, "--at", "3"),
        cli("verify", path),
        cli("import", path, "--db", db),
        cli("list", "--db", db),
        cli("append", "club [bold]x[/]", json.dumps({"type": "note", "text": HOSTILE}), "--db", db),
        cli("export", "--db", db, "club [bold]x[/]", "--format", "text"),
    ]
    for done in outputs:
        assert done.code in (0, 1), done.err
        for raw in ESC_BYTES:
            assert raw not in done.stdout and raw not in done.stderr
    assert "\\x1b[2J" in outputs[0].out  # escaped, readable
    assert "club [bold]x[/]" in outputs[3].out
    as_json = json.loads(cli("list", "--db", db, "--json").out)
    assert as_json["matches"][0]["meta"]["event"] == HOSTILE  # JSON keeps the text, with JSON's escapes


def test_svg_with_control_characters_is_well_formed(cli: Cli, tmp_path: Path) -> None:
    path = _hostile_log(tmp_path)
    done = cli("export", path, "--format", "svg")
    assert done.code == 0
    ET.fromstring(done.stdout)


def test_csv_cells_are_formula_safe_and_numbers_stay_numbers(cli: Cli, tmp_path: Path) -> None:
    from dominolog.export import formula_safe

    assert [formula_safe(c) for c in ["=1+1", "+x", "-x", "@x", "\tx", "\rx", "Ana", -1, 0]] == [
        "'=1+1",
        "'+x",
        "'-x",
        "'@x",
        "'\tx",
        "'\rx",
        "Ana",
        -1,
        0,
    ]
    events = [
        {"type": "match_start", "variant": "ghost13", "players": ["=cmd", "@Ben"], "id": "-m"},
        *[json.loads(line) for line in (REPLAYS / "ghost13-simulated.jsonl").read_text().splitlines()[1:]],
    ]
    text = "".join(json.dumps(e) + "\n" for e in events).replace('"Ana"', '"=cmd"').replace('"Ben"', '"@Ben"')
    path = tmp_path / "f.jsonl"
    path.write_text(re.sub(r',"hash":"[0-9a-f]+"', "", text))
    rows = list(csv.DictReader(io.StringIO(cli("export", path, "--format", "csv").out)))
    assert rows and all(r["player_1"] == "'=cmd" and r["player_2"] == "'@Ben" for r in rows)
    assert all(not r["match"].startswith(("=", "+", "-", "@")) for r in rows)


def test_the_viewer_shows_markup_literally_and_survives_unbalanced_markup(tmp_path: Path) -> None:
    path = _hostile_log(tmp_path)
    child = pexpect.spawn(
        console_script(),
        ["replay", str(path)],
        cwd=str(tmp_path),
        env=clean_env(TERM="xterm-256color"),
        dimensions=(40, 140),
        timeout=30,
        encoding="utf-8",
    )
    try:
        child.expect("quit")
        for key in "nnnnG":
            child.send(key)
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0, child.before


def test_a_crash_in_the_viewer_exits_non_zero(tmp_path: Path) -> None:
    """A viewer whose style sheet is missing (as when it was not shipped) must not exit 0."""
    probe = (
        "import sys; from dominolog.tui.app import ReplayApp; ReplayApp.CSS_PATH = 'missing.tcss';"
        "from dominolog.cli import main; sys.argv = ['dominolog', 'replay', sys.argv[1]]; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(REPLAYS / "ghost13-simulated.jsonl")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=clean_env(TERM="xterm"),
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode not in (0, 3), done.stderr
    assert "the replay viewer stopped on an error" in done.stderr
