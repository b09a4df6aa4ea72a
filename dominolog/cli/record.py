"""``dominolog record``: the recorder screen, one entry line of notation at a time.

``dominolog record --variant V --players Ana,Ben [--option k=v] [--id ID] [--meta k=v]`` starts a
match (its ``match_start`` written first, with ``seq`` and ``hash``); ``dominolog record ID``
resumes one of the store, ``dominolog record --file F.jsonl`` the last match of a file. Each
event is durable before the screen shows it (the journal's doing).
"""

from __future__ import annotations

import secrets
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dominolog.cli.common import DEFAULT_DB, DbOption, db_name, fail, key_values, store_or_fail
from dominolog.textsafe import shown

if TYPE_CHECKING:  # imported when the command runs
    from dominolog.recording.journal import Journal, StoreJournal
    from dominolog.store import Store


def new_id(now: datetime | None = None) -> str:
    """A fresh match id: ``rec-2026-11-24-1530-3fa2`` (the local date and time, 4 random hex digits)."""
    return (now or datetime.now()).strftime("rec-%Y-%m-%d-%H%M-") + secrets.token_hex(2)


def _start_event(variant: str, players: str, options: dict[str, Any], match_id: str, meta: dict[str, Any]) -> dict:
    from dominolog.recording.session import Session, utc_now

    event: dict[str, Any] = {
        "type": "match_start",
        "variant": variant,
        "players": [p.strip() for p in players.split(",")],
    }
    if options:
        event["options"] = options
    event["id"] = match_id
    if meta:
        event["meta"] = meta
    event["at"] = utc_now()
    return Session.start_event(event)


def _refused(start: dict[str, Any]) -> str | None:
    """Why a journal would refuse this match_start (checked before a store is created), or None."""
    from dominolog.log.reader import decode_line
    from dominolog.recording.notation import line_bytes
    from dominolog.reducer import MatchReducer, refusal_message, refusals

    rec = decode_line(line_bytes(start), 1, 1)
    if rec.error is not None or rec.event is None:
        return f"not an event of the format: {rec.error or 'not an event'}"
    _, found, _ = MatchReducer("<new match>").attempt(rec)
    refused = refusals(found)
    return refusal_message(refused) if refused else None


def _file_ids(path: Path) -> set[str]:
    from dominolog.log.reader import PathError, iter_matches

    try:
        logs = list(iter_matches(path))
    except PathError as exc:
        fail(shown(str(exc), 2000))
    ids = set()
    for log in logs:
        first = log.records[0].obj if log.records and not log.orphan else None
        if isinstance(first, dict) and isinstance(first.get("id"), str):
            ids.add(first["id"])
    return ids


def _check_file(path: Path) -> None:
    from dominolog.recording.notation import is_dn

    if is_dn(path):
        fail(f"{shown(path)}: the recorder writes JSON Lines (a .jsonl file), not the .dn notation")
    if path.exists() and not path.is_file():
        fail(f"{shown(path)}: not a regular file")


def _resume_store(store: Store, db: str, match_id: str) -> StoreJournal:
    from dominolog.recording.journal import StoreJournal

    if not store.has_match(match_id):
        close = store.close_ids(match_id)
        hint = f"; did you mean {', '.join(shown(c, 100) for c in close)}?" if close else ""
        start = "(start one with --variant and --players)"
        fail(f"{db_name(db)}: no match {shown(match_id, 100)!r} to resume{hint} {start}")
    return StoreJournal(store, match_id)


