"""``dominolog schema``: write the JSON Schema files of the log format."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dominolog.cli.common import fail


def schema(
    out: Annotated[Path, typer.Option(help="Folder to write the schema files into.")] = Path("schemas"),
) -> None:
    """Write one JSON Schema per event type, and one for a whole log line."""
    from dominolog.schema import write_schemas

    try:
        written = write_schemas(out)
    except OSError as exc:
        fail(f"{out}: cannot write: {exc.strerror or exc}")
    for path in written:
        typer.echo(str(path))
