"""The JSON Schema of ``dominolog list --json`` (written to ``schemas/list.schema.json``), generated
from its typed document model (:mod:`dominolog.docschema`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dominolog.docschema import document_schema


class ListedMatch(BaseModel):
    # one stored match (a row of ``matches``, as ``list --json`` prints it)
    id: str
    variant: str | None
    players: list[str] | None
    meta: dict[str, str] | None
    status: Literal["complete", "open", "invalid"]
    complete: bool = Field(description="A match_end was read.")
    head: str = Field(description="The head hash; its first 10 characters are the fingerprint.")
    totals: dict[str, int] | None
    winner: str | list[str] | None
    hands: int = Field(ge=0)
    events: int = Field(ge=0)
    violations: int = Field(ge=0)
    unverified: int = Field(ge=0)
    date: str | None = Field(
        description="ISO 8601: meta.date when it is an ISO date, else the first event's `at`, else null."
    )


class MatchList(BaseModel):
    """The stored matches, as `dominolog list --json` prints them."""

    model_config = ConfigDict(extra="forbid")

    matches: list[ListedMatch]


def list_schema(base_uri: str) -> dict[str, Any]:
    return document_schema(MatchList, f"{base_uri}list.schema.json", "dominolog list --json")
