"""Table cards: one printable card per table, with its match, players, variant and a QR code of the
table's recorder link, so that a phone joins the table by scanning it (``dominolog token cards``, and
the organiser's page through ``POST /api/cards``: both call :func:`make_cards` and :func:`cards_html`).

Each card carries a NEW table token of its match (:mod:`dominolog.store.access`): the link is
``http://HOST:PORT/m/ID/record#token=TOKEN`` (the match id percent-encoded; the token in the fragment, which a
browser never sends to the server, so it is in no access log). The QR code is drawn by ``segno``
(pure Python, maintained, no image library needed) as inline SVG; the page has an inline style
sheet and no script, so it prints from a file as well as from the server.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from dominolog.htmlpage import esc

if TYPE_CHECKING:
    from dominolog.store import Store

#: the QR code's error correction (``m``: 15 % of it may be smudged) and drawing
QR_ERROR = "m"
QR_SCALE = 4
QR_BORDER = 2
#: who the store says made a card's token
CARD_WHO = "table card"
CARDS_CSS = (
    "body{font-family:system-ui,sans-serif;margin:0;padding:8mm;color:#000;background:#fff}"
    ".cards{display:flex;flex-wrap:wrap;gap:6mm}"
    ".card{border:1px dashed #555;padding:5mm;width:80mm;break-inside:avoid;page-break-inside:avoid}"
    ".card h2{margin:0 0 2mm;font-size:20pt}.card p{margin:1mm 0}"
    ".card .link{font-family:monospace;font-size:7pt;word-break:break-all}"
    ".card svg{display:block;margin:2mm auto}"
    "@media print{body{padding:0}}"
)


class NoSuchMatch(ValueError):
    """A match asked for that the store does not hold."""


@dataclass(frozen=True, slots=True)
class Card:
    """One table's card: its match, what the card shows, and the link with its new token."""

    match_id: str
    table: str | None
    players: list[str]
    variant: str | None
    token_id: str
    link: str


def recorder_link(url: str, match_id: str, token: str) -> str:
    """The table's recorder link: ``URL`` (ending in ``/``) ``m/ID/record#token=TOKEN``."""
    base = url if url.endswith("/") else url + "/"
    return f"{base}m/{quote(match_id, safe='')}/record#token={token}"


def qr_svg(link: str) -> str:
    """The QR code of ``link`` as inline SVG (``segno``)."""
    import segno

    return str(segno.make(link, error=QR_ERROR, micro=False).svg_inline(scale=QR_SCALE, border=QR_BORDER))


def open_matches(store: Store) -> list[str]:
    """The ids of the stored matches still open (no final result), in the store's order."""
    return [r["id"] for r in store.list_matches(status="open")]


def make_cards(store: Store, url: str, match_ids: Iterable[str] | None = None, who: str = CARD_WHO) -> list[Card]:
    """A card for each match (None: every open match), each with a new table token made in the store.
    :class:`NoSuchMatch` (before any token is made) when a match is not stored."""
    from dominolog.club.summary import listed_matches

    rows = {r["id"]: r for r in listed_matches(store)}
    wanted = list(dict.fromkeys(match_ids)) if match_ids is not None else open_matches(store)
    missing = [m for m in wanted if m not in rows]
    if missing:
        raise NoSuchMatch(f"no match {missing[0]!r} is stored")
    cards = []
    for match_id in wanted:
        row = rows[match_id]
        meta: dict[str, Any] = row["meta"] if isinstance(row["meta"], dict) else {}
        token_row, token = store.create_token("table", match_id, who)
        table = meta.get("table")
        cards.append(
            Card(
                match_id,
                None if table is None else str(table),
                [str(p) for p in row["players"]] if isinstance(row["players"], list) else [],
                row["variant"],
                token_row.id,
                recorder_link(url, match_id, token),
            )
        )
    return cards


def card_html(card: Card) -> str:
    """One card (every name escaped)."""
    table = f"Table {esc(card.table)}" if card.table is not None else "Table"
    return (
        f'<section class="card"><h2>{table}</h2>'
        f'<p class="match">match <strong>{esc(card.match_id)}</strong></p>'
        f'<p class="players">{esc(", ".join(card.players))}</p>'
        f'<p class="variant">{esc(card.variant or "?")}</p>'
        f'<div class="qr" role="img" aria-label="QR code of the recorder link">{qr_svg(card.link)}</div>'
        f'<p class="link">{esc(card.link, 10_000)}</p>'
        f'<p class="token">token {esc(card.token_id)}: scan to record this table</p></section>'
    )


def cards_html(cards: list[Card]) -> str:
    """The printable page: one card per table (no script; an inline style sheet)."""
    body = "".join(card_html(c) for c in cards) or "<p>No open match: no card.</p>"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Table cards</title><style>{CARDS_CSS}</style></head>"
        f'<body><main class="cards">{body}</main></body></html>\n'
    )
