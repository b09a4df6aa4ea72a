"""The compiled build and the pure-Python build give the same bytes (issue 28, section 1).

``pip install .`` compiles the fold's modules (``dominolog.build_info.COMPILED``) with mypyc where a C
compiler exists; ``DOMINOLOG_PURE=1 pip install .`` installs the same Python files uncompiled. The
tests run against whichever build is installed (``.ci/run`` runs them against both); this file checks
that the installed build is the one asked for, and runs the same commands through the installed
build and through a pure-Python copy of it (the installed package without its compiled modules, the
files ``DOMINOLOG_PURE=1`` installs) and requires identical output: ``verify --json``, the audit's
JSON of every match, and the exported files, over the bundled replays, simulated matches of every
variant (open and hidden, two and four players, a viewer, partners), hostile lines, and logs that
hypothesis breaks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dominolog
from dominolog.build_info import COMPILED, build, compiled_modules, pure_copy
from dominolog.simulate import hide_match, simulate_lines, simulate_match
from dominolog.variants import find_variant
from tests.conftest import ROOT, clean_env

DRIVER = Path(__file__).with_name("builds_driver.py")
PURE_ASKED = os.environ.get("DOMINOLOG_PURE", "").strip() not in ("", "0")
EXPECTED = "pure Python" if PURE_ASKED else "compiled"
VARIANTS = ("ghost13", "brettspielnetz", "39", "double-bergen", "double-draw")


def test_the_installed_build_is_the_one_asked_for(cli: Any) -> None:
    """CI installs the compiled build, and the pure one with DOMINOLOG_PURE=1 (also set for its tests)."""
    assert build() == EXPECTED, (
        f"the installed dominolog is {build()!r}, expected {EXPECTED!r}: a machine with a C compiler compiles "
        "the fold at `pip install .`; to test the pure-Python build, install and test with DOMINOLOG_PURE=1"
    )
    assert compiled_modules() == ([] if PURE_ASKED else list(COMPILED))
    done = cli("--version")
    assert done.code == 0
    assert done.out == f"dominolog {version('dominolog')} ({EXPECTED})\n"


def test_the_compiled_modules_are_the_packages_own_python_files() -> None:
    """Each compiled module is a Python file of the package (the rules stay readable where they are), and
    is what ``import`` finds: the extension module in the compiled build, the file in the pure one."""
    import importlib

    for name in COMPILED:
        source = ROOT.joinpath(*name.split(".")).with_suffix(".py")
        assert source.is_file(), source
        installed = Path(dominolog.__file__).parent.joinpath(*name.split(".")[1:]).with_suffix(".py")
        assert installed.is_file(), f"{installed}: the source is installed beside the compiled module"
        origin = importlib.import_module(name).__file__ or ""
        assert origin.endswith(tuple(EXTENSION_SUFFIXES)) is (not PURE_ASKED), origin
    assert "build_info.py" in (ROOT / "setup.py").read_text(), "setup.py reads its list from build_info.py"


# -- the differential test -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pure_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The installed package copied without its compiled modules: what DOMINOLOG_PURE=1 installs."""
    return pure_copy(tmp_path_factory.mktemp("pure"))


def _drive(manifest: list[list[str]], work: Path, pythonpath: Path | None) -> list[Any]:
    work.mkdir(parents=True, exist_ok=True)
    listing = work / "manifest.json"
    listing.write_text(json.dumps(manifest), encoding="utf-8")
    env = clean_env()  # PYTHONPATH kept: .ci/run puts the pure build there for its second run
    env["DOMINOLOG_DEBUG"] = "1"  # a bug in the fold raises (a traceback, below), never passes as a finding
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(pythonpath), env.get("PYTHONPATH", "")) if p)
    done = subprocess.run(
        [sys.executable, str(DRIVER), str(listing)], cwd=work, env=env, capture_output=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-3000:]
    results: list[Any] = json.loads(done.stdout)
    return results


def _same_in_both_builds(manifest: list[list[str]], work: Path, pure_tree: Path) -> list[Any]:
    installed = _drive(manifest, work / "installed", None)
    pure = _drive(manifest, work / "pure", pure_tree)
    assert installed.pop() == EXPECTED
    assert pure.pop() == "pure Python"
    for args, a, b in zip(manifest, installed, pure, strict=True):
        assert "Traceback" not in a[2] and "internal error" not in a[2], (args, a[2][-2000:])
        if args[:2] == ["verify", "--json"]:  # the one line that names the build
            mine, theirs = f"({EXPECTED})", "(pure Python)"
            assert a[1].startswith(f'{{\n  "build": "dominolog {version("dominolog")} {mine}",\n'), a[1][:200]
            a = [a[0], a[1].replace(mine, theirs, 1), a[2]]
        assert a == b, f"dominolog {' '.join(args)}: the {EXPECTED} build and the pure-Python build differ"
    return installed


def _matches_in(path: Path) -> int:
    if path.suffix == ".dn":
        return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("match "))
    return sum(1 for line in path.read_bytes().splitlines() if b'"match_start"' in line) or 1


def _commands(path: Path, audits: int | None = None) -> list[list[str]]:
    f = str(path)
    out = [
        ["verify", "--json", f],
        ["export", f, "--format", "json"],
        ["export", f, "--format", "csv"],
        ["export", f, "--format", "csv", "--long"],
        ["export", f, "--format", "jsonl", "--scored"],
        ["export", f, "--format", "text"],
    ]
    for k in range(1, (audits if audits is not None else _matches_in(path)) + 1):
        out.append(["audit", f, "--match", str(k), "--format", "json"])
    return out


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line if line.endswith("\n") else line + "\n" for line in lines), encoding="utf-8")
    return path


