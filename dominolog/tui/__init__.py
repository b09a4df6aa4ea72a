"""The replay viewer: a Textual app to step through a match (``dominolog replay``)."""

from __future__ import annotations
