"""JSON Schema of the log format, generated from the pydantic models (checked in under ``schemas/``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dominolog.variants  # noqa: F401  the registry: a match_start's variant is one of its names (VariantName)
from dominolog.events.models import EVENT_ADAPTER, EVENT_MODELS
from dominolog.jsontext import dumps

BASE_URI = "https://dominolog.invalid/schemas/"


def schema_documents() -> dict[str, dict[str, Any]]:
    """File name -> schema document: one per event type, ``event.schema.json`` for any line, and
    ``audit.schema.json`` for ``dominolog audit --format json``, ``list.schema.json`` for ``list --json``,
    ``standings.schema.json`` for ``standings --format json``, ``club-event.schema.json`` for ``event show
    --json`` and ``club-record.schema.json`` for a record of a club event's log (``event log``)."""
    docs: dict[str, dict[str, Any]] = {}
    for model in EVENT_MODELS:
        kind = model.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
        doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"{BASE_URI}{kind}.schema.json"}
        doc.update(model.model_json_schema())
        docs[f"{kind}.schema.json"] = doc
    line = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{BASE_URI}event.schema.json",
        "title": "dominolog log line",
        "description": "One line of a dominolog log (format version 1): any event, chosen by `type`.",
    }
    line.update(EVENT_ADAPTER.json_schema())
    docs["event.schema.json"] = line
    from dominolog.audit.schema import audit_schema

    docs["audit.schema.json"] = audit_schema(BASE_URI)
    from dominolog.store.schema import list_schema

    docs["list.schema.json"] = list_schema(BASE_URI)
    from dominolog.club.schema import standings_schema

    docs["standings.schema.json"] = standings_schema(BASE_URI)
    from dominolog.tournament.schema import event_schema, record_schema

    docs["club-event.schema.json"] = event_schema(BASE_URI)
    docs["club-record.schema.json"] = record_schema(BASE_URI)
    return docs


def render(doc: dict[str, Any]) -> str:
    return dumps(doc, indent=2) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, doc in schema_documents().items():
        path = folder / name
        path.write_text(render(doc), encoding="utf-8")
        written.append(path)
    return written
