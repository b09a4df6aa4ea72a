"""Table cards: one printable card per table, with its match, players, variant and a QR code of the
table's recorder link, so that a phone joins the table by scanning it (``dominolog token cards``, and
the organiser's page through ``POST /api/cards``: both call :func:`make_cards` and :func:`cards_html`).

A card names the round (``meta.round``), the table (``meta.table``), the players and who leads first
(``meta.leads``, else the leader of the match's first deal), leaving out what the match does not say.

Each card carries a NEW table token of its match (:mod:`dominolog.store.access`), and a reprint
revokes the tokens earlier cards made for that table (those made by a card: ``who`` is
:data:`CARD_WHO`; a token made otherwise, by ``token create`` or the organiser's page, is kept). The
address on a card must be one a phone can reach: a loopback one (``127.0.0.1``, ``localhost``,
``::1``) is refused (:class:`LoopbackURL`) unless asked for. The link is
``http://HOST:PORT/m/ID/record#token=TOKEN`` (the match id percent-encoded; the token in the fragment, which a
browser never sends to the server, so it is in no access log). The QR code is drawn by ``segno``
(pure Python, maintained, no image library needed) as inline SVG; the page has an inline style
sheet and no script, so it prints from a file as well as from the server.

:func:`served_url` is the address ``dominolog serve`` gives the cards: its host and port, and when it
listens on every address (``0.0.0.0``, ``::``) the room's address, this machine's first non-loopback
address (:func:`room_address`: read from the host's name and ``/proc/net/fib_trie``; no packet is
sent anywhere).
"""

from __future__ import annotations

import ipaddress
import itertools
import socket
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from markupsafe import Markup

from dominolog.htmlpage import render

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


class LoopbackURL(ValueError):
    """A card's address that only this machine reaches (no phone can follow its QR code)."""


#: what the message of a loopback address says to do
LOOPBACK_HELP = (
    "is an address of this machine only: no phone can reach it. Serve the room's network "
    "(dominolog serve --host 0.0.0.0) and give its address (http://192.168.1.20:8000/)"
)


@dataclass(frozen=True, slots=True)
class Card:
    """One table's card: its match, what the card shows, and the link with its new token."""

    match_id: str
    table: str | None
    players: list[str]
    variant: str | None
    token_id: str
    link: str
    #: the round (meta.round) and who leads first (meta.leads, else the first deal's leader)
    round: str | None = None
    leads: str | None = None
    #: the ids of the earlier cards' tokens of this table revoked by this one
    revoked: list[str] = field(default_factory=list)


def recorder_link(url: str, match_id: str, token: str) -> str:
    """The table's recorder link: ``URL`` (ending in ``/``) ``m/ID/record#token=TOKEN``."""
    base = url if url.endswith("/") else url + "/"
    return f"{base}m/{quote(match_id, safe='')}/record#token={token}"


def qr_svg(link: str) -> str:
    """The QR code of ``link`` as inline SVG (``segno``)."""
    import segno

    return str(segno.make(link, error=QR_ERROR, micro=False).svg_inline(scale=QR_SCALE, border=QR_BORDER))


