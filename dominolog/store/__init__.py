"""The SQLite match store (:mod:`dominolog.store.store`)."""

from dominolog.store.store import ConflictError, ImportResult, Store, StoreError, open_store

__all__ = ["ConflictError", "ImportResult", "Store", "StoreError", "open_store"]
