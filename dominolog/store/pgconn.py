"""The connection the PostgreSQL store runs its SQL through (:class:`PgConnection`): one module that
both the store (:mod:`dominolog.store.postgres`) and the schema (:mod:`dominolog.store.pgschema`) use."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg


def _sql(query: str) -> str:
    """A query written with ``?`` parameters as psycopg takes it (``%s``; a literal ``%`` doubled)."""
    return query.replace("%", "%%").replace("?", "%s")


class PgConnection:
    """A psycopg connection (autocommit: transactions are begun and ended by the store) that runs the
    store's SQL as it is written for both databases, ``?`` parameters and all."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.raw = conn
        self._queries: dict[str, str] = {}

    def _query(self, query: str) -> str:
        done = self._queries.get(query)
        if done is None:
            done = self._queries[query] = _sql(query)
        return done

    def execute(self, query: str, params: Sequence[Any] | None = None) -> psycopg.Cursor[Any]:
        if params is None:
            return self.raw.execute(query)  # type: ignore[arg-type]
        return self.raw.execute(self._query(query), params)  # type: ignore[arg-type]

    def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.raw.cursor() as cur:
            cur.executemany(self._query(query), rows)  # type: ignore[arg-type]

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        return self.raw.info.transaction_status in (TransactionStatus.INTRANS, TransactionStatus.INERROR)

    def commit(self) -> None:
        if self.in_transaction:
            self.raw.execute("COMMIT")

    def close(self) -> None:
        self.raw.close()
