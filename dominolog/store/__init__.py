"""The SQLite match store: :mod:`~dominolog.store.store` (the events, imports, appends and
projections), :mod:`~dominolog.store.opening` (which files may be opened, and how),
:mod:`~dominolog.store.checking` (``verify --db``), :mod:`~dominolog.store.errors`."""

from dominolog.store.checking import verify_stored
from dominolog.store.errors import ConflictError, DamagedStoreError, ReadOnlyError, RefusedError, StoreError
from dominolog.store.opening import APPLICATION_ID, open_store
from dominolog.store.store import ImportResult, Store, match_id_of

__all__ = [
    "APPLICATION_ID",
    "ConflictError",
    "DamagedStoreError",
    "ImportResult",
    "ReadOnlyError",
    "RefusedError",
    "Store",
    "StoreError",
    "match_id_of",
    "open_store",
    "verify_stored",
]
