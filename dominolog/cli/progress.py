"""A Rich progress bar that shows itself only on a terminal, and only once a job has run a second."""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import Any

#: a job shorter than this shows no bar (DOMINOLOG_PROGRESS_DELAY, in seconds, changes it: the tests
#: show the bar on small inputs with 0)
DELAY_SECONDS = 1.0


def _delay() -> float:
    try:
        return float(os.environ.get("DOMINOLOG_PROGRESS_DELAY", DELAY_SECONDS))
    except ValueError:
        return DELAY_SECONDS


class LateProgress:
    """``with LateProgress(total, "importing") as p: p.advance(nbytes, events)``, once a match: a
    transient bar on stderr (bytes read of ``total``, matches, events/s, time left), started after
    :data:`DELAY_SECONDS`, never when stderr is not a terminal (a pipe, a file) or when disabled
    (``--quiet``). ``unit`` names what is counted (``advance(..., count=n)``: n of them at once) and
    ``rate_unit`` what the rate is of (``None``: no rate shown)."""

    def __init__(
        self,
        total: int,
        label: str,
        enabled: bool = True,
        unit: str = "matches",
        rate_unit: str | None = "events",
    ) -> None:
        self.total = total
        self.label = label
        self.unit = unit
        self.rate_unit = rate_unit
        self.enabled = enabled and sys.stderr.isatty()
        self.delay = _delay()
        self.done = self.matches = self.events = 0
        self._start = time.monotonic()
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> LateProgress:
        self._start = time.monotonic()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    def advance(self, nbytes: int, events: int = 0, count: int = 1) -> None:
        """One more match read (``count`` more of the unit counted): its bytes and its events."""
        self.done += nbytes
        self.matches += count
        self.events += events
        if not self.enabled:
            return
        elapsed = time.monotonic() - self._start
        if self._bar is None:
            if elapsed < self.delay:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            counted = "{task.fields[matches]:,} " + self.unit
            if self.rate_unit is not None:
                counted += ", {task.fields[rate]:,.0f} " + self.rate_unit + "/s"
            self._bar = Progress(
                TextColumn(self.label),
                BarColumn(),
                TextColumn(counted),
                TimeRemainingColumn(),
                transient=True,
                console=Console(stderr=True),
            )
            self._task = self._bar.add_task(self.label, total=self.total, matches=0, rate=0.0)
            self._bar.start()
        rate = self.events / elapsed if elapsed > 0 else 0.0
        self._bar.update(self._task, completed=self.done, matches=self.matches, rate=rate)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
