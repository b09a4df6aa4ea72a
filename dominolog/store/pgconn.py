"""The connection the PostgreSQL store runs its SQL through (:class:`PgConnection`): one module that
both the store (:mod:`dominolog.store.postgres`) and the schema (:mod:`dominolog.store.pgschema`) use.

Statements whose answer nobody reads (``BEGIN``, ``SAVEPOINT``, ``RELEASE``, and what the store hands
to :meth:`PgConnection.defer`: an append's lock, its row and its projections) are not sent on their
own: they wait, in order, and go with the next statement that is read, or with the ``COMMIT``, in one
round trip (psycopg's pipeline mode). An append in a transaction of its own is then two round trips
(the lock and the last event read; the row, the projections and the commit) rather than nine. An
error of a statement that waited is raised by the statement it went with (the server runs them in
order and skips the rest of the batch: nothing after the failed one is done).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

#: statements sent with the next one (their answer is never read); the first word of the query
_DEFERRED_WORDS = ("BEGIN", "SAVEPOINT", "RELEASE")


def _sql(query: str) -> str:
    """A query written with ``?`` parameters as psycopg takes it (``%s``; a literal ``%`` doubled)."""
    return query.replace("%", "%%").replace("?", "%s")


def _releases_deeper(release: str, waiting: tuple[str, Any, Any]) -> bool:
    """Whether ``waiting`` is a ``RELEASE`` of a savepoint made inside the one ``release`` releases (the
    store names them by depth: ``w1``, ``w2``...): releasing the outer one releases it too, so the inner
    ``RELEASE`` need not be sent."""
    query, params, _ = waiting
    if params is not None or not query.startswith("RELEASE w") or not release.startswith("RELEASE w"):
        return False
    inner, outer = query[len("RELEASE w") :], release[len("RELEASE w") :]
    return inner.isdigit() and outer.isdigit() and int(inner) > int(outer)


class PgConnection:
    """A psycopg connection (autocommit: transactions are begun and ended by the store) that runs the
    store's SQL as it is written for both databases, ``?`` parameters and all."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.raw = conn
        self._queries: dict[str, str] = {}
        #: the statements waiting to be sent: (query as psycopg takes it, parameters, many rows or not, or
        #: the list that keeps its cursor: :meth:`defer_read`)
        self._waiting: list[tuple[str, Any, bool | list[Any]]] = []
        #: a BEGIN is among them (the transaction is under way for the store, not yet for the server)
        self._begun = False

    def _query(self, query: str) -> str:
        done = self._queries.get(query)
        if done is None:
            done = self._queries[query] = _sql(query)
        return done

    def defer(self, query: str, params: Sequence[Any] | None = None) -> None:
        """Run ``query`` with the next statement sent (its answer is not read)."""
        self._waiting.append((self._query(query) if params is not None else query, params, False))

    def defer_read(self, query: str, params: Sequence[Any]) -> list[psycopg.Cursor[Any]]:
        """:meth:`defer`, its answer kept: the list returned holds the statement's cursor, answered, once
        it has gone with the next statement sent (empty until then, and when what waits is dropped)."""
        kept: list[psycopg.Cursor[Any]] = []
        self._waiting.append((self._query(query), params, kept))
        return kept

    def defer_many(self, query: str, rows: Sequence[Sequence[Any]]) -> None:
        """:meth:`executemany`, sent with the next statement."""
        if rows:
            self._waiting.append((self._query(query), rows, True))

    def _send(self, query: str, params: Any) -> psycopg.Cursor[Any]:
        """The waiting statements and then ``query``, in one round trip (psycopg's pipeline mode: each
        sent as a prepared statement, the batch ended by one sync): its cursor, answered. The server
        runs them in order and skips the rest after an error, which is raised here."""
        waiting, self._waiting, self._begun = self._waiting, [], False
        raw = self.raw
        with raw.pipeline():
            for q, p, many in waiting:
                if many is True:
                    with raw.cursor() as many_cur:
                        many_cur.executemany(q, p)
                elif many is False:
                    raw.execute(q, p)
                else:
                    many.append(raw.execute(q, p))
            cur = raw.execute(query, params)
        return cur

    def execute(self, query: str, params: Sequence[Any] | None = None) -> psycopg.Cursor[Any]:
        if params is None:
            word = query.split(None, 1)[0].upper() if query.strip() else ""
            if word in _DEFERRED_WORDS:
                self._begun = self._begun or word == "BEGIN"
                if word == "RELEASE" and self._waiting and _releases_deeper(query, self._waiting[-1]):
                    self._waiting.pop()  # (this RELEASE ends the savepoint made inside it too)
                self._waiting.append((query, None, False))
                return self.raw.cursor()  # (nobody reads it)
            if word == "ROLLBACK" and not query.upper().startswith("ROLLBACK TO"):
                return self._rollback(query)
            if self._waiting:
                return self._send(query, None)
            return self.raw.execute(query)  # type: ignore[arg-type]
        if self._waiting:
            return self._send(self._query(query), params)
        return self.raw.execute(self._query(query), params)  # type: ignore[arg-type]

    def _rollback(self, query: str) -> psycopg.Cursor[Any]:
        """ROLLBACK: what waits is dropped; sent only when the server has a transaction to undo."""
        self._waiting, self._begun = [], False
        if self._server_in_transaction:
            return self.raw.execute(query)  # type: ignore[arg-type]
        return self.raw.cursor()

    def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        if self._waiting:
            self.defer_many(query, list(rows))
            self.flush()
            return
        with self.raw.cursor() as cur:
            cur.executemany(self._query(query), rows)  # type: ignore[arg-type]

    def flush(self) -> None:
        """Send what waits now (its errors raised here): the last statement waiting is the one whose answer
        ends the round trip (no statement of its own for that, unless it is rows or a kept read)."""
        if self._waiting:
            query, params, many = self._waiting[-1]
            if many is False:
                self._waiting.pop()
                self._send(query, params)
            else:
                self._send("SELECT 1", None)

    @property
    def _server_in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        return self.raw.info.transaction_status in (TransactionStatus.INTRANS, TransactionStatus.INERROR)

    @property
    def in_transaction(self) -> bool:
        return self._begun or self._server_in_transaction

    def commit(self) -> None:
        if self.in_transaction:
            self.execute("COMMIT")

    def close(self) -> None:
        self._waiting, self._begun = [], False
        self.raw.close()
