"""A store's parts, held and given by their names: the tables beside the matches' events, each a
small class of its own that reads and writes through the store's connection and transactions
(:class:`~dominolog.store.transactions.Transactions`): ``access`` (tokens, private events, idempotent
answers: :mod:`dominolog.store.access`), ``analyses`` (the analysis cache: :mod:`dominolog.store.analyses`),
``club`` (the club events' logs: :mod:`dominolog.store.clublog`). A backend whose SQL differs gives its
own class of a part (:attr:`Parts._access_part`...). The store gives each part's methods by their
names (``store.create_token``, as ``store.access.create_token``), so its callers need not know the parts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dominolog.store.access import Access, Token, WriteView
from dominolog.store.analyses import Analyses
from dominolog.store.appending import Appending
from dominolog.store.clublog import ClubLog


class Parts(Appending):
    """The store's parts (see the module), over its events and transactions."""

    #: the parts' classes (a backend gives its own where its SQL differs)
    _access_part: type[Access] = Access
    _analyses_part: type[Analyses] = Analyses
    _club_part: type[ClubLog] = ClubLog

    def __init__(self, path: Path | str, conn: Any, read_only: bool = False) -> None:
        super().__init__(path, conn, read_only)
        #: the tokens, private events and idempotent answers
        self.access = self._access_part(self)
        #: the analysis cache
        self.analyses = self._analyses_part(self)
        #: the club events' logs
        self.club = self._club_part(self)

    # -- access (Access) ------------------------------------------------------
    def create_token(self, role: str, match_id: str | None = None, who: str = "") -> tuple[Token, str]:
        return self.access.create_token(role, match_id, who)

    def tokens(self) -> list[Token]:
        return self.access.tokens()

    def find_token(self, token: str) -> Token | None:
        return self.access.find_token(token)

    def revoke_token(self, token_or_id: str) -> Token | None:
        return self.access.revoke_token(token_or_id)

    def has_organiser(self) -> bool:
        return self.access.has_organiser()

    def private_events(self) -> set[str]:
        return self.access.private_events()

    def write_view(self, match_id: str, token: str | None, lock: bool = False) -> WriteView:
        return self.access.write_view(match_id, token, lock)

    def set_private(self, event: str, private: bool, who: str = "") -> bool:
        return self.access.set_private(event, private, who)

    def event_of(self, match_id: str) -> str | None:
        return self.access.event_of(match_id)

    def answer_of(self, token_id: str, key: str, request: str | None = None) -> tuple[int, str] | None:
        return self.access.answer_of(token_id, key, request)

    def lock_key(self, token_id: str, key: str) -> None:
        return self.access.lock_key(token_id, key)

    def keep_answer(self, token_id: str, key: str, status: int, body: str, request: str | None = None) -> None:
        return self.access.keep_answer(token_id, key, status, body, request)

    # -- analyses (Analyses) --------------------------------------------------
    def save_analysis(
        self, match_id: str, head: str, version: str, settings: dict[str, Any], review: dict[str, Any]
    ) -> None:
        return self.analyses.save_analysis(match_id, head, version, settings, review)

    def analysis(self, match_id: str, head: str, version: str, settings: dict[str, Any]) -> dict[str, Any] | None:
        return self.analyses.analysis(match_id, head, version, settings)

    def analyses_of(self, match_id: str, head: str, version: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        return self.analyses.analyses_of(match_id, head, version)

    def newest_analysis(
        self, match_id: str, version: str, settings: dict[str, Any]
    ) -> tuple[str, int, dict[str, Any]] | None:
        return self.analyses.newest_analysis(match_id, version, settings)

    # -- club (ClubLog) -------------------------------------------------------
    def club_events(self) -> list[str]:
        return self.club.club_events()

    def club_records(self, event: str) -> list[dict[str, Any]]:
        return self.club.club_records(event)

    def append_club_record(self, event: str, record: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        return self.club.append_club_record(event, record, seq)

    def match_marks(self, match_id: str) -> dict[str, Any]:
        return self.club.match_marks(match_id)

    def match_rows(self, match_ids: list[str]) -> dict[str, dict[str, Any]]:
        return self.club.match_rows(match_ids)
