"""The bundled replays of `39` (called by ``replays/build.py``)."""

from __future__ import annotations

from typing import Any

from dominolog.simulate import simulate_match


def replays() -> dict[str, list[list[dict[str, Any]]]]:
    """File name -> its matches (event objects, in order)."""
    return {"39-simulated.jsonl": [simulate_match("39", 7)]}
