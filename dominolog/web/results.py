"""The results the command line writes, served from the same functions (no figure of their own):

- ``/m/{id}/sheet``: the score sheet (``dominolog export ID --db DB --format html``), its audit
  report linked as ``/m/{id}/audit`` for a match with violations;
- ``/m/{id}/audit``: the audit report (``dominolog audit ID --db DB --format html``), with the
  analysis the store keeps beside its events;
- ``/m/{id}/analysis``: the newest analysis the store keeps (the server's analyser keeps it current as
  hands end: :mod:`dominolog.web.analyser`; ``dominolog analyze ID --db DB --format html`` writes the
  same), "as of seq N, hand K" when the match moved on since; none kept yet: a live page saying it is
  being made (``--no-analyse``: ``404`` with the command that makes it);
- ``GET /api/matches/{id}/analysis?format=json|html|text``: the same, ``202`` while it is being made;
- ``GET /api/matches/{id}/audit?format=text|json|html``, ``GET /api/matches/{id}/export?format=...``,
  ``GET /api/standings?format=...``: the command's output byte for byte.

Each page the CLI writes whole carries its style sheet and script inline: it is served with a policy
naming their hashes (:func:`~dominolog.web.shared.inline_csp`), nothing else inline. Each result is a
plain function of the store and the match id (``*_of``), the routes only call it."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import Response

from dominolog.web.auth import Sight, sight
from dominolog.web.ids import MatchId
from dominolog.web.shared import WebState, inline_csp

if TYPE_CHECKING:
    from dominolog.club.standings import Standings
    from dominolog.log.reader import MatchLog
    from dominolog.store import Store

router = APIRouter()
AUDIT_FORMATS = ("text", "json", "html")
EXPORT_FORMATS = ("jsonl", "csv", "json", "svg", "text", "dn", "html")
#: the formats as the OpenAPI document lists them (a query's enum; another is 422, saying which are taken)
AuditFormat = Annotated[str, Query(json_schema_extra={"enum": list(AUDIT_FORMATS)})]
ExportFormat = Annotated[str, Query(json_schema_extra={"enum": list(EXPORT_FORMATS)})]
StandingsFormat = Annotated[str, Query(json_schema_extra={"enum": ["text", "csv", "json", "html"]})]
MEDIA = {
    "text": "text/plain; charset=utf-8",
    "json": "application/json",
    "html": "text/html; charset=utf-8",
    "jsonl": "application/x-ndjson",
    "csv": "text/csv; charset=utf-8",
    "svg": "image/svg+xml",
    "dn": "text/x-dominolog-notation; charset=utf-8",
}


def _answers(*formats: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route answering in ``formats``: its media types."""
    content = {MEDIA[f].split(";")[0]: {"schema": {"type": "string"}} for f in formats}
    return {200: {"description": "the command's output, in the format asked for", "content": content}}


def _readable(request: Request, store: Store, match_id: str) -> Store:
    """The store, once the request may read the match (:func:`dominolog.web.auth.sight`: ``404`` for
    a match not stored or private to this request, ``401`` for a wrong key)."""
    sight(request, store).match(store, match_id)
    return store


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


def sheet_of(store: Store, match_id: str, audit: str = "audit") -> str:
    """The score sheet ``dominolog export ID --db DB --format html`` writes; a match with violations
    links its audit report as served (``audit``, beside the sheet's address)."""
    from dominolog.club.sheet import render_sheet, sheet_summary

    records = _log(store, match_id).records
    summary = sheet_summary(records, match_id, match_id)
    return render_sheet(summary, audit if summary.violations and records else None)


class Pending(Exception):
    """No analysis of the match is kept yet (``made``: the server's analyser is making it, or will once a
    hand ends)."""

    def __init__(self, ended: bool) -> None:
        super().__init__("being made" if ended else "made when a hand ends")
        self.ended = ended


