"""The bundled replays of `double-bergen` (called by ``replays/build.py``)."""

from __future__ import annotations

from typing import Any

from dominolog.simulate import simulate_match


def replays() -> dict[str, list[list[dict[str, Any]]]]:
    """File name -> its matches (event objects, in order)."""
    return {"double-bergen-simulated.jsonl": [simulate_match("double-bergen", 7)]}
