"""``dominolog simulate``: random legal matches with correct claims and hashes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from dominolog.cli.common import fail
from dominolog.simulate import simulate_lines
from dominolog.variants import VARIANTS


def simulate(
    variant: Annotated[str, typer.Option(help=f"Rule variant: {', '.join(VARIANTS)}.")] = "ghost13",
    matches: Annotated[int, typer.Option(min=1, help="How many matches.")] = 1,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same bytes.")] = 0,
    out: Annotated[Path | None, typer.Option(help="Write to this file instead of standard output.")] = None,
) -> None:
    """Write random legal full-information matches as a log."""
    if variant not in VARIANTS:
        fail(f"unknown or not yet supported variant {variant!r} (supported: {', '.join(VARIANTS)})")
    text = "".join(line + "\n" for line in simulate_lines(variant, matches, seed))
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{out}: cannot write: {exc.strerror or exc}")