def analysis_of(store: Store, match_id: str, fmt: str = "html", analysing: bool = True) -> tuple[str, int | None]:
    """What ``dominolog analyze ID --db DB --format FMT`` writes, from the newest analysis the store keeps
    of the match (the server's analyser keeps it current), with the seq it was made at; one made before
    the match moved on says so ("as of seq N, hand K"; not in JSON: the answer's headers say it).
    None kept: :class:`Pending` when the server analyses, else 404 saying how to make it."""
    from dominolog.analysis.run import newest_kept

    if not store.has_match(match_id):
        raise HTTPException(404, "no such match")
    row = next(r for r in store.list_matches() if r["id"] == match_id)
    found = newest_kept(store, match_id, row["variant"])
    if found is None:
        if analysing:
            raise Pending(bool(row["hands"]))
        raise HTTPException(
            404,
            "no analysis of this match is kept: dominolog analyze ID --db DB makes it (served with --no-analyse)",
        )
    head, seq, review = found
    moved = head != row["head"]
    hand = max((h.number for h in review.hands), default=0)
    as_of = f"as of seq {seq}, hand {hand}: the match has moved on since (the next analysis is being made)"
    if fmt == "json":
        from dominolog.analysis.luck import review_document
        from dominolog.jsontext import dumps

        return dumps(review_document(review), indent=1) + "\n", seq
    if fmt == "text":
        from dominolog.analysis.review_text import render_text

        return (f"({as_of})\n" if moved else "") + render_text(review), seq
    from dominolog.analysis.review_html import render_html

    return render_html(review, as_of=f"{as_of[0].upper()}{as_of[1:]}." if moved else None), seq


def pending_part(match_id: str, ended: bool) -> str:
    """The live part of the page of an analysis not kept yet (``templates/web/analysis_pending.html``)."""
    from dominolog.htmlpage import render

    return render("web/analysis_pending.html", match_id=match_id, ended=ended)


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


class StandingsQuery(NamedTuple):
    """The standings' filters, as every standings route reads them from its query string (the options of
    ``dominolog standings``): ``/api/standings``, the page ``/standings`` and its live part."""

    variant: str | None = None
    meta: list[str] | None = None
    since: str | None = None
    until: str | None = None
    include_invalid: bool = False


async def _standings_query(
    variant: str | None = None,
    meta: Annotated[list[str] | None, Query()] = None,
    since: str | None = None,
    until: str | None = None,
    include_invalid: bool = False,
) -> StandingsQuery:
    return StandingsQuery(variant, meta, since, until, include_invalid)


#: a route's standings filters (a FastAPI dependency: the query parameters it reads are these five)
StandingsAsked = Annotated[StandingsQuery, Depends(_standings_query)]


def standings_of(
    store: Store,
    fmt: str = "text",
    asked: StandingsQuery = StandingsQuery(),
    loss: bool = False,
    seen: Sight | None = None,
    fairplay: bool = False,
    kept: MutableMapping[Any, Any] | None = None,
) -> str:
    """What ``dominolog standings --db DB --format FMT`` (and its filters) writes to a file or a pipe;
    ``seen``: of the matches this request may read only (private events); ``kept``: the matches'
    summaries made before, by head (:func:`~dominolog.club.standings_query.store_summaries`)."""
    from dominolog.club.standings_query import FORMATS, rendered

    _choose(fmt, FORMATS)
    return rendered(standings_result(store, asked, loss, seen, fairplay, kept), fmt)


def standings_result(
    store: Store,
    asked: StandingsQuery = StandingsQuery(),
    loss: bool = False,
    seen: Sight | None = None,
    fairplay: bool = False,
    kept: MutableMapping[Any, Any] | None = None,
) -> Standings:
    """The standings :func:`standings_of` writes, before they are written."""
    from dominolog.club.standings import standings
    from dominolog.club.standings_query import filters_of, store_summaries

    try:
        filters = filters_of(asked.variant, asked.meta, asked.since, asked.until)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    ids = None if seen is None else [r["id"] for r in seen.rows(store.list_matches())]
    summaries, analyses, _ = store_summaries(store, loss, ids, kept)
    fair = None
    if fairplay:  # each player's evidence of reneging (standings --fairplay): every match audited
        from dominolog.audit.fairplay import store_weights

        fair = store_weights(store, [(s.match_id, s.head) for s in summaries])
    return standings(summaries, filters, asked.include_invalid, analyses if loss else None, fair)


@router.get("/m/{match_id}/audit", include_in_schema=False)
async def audit_page(request: Request, match_id: MatchId, app: WebState) -> Response:
    return _html(await app.stores.run(lambda store: audit_of(_readable(request, store, match_id), match_id)))


@router.get("/m/{match_id}/sheet", include_in_schema=False)
async def sheet_page(request: Request, match_id: MatchId, app: WebState) -> Response:
    def read(store: Store) -> str:
        seen = sight(request, store)
        seen.match(store, match_id)
        return sheet_of(store, match_id, seen.keyed("audit"))

    return _html(await app.stores.run(read))


