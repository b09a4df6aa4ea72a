"""The SQLite match store (:mod:`dominolog.store.store`)."""

from dominolog.store.store import (
    ConflictError,
    DamagedStoreError,
    ImportResult,
    ReadOnlyError,
    RefusedError,
    Store,
    StoreError,
    open_store,
)

__all__ = [
    "ConflictError",
    "DamagedStoreError",
    "ImportResult",
    "ReadOnlyError",
    "RefusedError",
    "Store",
    "StoreError",
    "open_store",
]
