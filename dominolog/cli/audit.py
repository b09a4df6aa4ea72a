"""``dominolog audit``: the answer to a disputed hand, with its proof, as text, JSON or one HTML page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dominolog.cli.common import (
    MatchNumber,
    MatchStore,
    MatchTarget,
    MinLikelihood,
    ReportFormat,
    ReportHand,
    ReportOut,
    fail,
    match_of,
    write_report,
)
from dominolog.jsontext import dumps
from dominolog.textsafe import shown


def audit(
    target: MatchTarget,
    match: MatchNumber = 1,
    db: MatchStore = None,
    hand: ReportHand = None,
    format: ReportFormat = "text",
    out: ReportOut = None,
    expect_head: Annotated[
        str | None,
        typer.Option(
            "--expect-head",
            help="A fingerprint copied from a score sheet, FP or FP@SEQ: the log must match it.",
            metavar="FP[@SEQ]",
        ),
    ] = None,
    analysis: Annotated[
        Path | None,
        typer.Option(
            "--analysis",
            help="HTML: show this analysis of the match (the JSON `dominolog analyze --format json` writes) beside "
            "its events; it must be of this match as it stands. With --db, the analysis the store keeps is shown "
            "without it.",
            metavar="REVIEW.json",
            show_default=False,
        ),
    ] = None,
    min_likelihood: MinLikelihood = None,
) -> None:
    """Settle a disputed match: the verdict, each violation and possible one with its rule and proof,
    the most likely possible ones first (the share of the hands the log allows in which each is one),
    the scoring worked out, what each player could hold at every event, the chain. The HTML report also
    shows the match's analysis, when there is one (each decision's rank and points lost).
    Exit 0 valid, 1 violations, a fingerprint that does not match or an analysis not of this match,
    2 usage error."""
    from dominolog.audit.document import build_audit, exit_code, without_pictures
    from dominolog.log.expect import ExpectError, parse_expect

    if format not in ("text", "json", "html"):
        fail(f"--format {shown(format, 40)!r}: choose text, json or html")
    if analysis is not None and format != "html":
        fail("--analysis: the analysis is shown in the HTML report (--format html)")
    if expect_head is not None:
        try:
            parse_expect(expect_head)
        except ExpectError as exc:
            fail(shown(str(exc), 300))
    log, _, where = match_of(target, match, db)
    if log.orphan:
        fail(f"{shown(log.source)}: not a match: no match_start line", 1)
    review = None
    if format == "html":
        from dominolog.cli.replay import analysis_or_fail

        review = analysis_or_fail(log, analysis, db, target if db is not None else None)
    doc = build_audit(log, pictures=format == "html", expect=expect_head, only_hand=hand, min_likelihood=min_likelihood)
    if hand is not None and not doc["hands"]:
        fail(f"{where} has no hand {hand}")
    if format == "json":
        text = dumps(without_pictures(doc), indent=1) + "\n"
    elif format == "html":
        from dominolog.audit.html import render_html

        text = render_html(doc, review)
    else:
        from dominolog.audit.text import render_text

        text = render_text(doc)
    write_report(text, out, doc["verdict"]["text"])
    raise typer.Exit(exit_code(doc))
