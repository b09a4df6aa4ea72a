"""``dominolog simulate``: random legal matches with correct claims and hashes."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from dominolog.cli.common import fail


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            fail(f"--option wants KEY=VALUE (e.g. draw_limit=null, partners=true), not {pair!r}")
        try:
            out[key] = json.loads(text)
        except ValueError:
            out[key] = text
    return out


def simulate(
    variant: Annotated[
        str, typer.Option(help="Rule variant, by name (an unknown one is refused with the known ones).")
    ] = "ghost13",
    matches: Annotated[int, typer.Option(min=1, help="How many matches.")] = 1,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same bytes.")] = 0,
    players: Annotated[
        int | None,
        typer.Option(min=2, max=4, help="How many players (named Ana, Ben, Cleo, Dev); default: the fewest allowed."),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help="A rule option as KEY=VALUE, VALUE in JSON (e.g. draw_limit=null, partners=true, target=61); "
            "repeat for more.",
        ),
    ] = None,
    hide: Annotated[
        bool,
        typer.Option(
            "--hide",
            help="Write the matches as a table recorder sees them: hands and draws not seen, reveals at the end.",
        ),
    ] = False,
    viewer: Annotated[
        str | None,
        typer.Option(help="With --hide: the player recording their own game (their hand and draws are seen)."),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Write to this file instead of standard output.")] = None,
) -> None:
    """Write random legal full-information matches (or, with --hide, as seen at the table) as a log."""
    from dominolog.simulate import DEFAULT_NAMES, simulate_lines
    from dominolog.variants import VARIANTS, VariantError

    if variant not in VARIANTS:
        fail(f"unknown or not yet supported variant {variant!r} (supported: {', '.join(VARIANTS)})")
    cls = VARIANTS[variant]
    count = players if players is not None else cls.min_players
    names = list(DEFAULT_NAMES[:count])
    options = _options(option or [])
    try:
        cls(names, options)
    except VariantError as exc:
        fail(str(exc))
    if viewer is not None and viewer not in names:
        fail(f"--viewer {viewer!r} is not a player (the players are {', '.join(names)})")
    lines = simulate_lines(variant, matches, seed, names, options or None, hide or viewer is not None, viewer)
    if out is None:  # written as made: memory stays flat however many matches
        sys.stdout.writelines(line + "\n" for line in lines)
        return
    _write_out(out, (line + "\n" for line in lines))


def _write_out(out: Path, text: Iterator[str]) -> None:
    """Write ``text`` to ``out`` as it is made: into a temporary file beside it, renamed over ``out`` once
    whole (a file there is never left half written); a FIFO or a device is written to directly."""
    if out.exists() and not out.is_file():
        try:
            with open(out, "w", encoding="utf-8") as fh:
                fh.writelines(text)
        except OSError as exc:
            fail(f"{out}: cannot write: {exc.strerror or exc}")
        return
    tmp = out.with_name(f".{out.name}.{os.getpid()}.part")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.writelines(text)
        os.replace(tmp, out)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        fail(f"{out}: cannot write: {exc.strerror or exc}")
