"""The hash chain as the reducer checks it (docs/format.md, sections 6 and 8.2)."""

from __future__ import annotations

from dominolog.log.hashchain import canonical_bytes, chain_hash_bytes
from dominolog.log.reader import Record
from dominolog.state import Issue


def record_canon(rec: Record) -> bytes:
    """What a record contributes to the hash chain: its canonical form (FORMAT.md), or for a line
    that is not a JSON object, its value's canonical JSON or the line's own bytes (docs/format.md 8.2).
    A line whose value is not what was written (a lone surrogate, a key written twice) enters as read;
    a line too long to read, as the sha256 of its bytes."""
    if rec.raw_only:
        return rec.digest if rec.digest is not None else rec.data
    obj = rec.obj
    try:
        if obj is not None:
            fast = rec.event is not None and rec.event.type != "match_start"
            if fast and rec.canon is not None:
                return rec.canon  # written while reading
            return canonical_bytes(obj, fast=fast)
        if rec.is_json:
            return canonical_bytes({"": rec.value})[4:-1]
    except RecursionError:  # nested too deep to re-encode: fingerprint the line as read
        pass
    return rec.data


class HashChain:
    """Follows one match's chain: the head over every record as read, and each stored ``hash``
    checked against the stored hash of the event before it (an edited event is one mismatch)."""

    __slots__ = ("hashed", "head", "prev_stored")

    def __init__(self) -> None:
        #: whether the match's events carry hashes (set by its first event)
        self.hashed: bool | None = None
        self.prev_stored: str | None = ""
        self.head = ""

    def state(self) -> tuple[bool | None, str | None, str]:
        return self.hashed, self.prev_stored, self.head

    def restore(self, saved: tuple[bool | None, str | None, str]) -> None:
        self.hashed, self.prev_stored, self.head = saved

    def check(self, rec: Record) -> list[Issue] | tuple[()]:
        """Move the head over ``rec``; the problems of its stored hash."""
        obj = rec.obj if not rec.raw_only else None  # a value not as written carries no hash to trust
        canon = record_canon(rec)
        prev_head = self.head
        self.head = chain_hash_bytes(prev_head, canon)
        if obj is None:
            self.prev_stored = None
            return ()
        stored = obj.get("hash")
        if self.hashed is None:
            self.hashed = stored is not None
        if stored is not None and self.hashed and self.prev_stored == prev_head and stored == self.head:
            self.prev_stored = stored  # the common case: a hashed event that chains
            return ()
        issues: list[Issue] = []
        if stored is None:
            if self.hashed:
                issues.append(
                    Issue(rec.seq, rec.line, "hash-mismatch", "event has no hash, but earlier events of the match do")
                )
            self.prev_stored = None
            return issues
        if not self.hashed:
            issues.append(
                Issue(rec.seq, rec.line, "hash-mismatch", "event has a hash, but the match's first event has none")
            )
        if isinstance(stored, str) and self.prev_stored is not None:
            expected = self.head if self.prev_stored == prev_head else _rehash(self.prev_stored, canon)
            if stored != expected:
                issues.append(
                    Issue(
                        rec.seq,
                        rec.line,
                        "hash-mismatch",
                        f"hash {stored[:12]}... does not match the event (expected {expected[:12]}...): "
                        "the event was changed after it was written",
                    )
                )
        self.prev_stored = stored if isinstance(stored, str) else None
        return issues


def _rehash(prev: str, canon: bytes) -> str:
    try:
        return chain_hash_bytes(prev, canon)
    except UnicodeEncodeError:  # a stored "hash" that is not hex cannot match anyway
        return ""
