"""dominolog: record domino matches as append-only event logs, replay, audit and score them."""

__version__ = "0.1.0"
