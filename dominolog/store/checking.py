"""``verify --db``: a stored match checked as a file is, and what the store derived from it.

Every row against the chain hash it was stored with (an edit behind the tool's back), the columns
copied out of each event, the match's head and event count against the stored chain (a deleted
tail), and the projections (``matches``, ``hands``) against a fresh fold of the events (a forged
winner): ``hash-mismatch`` and ``projection-mismatch`` issues, added to the match's report.
"""

from __future__ import annotations

from dominolog.log import reader
from dominolog.log.hashchain import chain_hash_bytes
from dominolog.log.reader import Record, decode_line
from dominolog.reducer import MatchReducer, MatchReport, record_canon
from dominolog.state import Issue
from dominolog.store.store import Store
from dominolog.textsafe import shown


def verify_stored(store: Store, match_id: str, likelihoods: bool = True) -> MatchReport:
    """Verify a stored match as ``verify`` does a file, and check what the store holds against it:
    every row against its chain hash, the columns copied out of each event, the match's head and
    the projections (``matches``, ``hands``) against a fresh fold of the events. A match stored with
    more events than a match may hold (:data:`~dominolog.log.reader.MAX_MATCH_EVENTS`) is read as the
    file reader reads its export: the events past the limit are one ``malformed`` event, not read.
    ``likelihoods`` False: the unverified rules without their likelihood (the projections keep only
    how many there are)."""
    reducer = MatchReducer(f"{store.path}#{match_id}", 1, likelihoods)
    prev = ""
    found: list[Issue] = []
    limit = reader.MAX_MATCH_EVENTS
    rows = store.conn.execute(
        "SELECT seq, type, player, tile, json, raw, at, hash FROM events WHERE match_id = ? ORDER BY seq LIMIT ?",
        (match_id, limit),
    ).fetchall()
    past = _past_the_limit(store, match_id, limit) if len(rows) == limit else None
    for seq, kind, player, tile, text, raw, at, stored in rows:
        rec = decode_line(raw if raw is not None else text.encode("utf-8", "surrogatepass"), seq, seq)
        expected = chain_hash_bytes(prev, record_canon(rec))
        if expected != stored:
            found.append(
                Issue(
                    rec.seq,
                    rec.line,
                    "hash-mismatch",
                    f"the stored event does not match the chain hash it was stored with "
                    f"({shown(stored, 12)}...): it was changed in the database after it was written",
                )
            )
        copied = store.row_of(rec, stored)
        for column, value, want in (
            ("type", kind, copied[1]),
            ("player", player, copied[2]),
            ("tile", tile, copied[3]),
            ("at", at, copied[6]),
        ):
            if value != want:
                found.append(
                    Issue(
                        rec.seq,
                        rec.line,
                        "projection-mismatch",
                        f"events.{column} is {shown(repr(value), 60)}, but the event says {shown(repr(want), 60)}",
                    )
                )
        prev = stored
        reducer.feed(rec)
    if past is not None:
        reducer.feed(past[0])
    report = reducer.report()
    # an edited row is reported above, once; what the projections say of it would only repeat it (and a
    # match cut at the limit is not the match its projections were made from)
    chain = (
        (past[1], len(rows) + past[2], past[3])
        if past is not None
        else ((rows[-1][0], len(rows), rows[-1][-1]) if rows else (0, 0, ""))
    )
    found += _check_projection(store, match_id, report, chain, compare=not found and past is None)
    if found:
        report.violations = sorted(report.violations + found, key=lambda i: i.seq)
        report.valid = False
    return report


def _past_the_limit(store: Store, match_id: str, limit: int) -> tuple[Record, int, int, str] | None:
    """The events stored past the ``limit`` of a match, as the file reader reads the lines past it: one
    record that stands for them all (``malformed``, not read); with the last one's seq, their count and
    the last one's chain hash.
    None when there are none."""
    row = store.conn.execute(
        "SELECT COUNT(*), MIN(seq), MAX(seq) FROM events WHERE match_id = ? AND seq > ?", (match_id, limit)
    ).fetchone()
    if row is None or not row[0]:
        return None
    count, first, last = int(row[0]), int(row[1]), int(row[2])
    head = store.conn.execute("SELECT hash FROM events WHERE match_id = ? AND seq = ?", (match_id, last)).fetchone()
    said = f"seqs {first:,}-{last:,} ({count:,} events)" if count > 1 else f"seq {first:,}"
    rec = Record(limit + 1, limit + 1, b"", error="", raw_only=True, truncated=True)
    rec.error = f"a match holds at most {limit:,} events: {said} not read"
    return rec, last, count, head[0] if head is not None else ""


def _check_projection(
    store: Store, match_id: str, report: MatchReport, chain: tuple[int, int, str], compare: bool = True
) -> list[Issue]:
    """What ``matches`` and ``hands`` hold for the match, against its stored events: the head and
    the count against the stored chain (``chain``: its last seq, its count of events, its last hash: a
    deleted tail), and, with ``compare``, every other column against a fresh fold of the events (a forged winner)."""
    last, count, chain_head = chain
    want_match, want_hands = store.projection_of(match_id, report)
    row = store.conn.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
    out: list[Issue] = []
    if row is None:
        return [Issue(last, last, "projection-mismatch", "the match has events but no row in `matches`")]
    names = [d[0] for d in store.conn.execute("SELECT * FROM matches LIMIT 0").description]
    stored = dict(zip(names, row, strict=True))
    if stored["head"] != chain_head or stored["events"] != count:
        out.append(
            Issue(
                last,
                last,
                "hash-mismatch",
                f"the match's stored head {shown(stored['head'], 12)}... ({stored['events']} events) is not the "
                f"head of its events {chain_head[:12]}... ({count} events): events were deleted or "
                "changed behind the store's back",
            )
        )
    if not compare:
        return out
    for name, want in zip(names, want_match[: len(names)], strict=True):  # (a store not yet given last_at)
        if name not in ("head", "events") and stored[name] != want:
            out.append(
                Issue(
                    last,
                    last,
                    "projection-mismatch",
                    f"matches.{name} is {shown(repr(stored[name]), 60)}, but the events give {shown(repr(want), 60)}",
                )
            )
    hands = store.conn.execute(
        'SELECT match_id, number, "end", winner, points FROM hands WHERE match_id = ? ORDER BY number', (match_id,)
    ).fetchall()
    if [tuple(h) for h in hands] != want_hands:
        out.append(
            Issue(
                last,
                last,
                "projection-mismatch",
                f"the `hands` rows of the match ({len(hands)}) are not what its events give ({len(want_hands)}): "
                "run `dominolog reindex`",
            )
        )
    return out
