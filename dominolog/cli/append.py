"""``dominolog append``: append events to a match, for scripts and other front ends.

Each line is appended in order, each durable (committed, or written and fsynced) before the next
line is read: ``my-scorer | dominolog append club-1 -`` stores each event as the scorer writes it,
while the pipe stays open. The recorder's checks apply (:mod:`dominolog.reducer.checks`): a refused
line is reported with its line number and nothing of it is written. Without an id, the first line
creates the match when it is a ``match_start`` (JSON) or a header (the notation): the match is named
by its ``id`` (``[Id]``), or when it gives none after the hash of that first event (``head-...``,
as ``import`` names a match without an id), JSON and notation alike.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dominolog.cli.common import DEFAULT_DB, DbOption, fail, store_or_fail
from dominolog.textsafe import shown

if TYPE_CHECKING:  # imported when the command runs
    from dominolog.recording.begin import Begun
    from dominolog.recording.journal import FileJournal, Journal
    from dominolog.recording.session import Entered, Session


_ONE_LINE = re.compile(r"^line 1, (column \d+)")


def _column_only(message: str) -> str:
    """A notation error in one line of input, naming its column alone (the line is the input's, said
    before it): ``column 4: expected a tile ...``."""
    return _ONE_LINE.sub(r"\1", message)


class Notation(StrEnum):
    json = "json"
    dn = "dn"


@dataclass(slots=True)
class Line:
    """A line given to append: its number (from 1) and text, or why it cannot be read."""

    n: int
    text: str
    error: str | None = None

    @property
    def blank(self) -> bool:
        return self.error is None and not self.text.strip()


def append(
    args: Annotated[
        list[str] | None,
        typer.Argument(
            help="[ID] [EVENT]: the match (not needed with --file, or when the first line is a match_start or "
            "a header, which creates the match) and the event; without EVENT, or with '-', each line of standard "
            "input as it comes.",
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
    """Append events to a match, each durable before the next line is read, with the recorder's checks.
    A refused line (malformed, unknown player, outside a hand, illegal while the hands are known) is
    reported with its line number and nothing of it is written (--as-played writes it anyway). Without
    an ID, a first line that is a match_start or a header creates the match, named by its id (or, when
    it gives none, after its hash: head-...). Exit 0 all appended, 1 a line was refused, 2 the store
    cannot be used or failed under it (what was stored before stays), 4 another writer took the seq
    (nothing more is written)."""
    from dominolog.recording.journal import StoreJournal

    args = list(args or [])
    if len(args) > 2:
        fail("at most two arguments: ID and EVENT")
    match_id, event = _split(args, file is not None)
    single = event is not None and event != "-"
    lines = _given(event, notation)
    first = next((line for line in lines if not line.blank), None)
    if first is None:
        fail("no event given")
    where = "" if single else f"line {first.n}: "
    begun = None
    if match_id is None and file is None:
        begun = _begun(first, notation)
        if begun is None:
            fail("which match? give its ID, or begin with a match_start (or a header)")
        if begun.refused is not None:
            _say(f"{where}refused: {shown(_column_only(begun.refused), 2000)}")
            raise typer.Exit(1)
        match_id = begun.name
    every = itertools.chain([first], lines)
    if file is not None:
        journal: Journal = _file_journal(file, match_id)
        _run(journal, match_id or journal.name, every, notation, seq, as_played, single, begun)
        return
    assert match_id is not None
    with store_or_fail(db) as store:
        _run(StoreJournal(store, match_id), match_id, every, notation, seq, as_played, single, begun)


def _split(args: list[str], with_file: bool) -> tuple[str | None, str | None]:
    if len(args) == 2:
        return args[0], args[1]
    if not args:
        return None, None
    only = args[0]
    if with_file or only == "-" or only.lstrip().startswith(("{", "[")):
        return None, only
    return only, None


def _given(event: str | None, notation: Notation) -> Iterator[Line]:
    """The lines to append: the EVENT argument, or standard input read a line at a time (each line is
    appended before the next is read). A notation header written over several lines (``export --format
    dn`` wraps it) is one line: lines of tags only are held until a line that is not."""
    lines = [Line(1, event)] if event is not None and event != "-" else _stdin_lines()
    return _headers_joined(lines) if notation is Notation.dn else iter(lines)


def _stdin_lines() -> Iterator[Line]:
    """Standard input, a line at a time, as soon as each line has come: a line longer than the format
    allows is never held whole, and one that is not UTF-8 is given with the reason."""
    from dominolog.log.reader import binary_lines, long_line

    for n, (data, length, digest) in enumerate(binary_lines(sys.stdin.buffer), 1):
        if digest is not None:
            yield Line(n, "", f"not an event of the format: {long_line(data, length, digest, n, n).error}")
            continue
        try:
            yield Line(n, data.rstrip(b"\n").decode("utf-8"))
        except UnicodeDecodeError as exc:
            yield Line(n, "", f"not UTF-8 (bad byte at column {exc.start + 1})")


def _headers_joined(lines: Iterable[Line]) -> Iterator[Line]:
    from dominolog.recording.begin import headers_joined

    return headers_joined(
        lines, lambda line: line.text if line.error is None else None, lambda a, b: Line(a.n, f"{a.text} {b.text}")
    )


def _begun(first: Line, notation: Notation) -> Begun | None:
    """The match the first line begins, for an append given no id (:func:`dominolog.recording.begin.begun_by`)."""
    from dominolog.recording.begin import begun_by

    return None if first.error is not None else begun_by(first.text, notation is Notation.dn)


def _file_journal(path: Path, match_id: str | None) -> FileJournal:
    from dominolog.recording.journal import FileJournal

    if path.is_dir():
        fail(f"{shown(path)}: is a folder, not a JSON Lines file")
    try:
        return FileJournal(path)
    except OSError as exc:
        fail(f"{shown(path)}: cannot be read ({exc.strerror})")


def _say(message: str) -> None:
    """A reason on standard error, out before anything printed after it (the summary comes after)."""
    sys.stdout.flush()
    sys.stderr.write(f"dominolog: {message}\n")
    sys.stderr.flush()


def _run(
    journal: Journal,
    name: str,
    lines: Iterable[Line],
    notation: Notation,
    seq: int | None,
    as_played: bool,
    single: bool,
    begun: Begun | None,
) -> None:
    """Append each line as it comes; reasons on standard error as they come, then the summary."""
    from dominolog.recording.session import Session
    from dominolog.store import DamagedStoreError

    session = Session(journal, now=None, check=not as_played)
    refused = 0
    written: list[int] = []
    notes: list[str] = []
    stop = 0
    try:
        for line in lines:
            if line.blank:
                continue
            where = "" if single else f"line {line.n}: "
            if line.error is not None:
                _say(f"{where}refused: {shown(line.error, 2000)}; nothing was written")
                refused += 1
                continue
            if notation is Notation.dn:
                done = session.enter(line.text)
            else:
                done = _enter_json(session, line.text, seq if not written else None)
            if begun is not None and begun.made and not written and done.written:
                typer.echo(f"{shown(name)}: a new match, named after the hash of its {begun.what} (which gives no id)")
            written.extend(s for s, _ in done.written)
            notes.extend(
                f"{i.code}: {i.message}" if single else f"seq {i.seq}: {i.code}: {i.message}" for i in done.kept
            )
            if done.unusable is not None:  # the store or file cannot be written: nothing more will be
                _say(f"{where}{shown(str(done.unusable), 2000)}")
                stop = 1 if isinstance(done.unusable, DamagedStoreError) else 2
                break
            if done.stopped is not None:
                why = _column_only(done.stopped) if notation is Notation.dn else done.stopped
                _say(f"{where}{'conflict' if done.conflict else 'refused'}: {shown(why, 2000)}")
                if done.conflict:
                    stop = 4
                    break
                refused += 1
    except KeyboardInterrupt:
        _say("interrupted")
        stop = 130
    if not stop or written:  # a stop that wrote nothing has said so ("nothing was written")
        _summary(session, name, written, refused, notes, single)
    if stop or refused:
        raise typer.Exit(stop or 1)


def _summary(session: Session, name: str, written: list[int], refused: int, notes: list[str], single: bool) -> None:
    """What was stored, after the reasons: one line for one event given as an argument, else the count,
    the seqs and the match's head (or that it has no event yet), and what the rules said of them."""
    if single and len(written) == 1 and not refused:
        said = "".join(f"; {x}" for x in notes)
        typer.echo(f"{shown(name)}: seq {written[0]} stored{shown(said, 2000)}")
        return
    span = "" if not written else f" (seq {written[0]})" if len(written) == 1 else f" (seq {written[0]}-{written[-1]})"
    head = f"head {session.fingerprint}" if session.reducer.events else "the match has no event yet"
    typer.echo(
        f"{shown(name)}: {len(written)} event{'s' * (len(written) != 1)} stored{span}, {refused} refused; {head}"
    )
    for x in notes:
        typer.echo(f"  kept: {shown(x, 2000)}")


def _enter_json(session: Session, text: str, seq: int | None) -> Entered:
    from dominolog.recording.session import Entered

    out = Entered()
    session.write_line(text.strip().encode("utf-8"), out, expected_seq=seq)
    return out
