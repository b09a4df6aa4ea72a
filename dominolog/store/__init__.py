"""The match store: :mod:`~dominolog.store.store` (the events, imports, appends and projections, as
every backend has them), :mod:`~dominolog.store.sqlite` (a SQLite file, the default) and
:mod:`~dominolog.store.postgres` (a PostgreSQL database, ``postgresql://...``; psycopg is imported
only when one is opened), :mod:`~dominolog.store.opening` (which targets may be opened, and how),
:mod:`~dominolog.store.checking` (``verify --db``), :mod:`~dominolog.store.errors`."""

from dominolog.store.checking import verify_stored
from dominolog.store.errors import (
    ConflictError,
    DamagedStoreError,
    DatabaseFailedError,
    FullMatchError,
    ReadOnlyError,
    RefusedError,
    RulesRefusedError,
    StoreError,
)
from dominolog.store.opening import APPLICATION_ID, open_store
from dominolog.store.rows import Prepared, match_id_of, prepare_import
from dominolog.store.sqlite import SqliteStore
from dominolog.store.store import ImportResult, Store
from dominolog.store.target import is_url, redacted

__all__ = [
    "APPLICATION_ID",
    "ConflictError",
    "DamagedStoreError",
    "DatabaseFailedError",
    "FullMatchError",
    "ImportResult",
    "Prepared",
    "ReadOnlyError",
    "RefusedError",
    "RulesRefusedError",
    "SqliteStore",
    "Store",
    "StoreError",
    "is_url",
    "match_id_of",
    "open_store",
    "prepare_import",
    "redacted",
    "verify_stored",
]
