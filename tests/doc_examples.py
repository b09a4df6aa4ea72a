"""The shell examples of a Markdown page, as tests/test_docs_examples.py runs them (not a test itself).

A ```` ```sh ```` block is run, one command a line (a line that starts with a space goes on the one before),
in a temp folder of its page (the blocks of a page share it, in order) holding ``replays/`` and
``.venv/bin/dominolog``, with the installed console script first on ``PATH``. Each command must exit 0 and
print no traceback. An HTML comment just before a block says otherwise, for a person reading the page too:

- ``<!-- example: exit 1 -->``: each command of the block exits with 1 (``exit 1,0``: the first 1, the next 0).
- ``<!-- example: in a new folder -->``: the block, and those after it, run in a new temp folder (a fresh
  store); directives are separated by ``;``.
- ``<!-- example: until TEXT -->``: each command runs in a pseudo-terminal until TEXT shows (a screen, a
  server), then it is stopped (``# until: TEXT`` after one command: that command alone).
- ``<!-- example: not run here (WHY) -->``, and on the comment's next lines the commands run instead, the
  local equivalent (``{root}`` is the checkout, ``{port}`` a free port, ``{pg}`` a fresh PostgreSQL
  database of the tests' throwaway server); the directives above may follow
  the reason, after `` -- ``, for those commands.

A ```` ```python ```` block is written to ``example.py`` in that folder and run with ``python3 example.py``
(its marker's commands run instead, when it cannot run here).

A plain ```` ``` ```` block right after ``<!-- output: contains -->`` is output of the block run before it:
each of its lines is in that output (``...`` stands for any text); ``<!-- output: varies -->`` also lets
every number differ (timings, sizes).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```\s*$", re.M | re.S)
COMMENT = re.compile(r"<!--\s*(example|output):\s*(.*?)-->\s*$", re.S)


@dataclass
class Block:
    """One example of a page: commands to run, or output to find in what the block before printed."""

    page: str
    line: int
    kind: str  # "sh" or "output"
    commands: list[str] = field(default_factory=list)
    exits: list[int] = field(default_factory=lambda: [0])
    until: str | None = None
    fresh: bool = False
    script: str | None = None  # a Python example: written to example.py, run with python3
    skipped: str | None = None
    compare: str = "contains"
    shown: str = ""


def _logical_lines(text: str) -> list[str]:
    lines: list[str] = []
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if raw[0].isspace() and lines:
            lines[-1] += "\n" + raw
        else:
            lines.append(raw)
    return lines


def _directives(block: Block, text: str) -> None:
    for directive in filter(None, (d.strip() for d in text.split(";"))):
        if m := re.fullmatch(r"exit (\d+(?:,\d+)*)", directive):
            block.exits = [int(n) for n in m.group(1).split(",")]
        elif m := re.fullmatch(r"until (.+)", directive, re.S):
            block.until = m.group(1).strip()
        elif directive == "in a new folder":
            block.fresh = True
        else:
            raise ValueError(f"{block.page}:{block.line}: unknown example directive {directive!r}")


def blocks(path: Path) -> list[Block]:
    """The examples of a page, in order."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    found: list[Block] = []
    end = 0
    for m in FENCE.finditer(text):
        before = text[end : m.start()].rstrip()
        end = m.end()
        lang, body = m.group(1), m.group(2)
        line = text.count("\n", 0, m.start()) + 1
        marker = COMMENT.search(before[before.rfind("<!--") :]) if before.endswith("-->") else None
        if lang in ("sh", "python"):
            commands = _logical_lines(body) if lang == "sh" else ["python3 example.py"]
            block = Block(name, line, "sh", commands, script=body if lang == "python" else None)
            if marker and marker.group(1) == "example":
                first, _, rest = marker.group(2).partition("\n")
                head, _, tail = first.partition(" -- ")
                if head.startswith("not run here"):
                    block.skipped = head
                    block.commands = _logical_lines(rest)
                    _directives(block, tail)
                else:
                    _directives(block, first)
            found.append(block)
        elif lang == "" and marker and marker.group(1) == "output":
            found.append(Block(name, line, "output", compare=marker.group(2).strip(), shown=body))
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def workspace(tmp: Path) -> Path:
    """A page's temp folder: the bundled replays, and a ``.venv/bin/dominolog`` as the README's install makes."""
    script = shutil.which("dominolog", path=str(Path(sys.executable).parent))
    assert script, f"the dominolog console script is not installed beside {sys.executable}"
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "replays").symlink_to(ROOT / "replays", target_is_directory=True)
    (tmp / ".venv" / "bin").mkdir(parents=True)
    (tmp / ".venv" / "bin" / "dominolog").symlink_to(script)
    return tmp


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINOLOG_")}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.update(COLUMNS="100", NO_COLOR="1", TERM="xterm-256color")
    return env


