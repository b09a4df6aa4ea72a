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


def test_a_store_is_opened_and_written_without_sqlite_utils_which_it_gives_when_asked(tmp_path: Path) -> None:
    """Opening a SQLite store and appending to it import no sqlite-utils (34 ms of every command's start-up,
    its plugins looked up); ``store.db`` is still the file's ``sqlite_utils.Database``, on the store's own
    connection, made when first asked for. The connection keeps what opening it through sqlite-utils gave
    it: recursive triggers, so an INSERT OR REPLACE over a stored event is refused by the append-only
    trigger, not let through as a delete."""
    code = (
        "import sys, sqlite3\n"
        "from dominolog.store import open_store\n"
        "s = open_store('s.db')\n"
        's.append(\'m\', b\'{"type":"match_start","variant":"ghost13","players":["A","B"],"id":"m"}\')\n'
        "print('sqlite_utils' in sys.modules, s.conn.execute('PRAGMA recursive_triggers').fetchone()[0])\n"
        "try:\n"
        '    s.conn.execute("INSERT OR REPLACE INTO events SELECT * FROM events")\n'
        "except sqlite3.IntegrityError as exc:\n"
        "    print('refused:', exc)\n"
        "db = s.db\n"
        "print(db.conn is s.conn, db is s.db, 'sqlite_utils' in sys.modules, db['events'].count)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=clean_env(), check=True
    )
    assert done.stdout.splitlines() == [
        "False 1",
        "refused: events are append-only: DELETE refused",
        "True True True 1",
    ], done.stdout + done.stderr
