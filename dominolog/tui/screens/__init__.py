"""The replay viewer's screens."""

from __future__ import annotations
