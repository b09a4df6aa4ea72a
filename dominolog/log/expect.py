"""A fingerprint copied from a score sheet checked against a match's chain (``--expect-head FP[@SEQ]``
of ``verify`` and ``audit``): the fingerprint's syntax, and the verdict from the chain's heads."""

from __future__ import annotations

import re
from typing import Any

_FP = re.compile(r"^([0-9a-fA-F]{4,64})(?:@(\d+))?$")


class ExpectError(ValueError):
    """An ``--expect-head`` that is not ``FP`` or ``FP@SEQ``."""


def parse_expect(text: str) -> tuple[str, int | None]:
    """``FP`` or ``FP@SEQ``: the fingerprint (4 to 64 hex characters) and the seq it is taken after."""
    m = _FP.match(text.strip())
    if m is None:
        raise ExpectError(
            f"--expect-head {text!r}: give the fingerprint as hex characters, optionally @ the seq it was "
            "taken after (e.g. 3f9a0c71d2 or 3f9a0c71d2@41)"
        )
    return m.group(1).lower(), int(m.group(2)) if m.group(2) else None


def check_expect(heads: dict[int, str], head: str, expect: str) -> dict[str, Any]:
    """Whether the chain matches a fingerprint copied from a score sheet (``FP`` or ``FP@SEQ``)."""
    fp, seq = parse_expect(expect)
    if seq is None:
        got, where = head, "the head"
    elif seq in heads:
        got, where = heads[seq], f"the chain after seq {seq}"
    else:
        last = max(heads, default=0)
        return {
            "given": expect,
            "ok": False,
            "message": f"the log has no seq {seq} (it ends at seq {last}): truncated, or the wrong log",
        }
    ok = got.startswith(fp)
    message = (
        f"{where} starts {got[: len(fp)]}, as the score sheet says"
        if ok
        else f"{where} starts {got[: len(fp)]}, not {fp}: the log is not the one the sheet was written from"
    )
    return {"given": expect, "ok": ok, "message": message}
