"""The JSON Schema files in ``schemas/`` are what the pydantic models generate, and the models fit real logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dominolog.events import EVENT_TYPES
from dominolog.events.models import EVENT_ADAPTER, EVENT_MODELS
from dominolog.log.hashchain import canonical
from dominolog.log.writer import dump_line
from dominolog.schema import BASE_URI, render, schema_documents
from dominolog.simulate import hide_match, simulate_match

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
DOCS = schema_documents()


def test_one_document_per_event_type_and_one_for_any_line() -> None:
    assert sorted(DOCS) == sorted(
        [f"{kind}.schema.json" for kind in EVENT_TYPES]
        + ["event.schema.json", "audit.schema.json", "list.schema.json", "standings.schema.json"]
        + ["club-event.schema.json", "club-record.schema.json"]
    )
    assert len(EVENT_MODELS) == len(EVENT_TYPES) == 12


def test_the_checked_in_files_are_exactly_the_generated_ones() -> None:
    on_disk = sorted(p.name for p in SCHEMAS.iterdir())
    assert on_disk == sorted(DOCS), "run `dominolog schema --out schemas` and commit the result"


@pytest.mark.parametrize("name", sorted(DOCS))
def test_each_checked_in_file_is_current(name: str) -> None:
    assert (SCHEMAS / name).read_text(encoding="utf-8") == render(DOCS[name])


@pytest.mark.parametrize("name", sorted(DOCS))
def test_each_file_is_json_with_its_id(name: str) -> None:
    doc = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    assert doc["$id"] == f"{BASE_URI}{name}"
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    documents = ("event.schema.json", "audit.schema.json", "list.schema.json", "standings.schema.json")
    if name not in (*documents, "club-event.schema.json", "club-record.schema.json"):
        kind = name.removesuffix(".schema.json")
        assert doc["properties"]["type"]["const"] == kind
        assert "type" in doc["required"]
        assert doc["additionalProperties"] is False


def test_the_line_schema_chooses_the_event_by_type() -> None:
    doc = json.loads((SCHEMAS / "event.schema.json").read_text(encoding="utf-8"))
    mapping = doc["discriminator"]["mapping"]
    assert doc["discriminator"]["propertyName"] == "type"
    assert sorted(mapping) == sorted(EVENT_TYPES)
    assert sorted(ref["$ref"] for ref in doc["oneOf"]) == sorted(mapping.values())
    for ref in mapping.values():
        assert ref.removeprefix("#/$defs/") in doc["$defs"]


@pytest.mark.parametrize("hidden", [False, True], ids=["full", "hidden"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_event_adapter_round_trips_simulated_events(seed: int, hidden: bool) -> None:
    events = simulate_match("ghost13", seed)
    if hidden:
        events = hide_match(events)
    kinds = set()
    for e in events:
        parsed = EVENT_ADAPTER.validate_python(e)
        kinds.add(parsed.type)
        assert EVENT_ADAPTER.dump_python(parsed, exclude_unset=True) == e
        from_line = EVENT_ADAPTER.validate_json(dump_line(e))
        assert from_line == parsed
        # what a writer dumps from the model hashes the same as what was read
        assert canonical(json.loads(EVENT_ADAPTER.dump_json(from_line, exclude_unset=True))) == canonical(e)
    assert {"match_start", "deal", "play", "hand_end", "match_end"} <= kinds
    if hidden:
        assert "reveal" in kinds
