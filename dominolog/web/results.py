"""The results the command line writes, served from the same functions (no figure of their own):

- ``/m/{id}/sheet``: the score sheet (``dominolog export ID --db DB --format html``), its audit
  report linked as ``/m/{id}/audit`` for a match with violations;
- ``/m/{id}/audit``: the audit report (``dominolog audit ID --db DB --format html``), with the
  analysis the store keeps beside its events;
- ``/m/{id}/analysis``: the analysis the store keeps (``dominolog analyze ID --db DB --format html``
  writes it there); none kept yet: ``404`` with the command that makes it (an analysis can take
  minutes: it is not started by a reader);
- ``GET /api/matches/{id}/audit?format=text|json|html``, ``GET /api/matches/{id}/export?format=...``,
  ``GET /api/standings?format=...``: the command's output byte for byte.

Each page the CLI writes whole carries its style sheet and script inline: it is served with a policy
naming their hashes (:func:`~dominolog.web.shared.inline_csp`), nothing else inline. Each result is a
plain function of the store and the match id (``*_of``), the routes only call it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response

from dominolog.web.ids import MatchId
from dominolog.web.shared import inline_csp

if TYPE_CHECKING:
    from dominolog.log.reader import MatchLog
    from dominolog.store import Store

router = APIRouter()
AUDIT_FORMATS = ("text", "json", "html")
EXPORT_FORMATS = ("jsonl", "csv", "json", "svg", "text", "dn", "html")
MEDIA = {
    "text": "text/plain; charset=utf-8",
    "json": "application/json",
    "html": "text/html; charset=utf-8",
    "jsonl": "application/x-ndjson",
    "csv": "text/csv; charset=utf-8",
    "svg": "image/svg+xml",
    "dn": "text/x-dominolog-notation; charset=utf-8",
}


def _store(request: Request) -> Store:
    return request.app.state.web.stores.get()  # type: ignore[no-any-return]


def _log(store: Store, match_id: str) -> MatchLog:
    from dominolog.log.reader import MatchLog

    if not store.has_match(match_id):
        raise HTTPException(404, "no such match")
    return MatchLog(f"{store.path}#{match_id}", 1, [rec for rec, _ in store.records(match_id)])


def _html(page: str) -> Response:
    return Response(page, media_type=MEDIA["html"], headers={"Content-Security-Policy": inline_csp(page)})


def _choose(value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        from dominolog.textsafe import shown

        raise HTTPException(422, f"--format {shown(value, 40)!r}: choose {', '.join(allowed[:-1])} or {allowed[-1]}")
    return value


def audit_of(
    store: Store, match_id: str, fmt: str = "html", hand: int | None = None, min_likelihood: float | None = None
) -> str:
    """What ``dominolog audit ID --db DB --format FMT`` writes (the HTML with the analysis the store
    keeps of the match as it stands)."""
    from dominolog.audit.document import build_audit, without_pictures

    log = _log(store, match_id)
    if log.orphan:
        raise HTTPException(422, "not a match: no match_start line")
    doc = build_audit(log, pictures=fmt == "html", only_hand=hand, min_likelihood=min_likelihood)
    if hand is not None and not doc["hands"]:
        raise HTTPException(422, f"match {match_id} has no hand {hand}")
    if fmt == "json":
        from dominolog.jsontext import dumps

        return dumps(without_pictures(doc), indent=1) + "\n"
    if fmt == "html":
        from dominolog.analysis.shown import ReviewError, head_of, kept_shown
        from dominolog.audit.html import render_html

        try:
            review = kept_shown(store, match_id, head_of(log))[0]
        except ReviewError:
            review = None  # (the command says so on stderr, and shows the report without it)
        return render_html(doc, review)
    from dominolog.audit.text import render_text

    return render_text(doc)


def sheet_of(store: Store, match_id: str) -> str:
    """The score sheet ``dominolog export ID --db DB --format html`` writes; a match with violations
    links its audit report as served (``audit``, beside the sheet's address)."""
    from dominolog.club.sheet import render_sheet, sheet_summary

    records = _log(store, match_id).records
    summary = sheet_summary(records, match_id, match_id)
    return render_sheet(summary, "audit" if summary.violations and records else None)


def analysis_of(store: Store, match_id: str) -> str:
    """The page ``dominolog analyze ID --db DB --format html`` writes, from the analysis the store keeps
    for the match as it stands (404 saying how to make it when none is kept)."""
    from dominolog.analysis.cache import VERSION, settings_for
    from dominolog.analysis.results import review_from_dict
    from dominolog.analysis.review_html import render_html

    if not store.has_match(match_id):
        raise HTTPException(404, "no such match")
    row = next(r for r in store.list_matches() if r["id"] == match_id)
    kept = store.analysis(match_id, row["head"], VERSION, settings_for(row["variant"]))
    if kept is not None:
        try:
            return render_html(review_from_dict(kept))
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # damaged behind the store's back: as if none were kept
    raise HTTPException(
        404, "no analysis of this match as it stands is kept yet: dominolog analyze ID --db DB makes it"
    )


def export_of(
    store: Store, match_id: str, fmt: str, scored: bool = False, long: bool = False, at: int | None = None
) -> bytes:
    """What ``dominolog export ID --db DB --format FMT`` writes to standard output (the score sheet as
    :func:`sheet_of` serves it)."""
    from dominolog.export import NoPicture, export_chunks, table_picture
    from dominolog.recording.notation import NotationWriteError

    if long and fmt != "csv":
        raise HTTPException(422, f"--long gives one CSV row per hand and player: it works with --format csv, not {fmt}")
    if scored and fmt != "jsonl":
        raise HTTPException(422, f"--scored rewrites the log's claims: it works with --format jsonl, not {fmt}")
    if at is not None and fmt not in ("svg", "text"):
        raise HTTPException(422, f"--at picks the event to draw: it works with --format svg or text, not {fmt}")
    if fmt == "html":
        return sheet_of(store, match_id).encode()
    log = _log(store, match_id)
    if fmt in ("svg", "text"):
        try:
            return table_picture(match_id, log.records, at, svg=fmt == "svg").encode()
        except NoPicture as exc:
            raise HTTPException(422, str(exc)) from None

    class One:
        name = match_id
        records = log.records

        def lines(self) -> list[bytes]:
            return list(store.lines(match_id))

    try:
        return b"".join(export_chunks([One()], fmt, scored, long))
    except NotationWriteError as exc:
        from dominolog.textsafe import shown

        raise HTTPException(422, f"cannot write the notation: {shown(str(exc), 2000)}") from None


def standings_of(
    store: Store,
    fmt: str = "text",
    variant: str | None = None,
    meta: list[str] | None = None,
    since: str | None = None,
    until: str | None = None,
    include_invalid: bool = False,
    loss: bool = False,
) -> str:
    """What ``dominolog standings --db DB --format FMT`` (and its filters) writes to a file or a pipe."""
    from dominolog.club.standings import standings
    from dominolog.club.standings_query import FORMATS, filters_of, rendered, store_summaries

    _choose(fmt, FORMATS)
    try:
        filters = filters_of(variant, meta, since, until)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    summaries, analyses, _ = store_summaries(store, loss)
    return rendered(standings(summaries, filters, include_invalid, analyses if loss else None), fmt)


@router.get("/m/{match_id}/audit", include_in_schema=False)
def audit_page(request: Request, match_id: MatchId) -> Response:
    return _html(audit_of(_store(request), match_id))


@router.get("/m/{match_id}/sheet", include_in_schema=False)
def sheet_page(request: Request, match_id: MatchId) -> Response:
    return _html(sheet_of(_store(request), match_id))


@router.get("/m/{match_id}/analysis", include_in_schema=False)
def analysis_page(request: Request, match_id: MatchId) -> Response:
    return _html(analysis_of(_store(request), match_id))


@router.get("/api/matches/{match_id}/audit", summary="The audit report (`dominolog audit ID --db DB --format F`)")
def audit_api(
    request: Request,
    match_id: MatchId,
    format: str = "text",
    hand: Annotated[int | None, Query(ge=1)] = None,
    min_likelihood: Annotated[float | None, Query(ge=0.0, le=1.0)] = None,
) -> Response:
    fmt = _choose(format, AUDIT_FORMATS)
    text = audit_of(_store(request), match_id, fmt, hand, min_likelihood)
    return _html(text) if fmt == "html" else Response(text, media_type=MEDIA[fmt])


@router.get("/api/matches/{match_id}/export", summary="The match exported (`dominolog export ID --db DB --format F`)")
def export_api(
    request: Request,
    match_id: MatchId,
    format: str = "jsonl",
    scored: bool = False,
    long: bool = False,
    at: Annotated[int | None, Query(ge=1)] = None,
) -> Response:
    fmt = _choose(format, EXPORT_FORMATS)
    data = export_of(_store(request), match_id, fmt, scored, long, at)
    return _html(data.decode()) if fmt == "html" else Response(data, media_type=MEDIA[fmt])


@router.get("/api/standings", summary="The standings (`dominolog standings --db DB --format F` and its filters)")
def standings_api(
    request: Request,
    format: str = "text",
    variant: str | None = None,
    meta: Annotated[list[str] | None, Query()] = None,
    since: str | None = None,
    until: str | None = None,
    include_invalid: bool = False,
    loss: bool = False,
) -> Response:
    text = standings_of(_store(request), format, variant, meta, since, until, include_invalid, loss)
    return _html(text) if format == "html" else Response(text, media_type=MEDIA[format])
