"""What can go wrong with a store, as exceptions carrying a message for a person."""

from __future__ import annotations


class StoreError(Exception):
    """A store that cannot be used (not a database, another program's, locked, ...): a clear message."""


class ConflictError(StoreError):
    """Another writer took the seq first: nothing was written."""


class RefusedError(StoreError):
    """An event or a match the store will not take (it is not a well-formed event, or it would not be
    a match): nothing was written."""


class DamagedStoreError(StoreError):
    """The database file is damaged (SQLite's integrity check fails, or SQLite says so)."""


class ReadOnlyError(StoreError):
    """A write was asked of a store that can only be read."""