HOSTILE = [
    b'{"type":"match_start","variant":"ghost13","players":["Ana","B\\ud800"]}',
    b'{"type":"note","text":"a lone surrogate above"}',
    b'{"type":"match_start","variant":"ghost13","players":["<script>alert(1)</script>","\\u001b[31mEvil"]}',
    b'{"type":"deal","leader":"<script>alert(1)</script>","hands":{"x":["0-0"]}}',
    b'{"type":"play","player":"\\u001b[31mEvil","tile":"9-9","end":"left"}',
    b'{"type":"play","player":"\\u001b[31mEvil","tile":"0-1","end":"left","end":"right"}',
    b"not json at all",
    b'{"type":"pass","player":"Ana"',
    b"\xff\xfe bad bytes",
    b'{"type":"draw","player":"Ana","tile":"1-2","seq":99999999999999999999999}',
    b"[" * 5000 + b"]" * 5000,
    b'{"type":"hand_end","points":{"Ana":-1},"winner":["Ana",7]}',
    b'{"type":"note","text":"' + b"x" * 300_000 + b'"}',
    b'{"type":"match_end","totals":{"Ana":1e400},"winner":null}',
    b'{"type":"match_start","variant":"double-draw","players":["A","B","C","D"],"options":{"partners":"yes"}}',
    b'{"type":"undo","seq":1}',
    b'{"type":"reveal","player":"A","tiles":["0-0","0-0"]}',
    b'{"type":"block_call","player":"B"}',
]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The bundled replays, simulated matches of every variant and a file of hostile lines."""
    files = sorted(p for p in (ROOT / "replays").rglob("*") if p.suffix in (".jsonl", ".dn"))
    made = tmp_path_factory.mktemp("corpus")
    for variant in VARIANTS:
        most = find_variant(variant).max_players
        configs: list[dict[str, Any]] = [{"players": None}, {"players": ["Ana", "Ben", "Cleo", "Dev"][:most]}]
        if variant == "double-draw":
            configs.append({"players": ["Ana", "Ben", "Cleo", "Dev"], "options": {"partners": True}})
        for n, config in enumerate(configs):
            for hide, viewer in ((False, None), (True, None), (True, "Ana")):
                if viewer and config["players"] is None:
                    continue
                lines = simulate_lines(variant, 2, f"builds-{n}", hide=hide, viewer=viewer, **config)
                name = f"{variant}-{n}-{'hidden' if hide else 'open'}{'-' + viewer if viewer else ''}.jsonl"
                files.append(_write(made / name, list(lines)))
    hostile = made / "hostile.jsonl"
    good = list(simulate_lines("ghost13", 1, "hostile"))
    hostile.write_bytes(b"\n".join([*HOSTILE, *(line.encode() for line in good)]) + b"\n")
    files.append(hostile)
    return files


def test_the_two_builds_agree_on_every_corpus(corpus: list[Path], pure_tree: Path, tmp_path: Path) -> None:
    manifest = [cmd for path in corpus for cmd in _commands(path)]
    manifest += [
        ["simulate", "--variant", v, "--matches", "2", "--seed", "28", *(["--hide"] if hide else [])]
        for v in VARIANTS
        for hide in (False, True)
    ]
    results = _same_in_both_builds(manifest, tmp_path, pure_tree)
    # the corpus is what it should be: the disputed replays are invalid, the simulated ones valid
    verified = {
        args[2]: json.loads(r[1])
        for args, r in zip(manifest, results, strict=False)
        if args[:2] == ["verify", "--json"]
    }
    by_name = {Path(k).name: v for k, v in verified.items()}
    assert all(m["valid"] for m in by_name["ghost13-1-hidden-Ana.jsonl"]["matches"])
    assert not all(m["valid"] for m in by_name["ghost13-disputed.jsonl"]["matches"])
    assert [m["valid"] for m in by_name["hostile.jsonl"]["matches"]].count(True) == 1


# -- logs broken by hypothesis -------------------------------------------------------------------------------

_VALUES = st.sampled_from(
    [None, -1, 0, 7, 2**70, 1.5, True, "", "9-9", "0-0", "6-6", "3-4", "left", "right", "Ana", "Zed",
     "<b>x</b>", [], ["0-0", "0-0"], {}, {"Ana": 3}]
)  # fmt: skip
_KEYS = st.sampled_from(["tile", "end", "player", "tiles", "leader", "points", "winner", "totals", "seq", "hash",
                         "type", "hands", "start_tile", "variant", "players"])  # fmt: skip


@st.composite
def _broken_match(draw: st.DrawFn) -> list[str]:
    variant = draw(st.sampled_from(VARIANTS))
    events = simulate_match(variant, draw(st.integers(0, 40)), 0)
    if draw(st.booleans()):
        events = hide_match(events)
    lines = [json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in events]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["edit", "edit", "drop", "repeat", "swap", "garbage"]))
        if kind == "edit":
            event = json.loads(lines[i])
            event[draw(_KEYS)] = draw(_VALUES)
            lines[i] = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
        elif kind == "drop" and len(lines) > 1:
            del lines[i]
        elif kind == "repeat":
            lines.insert(i, lines[i])
        elif kind == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif kind == "garbage":
            lines[i] = lines[i][: len(lines[i]) // 2]
    return lines


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(matches=st.lists(_broken_match(), min_size=1, max_size=3))
def test_the_two_builds_agree_on_logs_hypothesis_breaks(
    matches: list[list[str]], pure_tree: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    work = tmp_path_factory.mktemp("broken")
    path = _write(work / "broken.jsonl", [line for match in matches for line in match])
    _same_in_both_builds(_commands(path, audits=len(matches)), work, pure_tree)