def _until(command: str, text: str, cwd: Path, where: str) -> str:
    import pexpect

    child = pexpect.spawn(
        "bash", ["-c", command], cwd=str(cwd), env=_env(), dimensions=(40, 120), encoding="utf-8", timeout=60
    )
    try:
        child.expect_exact(text)
        return child.before + text
    except (pexpect.TIMEOUT, pexpect.EOF):
        raise AssertionError(f"{where}: {command!r} never showed {text!r}: {child.before!r}") from None
    finally:
        child.terminate(force=True)


def run(block: Block, cwd: Path, pg: str | None = None) -> str:
    """Run a block's commands; their standard output, one after the other. ``{pg}`` in a command is the URL
    of a fresh PostgreSQL database (the throwaway server of the tests)."""
    out = []
    if block.script is not None:
        (cwd / "example.py").write_text(block.script, encoding="utf-8")
    exits = block.exits if len(block.exits) > 1 else block.exits * len(block.commands)
    assert len(exits) == len(block.commands), f"{block.page}:{block.line}: one exit status a command"
    for command, expected in zip(block.commands, exits, strict=True):
        command = command.replace("{root}", str(ROOT)).replace("{port}", str(_free_port()))
        if "{pg}" in command:
            assert pg, f"{block.page}:{block.line}: no PostgreSQL database for {{pg}}"
            command = command.replace("{pg}", pg)
        where = f"{block.page}:{block.line}"
        until = re.search(r"\s+# until: (.+)$", command)
        if until or block.until is not None:
            out.append(_until(command, until.group(1) if until else block.until, cwd, where))
            continue
        done = subprocess.run(
            ["bash", "-c", command], cwd=cwd, env=_env(), capture_output=True, text=True, errors="replace", timeout=120
        )
        assert "Traceback" not in done.stderr, f"{where}: {command}\n{done.stderr}"
        assert done.returncode == expected, (
            f"{where}: {command}: exit {done.returncode}, the page says {expected}\n{done.stderr[-2000:]}"
        )
        out.append(done.stdout)
    return "".join(out)


def _pattern(line: str, varies: bool) -> re.Pattern[str]:
    parts = []
    for piece in re.split(r"(\.\.\.|\d[\d.,]*)", line.strip()):
        if piece == "...":
            parts.append(".*?")
        elif varies and piece[:1].isdigit():
            parts.append(r"\d[\d.,]*")
        else:
            parts.append(re.escape(piece))
    return re.compile("".join(parts))


def check_output(block: Block, printed: str) -> None:
    """Each line of the shown output is in what the block before printed (numbers may differ if they vary)."""
    varies = block.compare == "varies"
    assert block.compare in ("contains", "varies"), f"{block.page}:{block.line}: output: {block.compare}?"
    for line in block.shown.splitlines():
        if line.strip():
            assert _pattern(line, varies).search(printed), (
                f"{block.page}:{block.line}: the page shows\n{line}\nwhich the command did not print:\n"
                + printed[-3000:]
            )
