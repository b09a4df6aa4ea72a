"""``dominolog append``: append events to a match, for scripts and other front ends.

Each line is appended in order, each durable before the next is read, with the
recorder's checks (:mod:`dominolog.reducer.checks`): a refused line is reported with its
line number and nothing of it is written. A first line that is a ``match_start`` (or a
notation header) creates the match.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dominolog.cli.common import DEFAULT_DB, DbOption, fail, store_or_fail
from dominolog.textsafe import shown

if TYPE_CHECKING:  # imported when the command runs
    from dominolog.recording.journal import FileJournal, Journal
    from dominolog.recording.session import Entered, Session


class Notation(StrEnum):
    json = "json"
    dn = "dn"


def append(
    args: Annotated[
        list[str] | None,
        typer.Argument(
            help="[ID] [EVENT]: the match (not needed with --file, or when the first event is a match_start "
            "or header with an id) and the event; without EVENT, or with '-', every line of standard input.",
            show_default=False,
            metavar="[ID] [EVENT|-]",
        ),
    ] = None,
    db: DbOption = DEFAULT_DB,
    file: Annotated[
        Path | None,
        typer.Option("--file", help="Append to the last match of this JSON Lines file instead of the store."),
    ] = None,
    notation: Annotated[
        Notation, typer.Option("--format", help="json: one event object per line; dn: the notation (docs/notation.md).")
    ] = Notation.json,
    as_played: Annotated[
        bool,
        typer.Option(
            "--as-played",
            help="Write the events even where the rules refuse them (it happened at the table); verify reports them.",
        ),
    ] = False,
    seq: Annotated[
        int | None,
        typer.Option(min=1, help="The seq the (first) event must get; refused if another writer took it (exit 4)."),
    ] = None,
) -> None:
    """Append events to a match, each durable, with the recorder's checks. A refused line (malformed,
    unknown player, outside a hand, illegal while the hands are known) is reported with its line
    number and nothing of it is written (--as-played writes it anyway). Exit 0 all appended, 1 a
    line was refused, 4 another writer took the seq (nothing more is written)."""
    from dominolog.recording.journal import StoreJournal

    args = list(args or [])
    if len(args) > 2:
        fail("at most two arguments: ID and EVENT")
    match_id, event = _split(args, file is not None)
    lines = _lines(event)
    if not any(text.strip() for _, text in lines):
        fail("no event given")
    if match_id is None and file is None:
        match_id = _id_from(lines, notation)
        if match_id is None:
            fail("which match? give its ID, or begin with a match_start (or a header) that has an id")
    if file is not None:
        journal: Journal = _file_journal(file, match_id)
        _run(journal, match_id or journal.name, lines, notation, seq, as_played)
        return
    assert match_id is not None
    with store_or_fail(db) as store:
        _run(StoreJournal(store, match_id), match_id, lines, notation, seq, as_played)


def _split(args: list[str], with_file: bool) -> tuple[str | None, str | None]:
    if len(args) == 2:
        return args[0], args[1]
    if not args:
        return None, None
    only = args[0]
    if with_file or only == "-" or only.lstrip().startswith(("{", "[")):
        return None, only
    return only, None


def _lines(event: str | None) -> list[tuple[int, str]]:

    if event is not None and event != "-":
        return [(1, event)]
    data = sys.stdin.buffer.read()
    out = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        try:
            out.append((n, raw.decode("utf-8")))
        except UnicodeDecodeError as exc:
            out.append((n, f"\x00not UTF-8 (bad byte at column {exc.start + 1})"))
    return out


def _id_from(lines: list[tuple[int, str]], notation: Notation) -> str | None:
    """The id of the match the first line begins (a match_start's id, or a header's [Id])."""
    from dominolog.log.hashchain import chain_hash_bytes
    from dominolog.log.notation import parse
    from dominolog.log.reader import MatchLog, decode_line
    from dominolog.reducer import record_canon
    from dominolog.store import match_id_of

    first = next((text for _, text in lines if text.strip()), "")
    if notation is Notation.dn:
        for action in parse(first).actions:
            if action.kind == "match_start":
                mid = action.fields.get("id")
                return mid if isinstance(mid, str) else None
        return None
    try:
        rec = decode_line(first.strip().encode("utf-8"), 1, 1)
    except UnicodeEncodeError:
        return None
    if rec.event is None or rec.event.type != "match_start":
        return None
    return match_id_of(MatchLog("-", 1, [rec]), chain_hash_bytes("", record_canon(rec)))


def _file_journal(path: Path, match_id: str | None) -> FileJournal:
    from dominolog.recording.journal import FileJournal

    if path.is_dir():
        fail(f"{shown(path)}: is a folder, not a JSON Lines file")
    try:
        return FileJournal(path)
    except OSError as exc:
        fail(f"{shown(path)}: cannot be read ({exc.strerror})")


def _run(
    journal: Journal,
    name: str,
    lines: list[tuple[int, str]],
    notation: Notation,
    seq: int | None,
    as_played: bool,
) -> None:
    from dominolog.recording.session import Session
    from dominolog.store import DamagedStoreError

    session = Session(journal, now=None, check=not as_played)
    refused = 0
    written: list[int] = []
    notes: list[str] = []
    single = len([t for _, t in lines if t.strip()]) == 1
    for n, text in lines:
        if not text.strip():
            continue
        where = f"line {n}: " if not single else ""
        if text.startswith("\x00"):
            sys.stderr.write(f"dominolog: {where}refused: {text[1:]}; nothing was written\n")
            refused += 1
            continue
        if notation is Notation.dn:
            done = session.enter(text)
        else:
            done = _enter_json(session, text, seq if not written else None)
        written.extend(s for s, _ in done.written)
        notes.extend(f"{i.code}: {i.message}" if single else f"seq {i.seq}: {i.code}: {i.message}" for i in done.kept)
        if done.unusable is not None:  # the store or file cannot be written: nothing more will be
            fail(shown(str(done.unusable), 2000), 1 if isinstance(done.unusable, DamagedStoreError) else 2)
        if done.stopped is not None:
            sys.stderr.write(
                f"dominolog: {where}{'conflict' if done.conflict else 'refused'}: {shown(done.stopped, 2000)}\n"
            )
            if done.conflict:
                raise typer.Exit(4)
            refused += 1
    if single and len(written) == 1 and not refused:
        said = "".join(f"; {x}" for x in notes)
        typer.echo(f"{shown(name)}: seq {written[0]} stored{shown(said, 2000)}")
    else:
        span = f" (seq {written[0]}-{written[-1]})" if written else ""
        typer.echo(
            f"{shown(name)}: {len(written)} event{'s' * (len(written) != 1)} stored{span}, {refused} refused; "
            f"head {session.fingerprint}"
        )
        for x in notes:
            typer.echo(f"  kept: {shown(x, 2000)}")
    if refused:
        raise typer.Exit(1)


def _enter_json(session: Session, text: str, seq: int | None) -> Entered:
    from dominolog.recording.session import Entered

    out = Entered()
    session.write_line(text.strip().encode("utf-8"), out, expected_seq=seq)
    return out
