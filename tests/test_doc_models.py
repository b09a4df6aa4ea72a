"""The typed document models that schemas/audit.schema.json and schemas/standings.schema.json are generated
from (dominolog/audit/schema.py, dominolog/club/schema.py, dominolog/knowledge/evidence_doc.py) take the
documents the command line writes for every match of every replay, strictly (JSON types as written, no
property they do not name, none null that may only be left out), as the schemas do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from dominolog.audit.schema import AuditDocument
from dominolog.cli import app
from dominolog.club.schema import StandingsDocument
from dominolog.recording.notation import iter_matches_any
from tests.conftest import ROOT

REPLAYS = ROOT / "replays"
SCHEMAS = ROOT / "schemas"
runner = CliRunner()


def every_replay() -> list[Path]:
    return sorted(
        p for folder in (REPLAYS, REPLAYS / "disputes", REPLAYS / "club-season") for p in folder.glob("*.jsonl")
    )


def _written(*args: object) -> str:
    """What ``dominolog ARGS`` prints (0: valid, 1: violations: a document either way)."""
    done = runner.invoke(app, [str(a) for a in args])
    assert done.exit_code in (0, 1), done.output
    return done.stdout


def _schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return loaded


@pytest.mark.parametrize("path", every_replay(), ids=lambda p: p.name)
def test_the_audit_model_takes_what_audit_writes_for_every_match(path: Path) -> None:
    matches = len(list(iter_matches_any(path)))
    assert matches >= 1
    schema = _schema("audit.schema.json")
    for n in range(1, matches + 1):
        text = _written("audit", path, "--match", n, "--format", "json")
        doc = AuditDocument.model_validate_json(text, strict=True)
        jsonschema.validate(json.loads(text), schema)
        assert doc.schema_ == "dominolog-audit/1"
        assert doc.fairplay is not None  # (every audit weighs the evidence of reneging)
        # what the model read is what was written, nothing dropped nor added
        assert json.loads(doc.model_dump_json(by_alias=True, exclude_unset=True)) == json.loads(text)


def test_the_standings_model_takes_what_standings_writes_over_every_replay() -> None:
    replays = every_replay()
    schema = _schema("standings.schema.json")
    for flags in ((), ("--include-invalid", "--fairplay")):
        text = _written("standings", *flags, "--format", "json", *replays)
        doc = StandingsDocument.model_validate_json(text, strict=True)
        jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(json.loads(text))
        assert doc.matches.read == sum(len(list(iter_matches_any(p))) for p in replays)
        fair = [p.fairplay for v in doc.variants for p in v.players]
        assert all(f is not None for f in fair) if flags else all(f is None for f in fair)
        assert json.loads(doc.model_dump_json(by_alias=True, exclude_unset=True)) == json.loads(text)


def test_the_models_refuse_what_the_schemas_refuse() -> None:
    text = _written("audit", REPLAYS / "ghost13-disputed.jsonl", "--format", "json")
    doc = json.loads(text)
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        AuditDocument.model_validate_json(json.dumps({**doc, "extra": 1}), strict=True)
    with pytest.raises(ValidationError, match="never null"):
        AuditDocument.model_validate_json(json.dumps({**doc, "fairplay": None}), strict=True)
    with pytest.raises(ValidationError, match="Input should be 'dominolog-audit/1'"):
        AuditDocument.model_validate_json(json.dumps({**doc, "schema": "dominolog-audit/2"}), strict=True)
    evidence = doc["fairplay"]["players"][0]["evidence"]
    doc["fairplay"]["players"][0]["evidence"] = {**evidence, "hands": "2"}
    with pytest.raises(ValidationError, match="Input should be a valid integer"):
        AuditDocument.model_validate_json(json.dumps(doc), strict=True)