@router.get("/m/{match_id}/analysis", include_in_schema=False)
async def analysis_page(request: Request, match_id: MatchId, app: WebState) -> Response:
    from dominolog.web.frame import frame
    from dominolog.web.ids import href

    analysing = request.app.state.analysing

    def read(store: Store) -> Response:
        seen = sight(request, store)
        seen.match(store, match_id)
        try:
            return _html(analysis_of(store, match_id, "html", analysing)[0])
        except Pending as pending:
            part = pending_part(match_id, pending.ended)
            stream, again = seen.keyed("/api/board/stream"), seen.keyed(href(match_id, "/analysis/part"))
            page = frame(f"Analysis: {match_id}", part, stream, again)
            return Response(page, media_type=MEDIA["html"], headers={"Cache-Control": "no-store"})

    return await app.stores.run(read)


@router.get("/m/{match_id}/analysis/part", include_in_schema=False)
async def analysis_part(request: Request, match_id: MatchId, app: WebState) -> Response:
    """The waiting page's live part; once the analysis is kept, a header asking the page to load again."""
    analysing = request.app.state.analysing

    def read(store: Store) -> Response:
        try:
            analysis_of(_readable(request, store, match_id), match_id, "html", analysing)
        except Pending as pending:
            return Response(
                pending_part(match_id, pending.ended), media_type=MEDIA["html"], headers={"Cache-Control": "no-store"}
            )
        return Response("", media_type=MEDIA["html"], headers={"Cache-Control": "no-store", "X-Dominolog-Reload": "1"})

    return await app.stores.run(read)


@router.get(
    "/api/matches/{match_id}/analysis",
    summary="The analysis (`dominolog analyze ID --db DB --format F`), kept current by the server; 202 while made",
)
async def analysis_api(request: Request, match_id: MatchId, app: WebState, format: AuditFormat = "json") -> Response:
    from fastapi.responses import JSONResponse

    fmt = _choose(format, AUDIT_FORMATS)
    analysing = request.app.state.analysing

    def read(store: Store) -> tuple[str, int, int] | Pending:
        _readable(request, store, match_id)
        try:
            text, seq = analysis_of(store, match_id, fmt, analysing)
        except Pending as pending:
            return pending
        return text, seq, store.fold_of(match_id).seq

    found = await app.stores.run(read)
    if isinstance(found, Pending):
        return JSONResponse({"match": match_id, "analysis": str(found)}, status_code=202, headers={"Retry-After": "5"})
    text, seq, head_seq = found
    headers = {"X-Dominolog-Analysis-Seq": str(seq), "X-Dominolog-Analysis-Current": "yes" if seq == head_seq else "no"}
    if fmt == "html":
        return Response(
            text, media_type=MEDIA["html"], headers={**headers, "Content-Security-Policy": inline_csp(text)}
        )
    return Response(text, media_type=MEDIA[fmt], headers=headers)


@router.get(
    "/api/matches/{match_id}/audit",
    summary="The audit report (`dominolog audit ID --db DB --format F`)",
    responses=_answers("text", "json", "html"),
)
async def audit_api(
    request: Request,
    match_id: MatchId,
    app: WebState,
    format: AuditFormat = "text",
    hand: Annotated[int | None, Query(ge=1)] = None,
    min_likelihood: Annotated[float | None, Query(ge=0.0, le=1.0)] = None,
) -> Response:
    fmt = _choose(format, AUDIT_FORMATS)
    text = await app.stores.run(
        lambda store: audit_of(_readable(request, store, match_id), match_id, fmt, hand, min_likelihood)
    )
    return _html(text) if fmt == "html" else Response(text, media_type=MEDIA[fmt])


@router.get(
    "/api/matches/{match_id}/export",
    summary="The match exported (`dominolog export ID --db DB --format F`)",
    responses=_answers(*EXPORT_FORMATS),
)
async def export_api(
    request: Request,
    match_id: MatchId,
    app: WebState,
    format: ExportFormat = "jsonl",
    scored: bool = False,
    long: bool = False,
    at: Annotated[int | None, Query(ge=1)] = None,
) -> Response:
    fmt = _choose(format, EXPORT_FORMATS)
    data = await app.stores.run(
        lambda store: export_of(_readable(request, store, match_id), match_id, fmt, scored, long, at)
    )
    return _html(data.decode()) if fmt == "html" else Response(data, media_type=MEDIA[fmt])


@router.get(
    "/api/standings",
    summary="The standings (`dominolog standings --db DB --format F` and its filters)",
    responses=_answers("text", "csv", "json", "html"),
)
async def standings_api(
    request: Request,
    app: WebState,
    asked: StandingsAsked,
    format: StandingsFormat = "text",
    loss: bool = False,
    fairplay: bool = False,
) -> Response:

    def read(store: Store) -> str:
        seen = sight(request, store)
        return standings_of(store, format, asked, loss, seen, fairplay=fairplay, kept=app.kept)

    text = await app.stores.run(read)
    return _html(text) if format == "html" else Response(text, media_type=MEDIA[format])
