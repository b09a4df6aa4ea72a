"""Helpers shared by the CLI commands."""

from __future__ import annotations

import sys
from typing import NoReturn

import typer


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``dominolog: message`` on stderr and exit with ``code``."""
    sys.stderr.write(f"dominolog: {message}\n")
    raise typer.Exit(code)
