"""A Rich progress bar that shows itself only on a terminal, and only once a job has run a second."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any

#: a job shorter than this shows no bar
DELAY_SECONDS = 1.0


class LateProgress:
    """``with LateProgress(total, "importing") as p: p.advance(n)``: a transient bar on stderr, started
    after :data:`DELAY_SECONDS`, never when stderr is not a terminal (a pipe, a file) or when disabled
    (``--quiet``). ``total`` counts bytes; the bar shows their speed and the time left."""

    def __init__(self, total: int, label: str, enabled: bool = True) -> None:
        self.total = total
        self.label = label
        self.enabled = enabled and sys.stderr.isatty()
        self.done = 0
        self._start = time.monotonic()
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> LateProgress:
        self._start = time.monotonic()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    def advance(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        if self._bar is None:
            if time.monotonic() - self._start < DELAY_SECONDS:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn

            self._bar = Progress(
                TextColumn(self.label),
                BarColumn(),
                TransferSpeedColumn(),
                TimeRemainingColumn(),
                transient=True,
                console=Console(stderr=True),
            )
            self._task = self._bar.add_task(self.label, total=self.total, completed=self.done)
            self._bar.start()
            return
        self._bar.advance(self._task, n)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
