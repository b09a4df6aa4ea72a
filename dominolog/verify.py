"""Verifying files: every match of every file, as reports and as FORMAT.md's JSON document."""

from __future__ import annotations

import dataclasses
import gc
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

from dominolog.jsontext import c1_escaped
from dominolog.log.parts import Part, parts_of, read_part
from dominolog.log.reader import MatchLog, PathError, Record, expand_paths, iter_matches
from dominolog.reducer import MatchReport, verify_match
from dominolog.reducer.notation import iter_matches_any
from dominolog.textsafe import shown


@contextmanager
def batch_gc() -> Iterator[None]:
    """Collect garbage less often while a batch runs.

    Verifying allocates many short-lived objects (decoded lines, events) and keeps
    no reference cycles worth finding mid-batch; CPython's default threshold of 700
    allocations makes it scan the young generation every hundred events or so.
    The command line wraps its work in this (about 8% faster); the thresholds are
    restored afterwards.
    """
    old = gc.get_threshold()
    gc.set_threshold(50_000, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*old)


def verify_paths(paths: Iterable[Path | str], likelihoods: bool = True) -> Iterator[MatchReport]:
    """Reports for every match in the files and folders given, JSON Lines or ``.dn`` (PathError for a
    missing path); ``likelihoods`` False: the unverified rules without their likelihood
    (:attr:`dominolog.reducer.MatchReducer.likelihoods`)."""
    for path in expand_paths(paths):
        for log in iter_matches_any(path):
            yield verify_match(log, likelihoods)


def expect_check(records: list[Record], head: str, expect: str) -> dict[str, Any]:
    """The chain of one match against a fingerprint (``--expect-head FP[@SEQ]``): ``{"given", "ok",
    "message"}``."""
    from dominolog.log.expect import check_expect
    from dominolog.reducer.chain import HashChain

    chain = HashChain()
    heads = {}
    for rec in records:
        chain.check(rec)
        heads[rec.seq] = chain.head
    return check_expect(heads, head, expect)


def match_report(
    log: MatchLog, expect: str | None = None, likelihoods: bool = True
) -> tuple[MatchReport, dict[str, Any] | None]:
    """One match checked, with its fingerprint check when ``expect`` is given (else None); ``likelihoods``
    False: its unverified rules without their likelihood."""
    r = verify_match(log, likelihoods)
    return r, expect_check(log.records, r.head, expect) if expect is not None else None


def file_reports(
    path: Path | str,
    expect: str | None = None,
    name: str | None = None,
    part: Part | None = None,
    likelihoods: bool = True,
) -> list[tuple[MatchReport, dict[str, Any] | None]]:
    """Every match of one file checked, in the file's order (what a process of ``verify --jobs`` and a
    Dask worker of ``verify --dask`` run: one call a file, or a part of one: ``part``, from
    :func:`file_parts`). ``name``: what the reports (``source``) and a PathError call the file when
    ``path`` only says where to read it (a worker is given the absolute path; the reports name the file
    as the command line did). The reports pickle. ``likelihoods`` False: the unverified rules without
    their likelihood (what ``verify`` prints without ``--verbose`` does not show it)."""
    out = []
    try:
        for log in iter_matches_any(path) if part is None else part_matches(Path(path), part):
            if name is not None:
                log.source = name
            out.append(match_report(log, expect, likelihoods))
    except PathError as exc:
        text = str(exc)
        if name is None or not text.startswith(str(path)):
            raise
        raise PathError(name + text[len(str(path)) :]) from None
    return out