def record(
    ctx: typer.Context,
    match_id: Annotated[
        str | None,
        typer.Argument(help="The match of the store to resume (its id).", show_default=False, metavar="MATCH"),
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant", help="Start a match of this variant, by name (an unknown one is refused with the known ones)."
        ),
    ] = None,
    players: Annotated[
        str | None, typer.Option("--players", help="The players of a new match, in seat order: Ana,Ben.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help="A rule option of a new match, KEY=VALUE (a JSON value, else text): target=100; repeatable.",
        ),
    ] = None,
    match_id_option: Annotated[
        str | None,
        typer.Option("--id", help="The id of a new match (default: rec-DATE-TIME and 4 random hex digits)."),
    ] = None,
    meta: Annotated[
        list[str] | None,
        typer.Option("--meta", help="About a new match, KEY=VALUE (event, site, table, recorder, ...); repeatable."),
    ] = None,
    db: DbOption = DEFAULT_DB,
    file: Annotated[
        Path | None,
        typer.Option("--file", help="Record into this JSON Lines file instead of the store (resume: its last match)."),
    ] = None,
) -> None:
    """Record a match at the table: the recorder screen. Type what the table does in the notation
    (docs/notation.md: 65R, -, +?, Ana=[21 10], * ...); each entry is written durably before it is
    shown. Start a match with --variant and --players; resume one with its id (or --file). Ctrl+Q quits."""
    from dominolog.recording.journal import FileJournal, StoreJournal

    starting = variant is not None or players is not None
    start: dict[str, Any] | None = None
    # (Typer vendors click: the source is compared by name)
    if file is not None and getattr(ctx.get_parameter_source("db"), "name", "") == "COMMANDLINE":
        fail("--db and --file: record into one of them")
    if starting:
        if variant is None or players is None:
            fail("a new match needs both --variant and --players (Ana,Ben)")
        if match_id is not None:
            fail(
                f"{shown(match_id, 100)!r}: a new match takes its id from --id "
                "(to resume a match, give its id without --variant and --players)"
            )
    else:
        if match_id_option is not None or option or meta:
            fail("--id, --option and --meta are for a new match (with --variant and --players)")
        if match_id is None and file is None:
            fail("give the match to resume (dominolog record ID) or start one (--variant V --players Ana,Ben)")
        if match_id is not None and file is not None:
            fail("--file resumes the file's last match: give no match id with it")
    mid = (match_id_option or new_id()) if starting else None
    if starting:
        assert variant is not None and players is not None and mid is not None
        start = _start_event(
            variant, players, key_values(option, "--option", True), mid, key_values(meta, "--meta", False)
        )
        why = _refused(start)
        if why is not None:
            fail(f"refused: {shown(why, 2000)}; nothing was written", 1)
    if file is not None:
        _check_file(file)
        if starting:
            assert mid is not None
            if file.exists() and mid in _file_ids(file):
                fail(f"{shown(file)} already holds a match {shown(mid, 100)!r}: resume it with --file alone")
            journal: Journal = FileJournal(file)
        else:
            if not file.is_file():
                fail(f"{shown(file)}: no such file")
            journal = FileJournal(file)
            if journal.reducer.events == 0:
                fail(f"{shown(file)}: no match to resume (start one with --variant and --players)")
        _run(journal, start, shown(file.name))
        return
    with store_or_fail(db, create=starting, write=True) as store:
        if starting:
            assert mid is not None
            if store.has_match(mid):
                fail(f"{db_name(db)}: a match {shown(mid, 100)!r} is there already: resume it with dominolog record ID")
            journal = StoreJournal(store, mid)
        else:
            assert match_id is not None
            mid = match_id
            journal = _resume_store(store, db, mid)
        _run(journal, start, shown(mid, 100))


def _run(journal: Journal, start: dict[str, Any] | None, title: str) -> None:
    """Write the match_start of a new match (``start``), then open the recorder screen."""
    from dominolog.recording.session import Session

    session = Session(journal)
    if start is not None:
        done = session.enter_event(start)
        if done.stopped is not None:
            fail(f"refused: {shown(done.stopped, 2000)}", 1)
    from dominolog.tui.recorder_app import RecorderApp  # Textual is imported only when the screen opens

    app = RecorderApp(session, title)
    app.run()
    if app.return_code:  # the screen failed (Textual has printed why)
        fail(f"the recorder stopped on an error (exit status {app.return_code})", app.return_code)
    where = shown(journal.name, 300)
    count = session.reducer.events
    typer.echo(f"{title}: {count} event{'s' * (count != 1)} in {where}; head {session.fingerprint}")
