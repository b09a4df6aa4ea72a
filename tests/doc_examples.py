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

A ```` ```sql ```` block is PostgreSQL's: written to ``example.sql`` and run with ``psql`` on the page's
database (``{pg}``), stopping at the first error.

A command ``dominolog serve ARGS &`` (in the background, as a reader starts it in a shell) starts the server
as the tests do (:class:`tests.serving.Served`: a free loopback port, waited for until it answers), kept
until the page's examples end; in the commands after it, ``127.0.0.1:8000`` is that server's address.

Fences may be indented (in a list item). Every page of ``docs/`` and the README is read; a fence of another
shell or Python language (``bash``, ``console``, ``pycon``...) is refused, and so is a plain one that starts
with a command (a synopsis is a ```` ```text ```` block): tests/test_docs_examples.py says which.

A plain ```` ``` ```` block right after ``<!-- output: contains -->`` is output of the block run before it:
each of its lines is in that output (``...`` stands for any text); ``<!-- output: varies -->`` also lets
every number differ (timings, sizes).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tests.serving import Served, free_port

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^( *)```([\w-]*)[^\n]*\n(.*?)^\1```[ \t]*$", re.M | re.S)
#: the fences run: a shell block, a Python one, PostgreSQL's SQL
RUN = ("sh", "python", "sql")
#: the command each kind of script runs as (written to the file named)
SCRIPTS = {
    "python": ("example.py", "python3 example.py"),
    "sql": ("example.sql", "psql '{pg}' -X -q -v ON_ERROR_STOP=1 -f example.sql"),
}
#: a background server: ``dominolog serve ARGS &`` (a comment may follow)
SERVE = re.compile(r"^(?:\S*/)?dominolog serve\b(.*?)&\s*(?:#.*)?$", re.S)
#: the address a page gives the server it starts
SHOWN_ADDRESS = "127.0.0.1:8000"
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
    script: str | None = None  # a Python or SQL example: written to a file, run (SCRIPTS)
    lang: str = "sh"
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


def fences(text: str) -> list[re.Match[str]]:
    """The fenced blocks of a page (groups: the indentation, the language, the body)."""
    return list(FENCE.finditer(text))


def _dedent(body: str, indent: str) -> str:
    return "".join(line.removeprefix(indent) for line in body.splitlines(keepends=True))


def blocks(path: Path) -> list[Block]:
    """The examples of a page, in order."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    found: list[Block] = []
    end = 0
    for m in fences(text):
        before = text[end : m.start()].rstrip()
        end = m.end()
        lang, body = m.group(2), _dedent(m.group(3), m.group(1))
        line = text.count("\n", 0, m.start()) + 1
        marker = COMMENT.search(before[before.rfind("<!--") :]) if before.endswith("-->") else None
        if lang in RUN:
            commands = _logical_lines(body) if lang == "sh" else [SCRIPTS[lang][1]]
            block = Block(name, line, "sh", commands, script=None if lang == "sh" else body, lang=lang)
            if marker and marker.group(1) == "example":
                first, _, rest = _dedent(marker.group(2), m.group(1)).partition("\n")
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


def run(block: Block, cwd: Path, pg: str | None = None, servers: list[Served] | None = None) -> str:
    """Run a block's commands; their standard output, one after the other. ``{pg}`` in a command is the URL
    of a fresh PostgreSQL database (the throwaway server of the tests). A ``dominolog serve ... &`` starts a
    server put in ``servers`` (the caller stops them when the page ends); what it printed at start is
    output of the block too."""
    out = []
    if block.script is not None:
        (cwd / SCRIPTS[block.lang][0]).write_text(block.script, encoding="utf-8")
    exits = block.exits if len(block.exits) > 1 else block.exits * len(block.commands)
    assert len(exits) == len(block.commands), f"{block.page}:{block.line}: one exit status a command"
    for command, expected in zip(block.commands, exits, strict=True):
        command = command.replace("{root}", str(ROOT)).replace("{port}", str(free_port()))
        if "{pg}" in command:
            assert pg, f"{block.page}:{block.line}: no PostgreSQL database for {{pg}}"
            command = command.replace("{pg}", pg)
        where = f"{block.page}:{block.line}"
        if servers:
            command = command.replace(SHOWN_ADDRESS, servers[-1].url.removeprefix("http://"))
        if serve := SERVE.match(command):
            assert servers is not None, f"{where}: a server started where none can be kept"
            out.append(_serve(shlex.split(serve.group(1)), cwd, where, servers))
            continue
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
    printed = "".join(out)
    for served in servers or ():  # as the page shows it: the address it gives the server
        printed = printed.replace(served.url.removeprefix("http://"), SHOWN_ADDRESS)
    return printed


def _serve(args: list[str], cwd: Path, where: str, servers: list[Served]) -> str:
    """``dominolog serve ARGS`` started on a free port in ``cwd`` (put in ``servers``); what it printed."""
    db = "dominolog.db"
    if "--db" in args:
        at = args.index("--db")
        db, args = args[at + 1], args[:at] + args[at + 2 :]
    assert not any(a.startswith(("--port", "--host")) for a in args), f"{where}: the tests pick the address"
    served = Served(db, cwd, *args, env=_env())
    try:
        served.start()
    except RuntimeError as exc:
        raise AssertionError(f"{where}: {exc}") from None
    servers.append(served)
    return served.out


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
