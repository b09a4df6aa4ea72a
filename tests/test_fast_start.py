"""``dominolog --help`` starts fast (issue 16): loading the command line imports none of the commands'
machinery (pydantic, the event models, the rules, the store, Textual); each command imports what it
needs when it runs. Checked by what is imported, not by a timing (the time is in bench/RESULTS.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import clean_env

HEAVY = (
    "pydantic",
    "sqlite_utils",
    "sqlite_utils.db",
    "dominolog.events",
    "dominolog.reducer",
    "dominolog.store",
    "dominolog.variants",
    "textual",
    "dominolog.analysis",
    "dominolog.audit",
    "dominolog.club",
    "dominolog.web",
    "fastapi",
    "uvicorn",
    "starlette",
)


def test_loading_the_command_line_imports_no_command_machinery(tmp_path: Path) -> None:
    code = f"import sys, dominolog.cli; print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=clean_env(), check=True
    )
    assert done.stdout.strip() == "[]", done.stdout
