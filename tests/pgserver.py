"""A throwaway PostgreSQL server for the tests and bench/bench_pg.py: a cluster made with Debian's
``initdb`` in a temp folder, listening on a Unix socket in that folder only (no TCP port), trust
authentication, stopped and removed at the end.

As root (CI), the folder is given to the ``postgres`` user and ``initdb``/``pg_ctl`` run as it
(``runuser -u postgres --``): PostgreSQL refuses to run as root. Each pytest-xdist worker starts its
own cluster in its own folder; each test gets a fresh database of it (``CREATE DATABASE``).

No pytest here (the bench imports it): :func:`find_bin` returns None when PostgreSQL is not
installed, and the caller says what to install (:data:`INSTALL`).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

#: how to get the server on Debian or Ubuntu (what .ci/run does)
INSTALL = "apt-get update && apt-get install -y postgresql"
SUPERUSER = "postgres"
#: the ICU locale of a database whose collation is not the bytes' order (PostgreSQL 15 takes it with
#: LOCALE_PROVIDER icu; an unknown locale is only a warning there, so its order is checked)
LINGUISTIC = "en-US"


def find_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: $DOMINOLOG_PG_BIN, else Debian's newest
    /usr/lib/postgresql/N/bin, else the PATH's; None if there is none."""
    given = os.environ.get("DOMINOLOG_PG_BIN")
    if given:
        return Path(given) if (Path(given) / "initdb").exists() else None
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def required() -> bool:
    """Whether a missing server is a failure rather than a skip (CI, or DOMINOLOG_REQUIRE_POSTGRES=1)."""
    ci = os.environ.get("CI", "").strip().lower()
    return ci not in ("", "0", "false", "no") or os.environ.get("DOMINOLOG_REQUIRE_POSTGRES") == "1"


class Cluster:
    """A PostgreSQL cluster of its own: :meth:`start`, :meth:`url` of a database, :meth:`stop`."""

    def __init__(self, bin_dir: Path, durable: bool = False, port: int = 5432) -> None:
        self.bin = bin_dir
        self.durable = durable
        self.port = port
        self.root = Path(tempfile.mkdtemp(prefix="dominolog-pg-"))
        self.data = self.root / "data"
        self.as_root = os.geteuid() == 0
        self._databases = 0

    def _run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        prefix = ["runuser", "-u", SUPERUSER, "--"] if self.as_root else []
        return subprocess.run(
            [*prefix, *argv], capture_output=True, text=True, timeout=timeout, check=False, cwd=self.root
        )

    def start(self) -> Cluster:
        """initdb (trust, no sync) and pg_ctl start on a socket in the folder; RuntimeError saying why not."""
        if self.as_root:
            shutil.chown(self.root, SUPERUSER, SUPERUSER)
        self.root.chmod(0o755)
        init = self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "-A", "trust", "--no-sync", "-E", "UTF8"
        )
        if init.returncode != 0:
            raise RuntimeError(f"initdb failed ({init.returncode}): {init.stderr.strip()[-2000:]}")
        return self.start_again()

    def start_again(self) -> Cluster:
        """pg_ctl start on the cluster made by :meth:`start` (after :meth:`stop_now`); RuntimeError
        saying why not."""
        options = f"-k {self.root} -p {self.port} -c listen_addresses='' -c max_connections=60 -c shared_buffers=16MB"
        if not self.durable:  # the tests measure nothing and test no crash of the server
            options += " -c fsync=off -c full_page_writes=off"
        ctl = self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w", "start"
        )
        if ctl.returncode != 0:
            log = (self.root / "log").read_text(errors="replace") if (self.root / "log").exists() else ""
            raise RuntimeError(f"pg_ctl start failed ({ctl.returncode}): {ctl.stderr.strip()} {log[-2000:]}")
        return self

    def url(self, database: str = "postgres", user: str = SUPERUSER) -> str:
        """A libpq URL of ``database`` on this cluster's socket."""
        return f"postgresql://{user}@/{database}?host={self.root}&port={self.port}"

    def new_database(self, icu_locale: str | None = None) -> str:
        """The URL of a new, empty database: in the cluster's locale (initdb's: C.UTF-8 here, which
        orders text by its bytes), or with ``icu_locale`` in that ICU locale's collation."""
        import psycopg

        self._databases += 1
        name = f"t{os.getpid()}_{self._databases}_{time.monotonic_ns() % 1_000_000}"
        locale = f" LOCALE_PROVIDER icu ICU_LOCALE '{icu_locale}'" if icu_locale else ""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0{locale}')  # type: ignore[arg-type]
        return self.url(name)

    def linguistic_database(self) -> str:
        """The URL of a new, empty database whose collation orders text as a person does (ICU's
        ``en-US``: ``alpha-2`` before ``Zeta-1``, where the bytes put ``Z`` first); RuntimeError saying
        why when the server cannot make one (built without ICU, an ICU without the locale)."""
        import psycopg

        try:
            url = self.new_database(icu_locale=LINGUISTIC)
        except psycopg.Error as exc:
            raise RuntimeError(
                f"the server cannot create a database with the ICU collation {LINGUISTIC!r} "
                f"(CREATE DATABASE ... LOCALE_PROVIDER icu ICU_LOCALE '{LINGUISTIC}'): {' '.join(str(exc).split())}"
            ) from None
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute(
                "SELECT datlocprovider, daticulocale, 'alpha-2' < 'Zeta-1', 'éclair' < 'Zeta-1' "
                "FROM pg_database WHERE datname = current_database()"
            ).fetchone()
        assert row is not None
        if row[2:] != (True, True):
            raise RuntimeError(
                f"a database created with ICU_LOCALE {LINGUISTIC!r} (provider {row[0]!r}, locale {row[1]!r}) "
                "does not order text linguistically ('alpha-2' < 'Zeta-1' is false): the server's ICU lacks "
                "the locale"
            )
        return url

    def stop_now(self) -> None:
        """Stop the server at once, as a crash would (``pg_ctl stop -m immediate``: its connections are
        cut, nothing is shut down cleanly), keeping its data for :meth:`start_again`."""
        ctl = self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop", timeout=60)
        if ctl.returncode != 0:
            raise RuntimeError(f"pg_ctl stop failed ({ctl.returncode}): {ctl.stderr.strip()}")

    def stop(self) -> None:
        if self.data.exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop", timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
