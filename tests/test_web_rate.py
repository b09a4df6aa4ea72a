"""The per-token rate of ``dominolog serve`` (``--rate``) counts a request once even when its write runs
twice: a write of a group that finds a lock held by another process (PostgreSQL) is undone and run again
in the next group (``Busy``), and a token right at its limit must not get a 429 for that retry."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from fastapi import HTTPException

from dominolog.web.auth import BURST_SECONDS, Rate


def test_a_write_run_again_in_the_same_request_is_counted_once() -> None:
    rate = Rate(per_second=2)
    first = SimpleNamespace()
    rate.check("t", first)
    rate.check("t", first)  # (the same request, its write run again after Busy)
    rate.check("t", SimpleNamespace())  # the second request of this second: within 2 a second
    with pytest.raises(HTTPException) as refused:
        rate.check("t", SimpleNamespace())
    assert refused.value.status_code == 429
    assert refused.value.detail == "more than 2 writes a second with this token: slow down"


def test_a_requests_events_are_charged_once() -> None:
    rate = Rate(per_second=1)
    burst = BURST_SECONDS  # the bucket: 50 events at 1 a second
    request = SimpleNamespace()
    rate.check("t", request)
    rate.charge("t", burst - 1, request)  # the bucket emptied: 1 + 49 events
    rate.charge("t", burst - 1, request)  # run again: not taken twice (else 49 s of debt)
    level, _ = rate._level["t"]
    assert level == pytest.approx(0.0, abs=0.01)


def test_without_a_request_each_call_counts() -> None:
    rate = Rate(per_second=1)
    rate.check("t")
    with pytest.raises(HTTPException) as refused:
        rate.check("t")
    assert refused.value.status_code == 429