def is_loopback(url: str) -> bool:
    """Whether the address in ``url`` reaches this machine only (``localhost``, ``127.x``, ``::1``)."""
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:  # (not an address at all: whoever reads it next says so)
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _usable(text: str) -> bool:
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def room_address() -> str | None:
    """This machine's first IPv4 address that is not a loopback or link-local one, as the room's
    network reaches it: the addresses of the host's name, else the local host routes the kernel lists
    (``/proc/net/fib_trie``). Nothing is sent to any address. None when there is none."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        if _usable(str(info[4][0])):
            return str(info[4][0])
    try:
        lines = Path("/proc/net/fib_trie").read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return None
    found: list[str] = []
    for before, line in itertools.pairwise(lines):
        address = before.strip().removeprefix("|-- ").removeprefix("+-- ")
        if line.strip() == "/32 host LOCAL" and _usable(address) and address not in found:
            found.append(address)
    private = [a for a in found if ipaddress.ip_address(a).is_private]
    return (private or found or [None])[0]


def served_url(host: str, port: int) -> str:
    """The address ``dominolog serve --host HOST --port PORT`` is reached at for the cards: the room's
    address (:func:`room_address`) when it listens on every address, else its host (``127.0.0.1``
    when the room's address cannot be found: a loopback one, which the cards refuse)."""
    if host in ("0.0.0.0", "::", ""):
        host = room_address() or "127.0.0.1"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def open_matches(store: Store) -> list[str]:
    """The ids of the stored matches still open (no final result), in the store's order."""
    return [r["id"] for r in store.list_matches(status="open")]


def first_leader(store: Store, match_id: str) -> str | None:
    """Who leads the match's first hand: its ``meta.leads``, else the leader of its first deal."""
    start = store.start_of(match_id)
    meta = start.obj.get("meta") if start is not None and start.obj is not None else None
    leads = meta.get("leads") if isinstance(meta, dict) else None
    if isinstance(leads, str) and leads:
        return leads
    for rec, _ in store.records(match_id):
        if rec.event is not None and rec.event.type == "deal":
            leader = getattr(rec.event, "leader", None)
            return leader if isinstance(leader, str) else None
    return None


def make_cards(
    store: Store,
    url: str,
    match_ids: Iterable[str] | None = None,
    who: str = CARD_WHO,
    allow_loopback: bool = False,
) -> list[Card]:
    """A card for each match (None: every open match), each with a new table token made in the store,
    the tokens earlier cards made for that match revoked. :class:`NoSuchMatch` when a match is not
    stored, :class:`LoopbackURL` for an address no phone reaches (unless ``allow_loopback``): both
    before any token is made or revoked."""
    from dominolog.club.summary import listed_matches

    if is_loopback(url) and not allow_loopback:
        raise LoopbackURL(f"{url} {LOOPBACK_HELP}")
    rows = {r["id"]: r for r in listed_matches(store)}
    wanted = list(dict.fromkeys(match_ids)) if match_ids is not None else open_matches(store)
    missing = [m for m in wanted if m not in rows]
    if missing:
        raise NoSuchMatch(f"no match {missing[0]!r} is stored")
    earlier: dict[str, list[str]] = {}
    for t in store.tokens():
        if t.role == "table" and t.active and t.who == who and t.match_id is not None:
            earlier.setdefault(t.match_id, []).append(t.id)
    cards = []
    for match_id in wanted:
        row = rows[match_id]
        meta: dict[str, Any] = row["meta"] if isinstance(row["meta"], dict) else {}
        revoked = [t for t in earlier.get(match_id, []) if store.revoke_token(t) is not None]
        token_row, token = store.create_token("table", match_id, who)
        table, round_ = meta.get("table"), meta.get("round")
        cards.append(
            Card(
                match_id,
                None if table is None else str(table),
                [str(p) for p in row["players"]] if isinstance(row["players"], list) else [],
                row["variant"],
                token_row.id,
                recorder_link(url, match_id, token),
                None if round_ is None else str(round_),
                first_leader(store, match_id),
                revoked,
            )
        )
    return cards


def revoked_line(cards: list[Card]) -> str | None:
    """What a print of ``cards`` revoked, in one line (None: nothing)."""
    ids = [t for c in cards for t in c.revoked]
    if not ids:
        return None
    tables = sum(bool(c.revoked) for c in cards)
    return (
        f"revoked {len(ids)} earlier card token{'s' * (len(ids) != 1)} of {tables} "
        f"table{'s' * (tables != 1)}: {', '.join(ids)}"
    )


def card_html(card: Card) -> str:
    """One card (``templates/club/cards.html``)."""
    return render("club/cards.html", one=card, qr=_qr)


def cards_html(cards: list[Card]) -> str:
    """The printable page: one card per table (no script; an inline style sheet)."""
    return render("club/cards.html", cards=cards, qr=_qr, css=Markup(CARDS_CSS))


def _qr(link: str) -> Markup:
    return Markup(qr_svg(link))