def file_parts(files: list[Path], jobs: int) -> list[tuple[Path, Part | None]]:
    """The files to check in ``jobs`` (more than one) processes, a big JSON Lines file cut into parts of
    whole matches (:mod:`dominolog.log.parts`), so that one big file keeps every process busy; ``None``:
    the whole file."""
    sizes = {f: f.stat().st_size for f in files if f.is_file()}
    total = max(sum(sizes.values()), 1)
    out: list[tuple[Path, Part | None]] = []
    for f in files:
        parts: list[Part] = []
        if f in sizes and f.suffix != ".dn":
            try:
                parts = parts_of(f, max(1, 4 * jobs * sizes[f] // total))
            except (OSError, ValueError):  # unreadable: checked whole, where the reader says why
                parts = []
        if len(parts) > 1:
            out.extend((f, p) for p in parts)
        else:
            out.append((f, None))
    return out


def task_bytes(path: Path, part: Part | None) -> int:
    """How many bytes of the file one task of :func:`file_parts` reads (for the progress bar)."""
    if part is not None:
        return part[1] - part[0]
    return path.stat().st_size if path.is_file() else 0


def part_matches(path: Path, part: Part) -> Iterator[MatchLog]:
    """The matches of one part of a JSON Lines file, their lines numbered as in the whole file."""
    try:
        data = read_part(path, part)
    except OSError as exc:
        raise PathError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return iter_matches(path, data, part[2])


def above(r: MatchReport, least: float) -> tuple[MatchReport, int]:
    """The report without its possible violations less likely than ``least`` (``verify
    --min-likelihood``), and how many were left out. Violations, and unverified rules whose
    likelihood is not known, stay."""
    kept = [u for u in r.unverified if u.likelihood is None or u.likelihood.share >= least]
    hidden = len(r.unverified) - len(kept)
    return (dataclasses.replace(r, unverified=kept) if hidden else r), hidden


def verify_document(reports: Iterable[MatchReport]) -> dict[str, Any]:
    return {"matches": [r.as_dict() for r in reports]}


def _indented(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)`` with the C1 controls escaped
    (:func:`~dominolog.jsontext.c1_escaped`), written by orjson when it can (several times faster, and
    without the pure-Python encoder's many small strings that made the memory of a long ``verify --json``
    creep up); the standard library for what orjson refuses or writes otherwise (a float orjson writes
    otherwise, such as ``1e-05``; a lone surrogate, an integer beyond 64 bits). A property test holds
    them to the same text."""
    if not _odd_float(value):
        try:
            return c1_escaped(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode("utf-8"))
        except (TypeError, orjson.JSONEncodeError):
            pass
    return c1_escaped(json.dumps(value, indent=2, ensure_ascii=False))


def _odd_float(value: Any) -> bool:
    """Whether ``value`` holds a float that orjson writes otherwise than ``json`` (which writes
    ``repr``): ``1e-05``, ``1e+16``, ``NaN``. A likelihood's share (``0.4231``) is not one."""
    if isinstance(value, float):
        return orjson.dumps(value) != repr(value).encode()
    if isinstance(value, dict):
        return any(_odd_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_odd_float(v) for v in value)
    return False


def document_chunks(matches: Iterable[dict[str, Any]], build: str | None = None) -> Iterator[str]:
    """``json.dumps({"matches": [...]}, indent=2, ensure_ascii=False)`` with the C1 controls escaped,
    written a match at a time (so ``verify --json`` keeps no report once it is written): the same text,
    byte for byte. With ``build`` (``verify --json``: :func:`dominolog.build_info.described`), the
    document begins with it, ``{"build": ..., "matches": [...]}``, a line of its own."""
    start = "{\n" + (f'  "build": {json.dumps(build, ensure_ascii=False)},\n' if build is not None else "")
    first = True
    for m in matches:
        body = _indented(m).replace("\n", "\n    ")
        yield (start + '  "matches": [\n    ' if first else ",\n    ") + body
        first = False
    yield start + '  "matches": []\n}' if first else "\n  ]\n}"


def _winner(w: Any) -> str:
    if w is None:
        return "none"
    return "+".join(w) if isinstance(w, list) else str(w)


def unverified_reasons(r: MatchReport) -> Counter[str]:
    """The match's unverified rules counted by why they could not be checked (each one's ``reason``,
    e.g. "draws not seen leave open which tiles were held then"; "hidden tiles" when it says no more)."""
    return Counter(v.reason or "hidden tiles" for v in r.unverified)


def report_lines(r: MatchReport, verbose: bool = False) -> list[str]:
    """The readable form: one line for the match, one per violation; the unverified rules as one line
    counting them by reason, or one line each with ``verbose``. Text from the log is shown escaped."""
    status = "OK" if r.valid else "INVALID"
    players = " vs ".join(shown(p, 40) for p in r.players) or "-"
    totals = ", ".join(f"{shown(p, 40)} {v}" for p, v in r.totals.items()) or "-"
    state = "complete" if r.complete else "incomplete"
    head = f"{r.head[:12]}..."
    source = shown(r.source, 500)
    lines = [
        f"{status} {source}:{r.line} {shown(r.variant or '?')} {players} | {len(r.hands)} "
        f"hand{'s' * (len(r.hands) != 1)}, totals {totals}, winner {shown(_winner(r.winner), 90)} "
        f"| {state} | head {head}"
    ]
    for v in r.violations:
        lines.append(f"{source}:{v.line}: seq {v.seq}: {v.code}: {shown(v.message, 1000)}")
    if verbose:
        for v in r.unverified:
            lines.append(f"{source}:{v.line}: seq {v.seq}: unverified {v.code}: {shown(v.message, 1000)}")
    elif r.unverified:
        why = "; ".join(
            f"{n} {shown(reason, 200)}" if len(reasons) > 1 else shown(reason, 200)
            for reasons in [unverified_reasons(r)]
            for reason, n in reasons.most_common()
        )
        n = len(r.unverified)
        lines.append(f"  {n} rule{'s' * (n != 1)} not checkable: {why} (--verbose lists them)")
    return lines
