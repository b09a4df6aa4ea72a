"""The JSON Schemas generated from document models (dominolog/docschema.py): the plain form schemas/ keeps."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from dominolog.docschema import DRAFT, Count, Null, Omitted, document_schema, null_in_type


class Inner(BaseModel):
    # no docstring: no description
    n: int = Field(ge=0)


class Described(BaseModel):
    """An object that says what it is."""

    x: str


class Doc(BaseModel):
    """A document."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(description="A name.")
    names: list[str] | None
    kind: Literal["a", "b"]
    inner: Inner
    described: Described
    told: Described = Field(description="Said here, not by the model.")
    extra: dict[str, Any] = {}
    left_out: int = 3


def test_a_model_becomes_a_plain_document() -> None:
    assert document_schema(Doc, "https://x.invalid/doc.schema.json", "the doc") == {
        "$schema": DRAFT,
        "$id": "https://x.invalid/doc.schema.json",
        "title": "the doc",
        "description": "A document.",
        "type": "object",
        "required": ["name", "names", "kind", "inner", "described", "told"],
        "properties": {
            "name": {"type": ["string", "null"], "description": "A name."},
            "names": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
            "kind": {"enum": ["a", "b"]},
            "inner": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "minimum": 0}}},
            "described": {
                "type": "object",
                "required": ["x"],
                "properties": {"x": {"type": "string"}},
                "description": "An object that says what it is.",
            },
            "told": {
                "type": "object",
                "required": ["x"],
                "properties": {"x": {"type": "string"}},
                "description": "Said here, not by the model.",
            },
            "extra": {"type": "object"},
            "left_out": {"type": "integer"},
        },
        "additionalProperties": False,
    }


class One(BaseModel):
    """The first kind."""

    type: Literal["one"]


class Two(BaseModel):
    type: Literal["two"]
    n: int


def test_a_union_chosen_by_type_is_a_one_of_with_each_kinds_docstring_after_its_type() -> None:
    adapter: TypeAdapter[Any] = TypeAdapter(Annotated[One | Two, Field(discriminator="type")])
    assert document_schema(adapter, "u", "either", "One or two.") == {
        "$schema": DRAFT,
        "$id": "u",
        "title": "either",
        "description": "One or two.",
        "oneOf": [
            {
                "type": "object",
                "description": "The first kind.",
                "required": ["type"],
                "properties": {"type": {"const": "one"}},
            },
            {
                "type": "object",
                "required": ["type", "n"],
                "properties": {"type": {"const": "two"}, "n": {"type": "integer"}},
            },
        ],
    }


# -- what a model says with docschema's words: Omitted, Null, null_in_type, Count; kept $defs ---------------


class Tally(BaseModel):
    """Counts of things."""

    model_config = ConfigDict(extra="forbid")

    n: Count


class Kept(BaseModel):
    """Written once."""

    x: int


class Page(BaseModel):
    """A page."""

    tally: Tally
    told: Tally = Field(description="Said at the use.")
    inner: Inner = Field(description="What the use says.")
    left: Kept | Omitted = None
    first: Null | Inner
    place: int | None = Field(ge=1, json_schema_extra=null_in_type)
    kept: list[Kept]


def test_a_docstring_follows_the_type_and_a_use_s_description_takes_its_place_or_comes_last() -> None:
    doc = document_schema(Page, "p", "the page")
    tally = {
        "type": "object",
        "description": "Counts of things.",
        "required": ["n"],
        "properties": {"n": {"type": "integer", "minimum": 0}},
        "additionalProperties": False,
    }
    kept = {
        "type": "object",
        "description": "Written once.",
        "required": ["x"],
        "properties": {"x": {"type": "integer"}},
    }
    expected = {
        "$schema": DRAFT,
        "$id": "p",
        "title": "the page",
        "description": "A page.",
        "type": "object",
        "required": ["tally", "told", "inner", "first", "place", "kept"],
        "properties": {
            "tally": tally,
            "told": {**tally, "description": "Said at the use."},
            "inner": {
                "type": "object",
                "required": ["n"],
                "properties": {"n": {"type": "integer", "minimum": 0}},
                "description": "What the use says.",
            },
            "left": kept,
            "first": {
                "anyOf": [
                    {"type": "null"},
                    {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "minimum": 0}}},
                ]
            },
            "place": {"type": ["integer", "null"], "minimum": 1},
            "kept": {"type": "array", "items": kept},
        },
    }
    assert json.dumps(doc) == json.dumps(expected)  # (the keys' order too)


def test_kept_models_are_written_once_under_defs_by_the_names_given() -> None:
    doc = document_schema(Page, "p", "the page", defs={"kept": Kept, "tally": Tally})
    assert doc["properties"]["tally"] == {"$ref": "#/$defs/tally"}
    assert doc["properties"]["told"] == {"$ref": "#/$defs/tally", "description": "Said at the use."}
    assert doc["properties"]["left"] == {"$ref": "#/$defs/kept"}
    assert doc["properties"]["kept"] == {"type": "array", "items": {"$ref": "#/$defs/kept"}}
    assert list(doc) == ["$schema", "$id", "title", "description", "type", "required", "properties", "$defs"]
    assert list(doc["$defs"]) == ["kept", "tally"]
    assert json.dumps(doc["$defs"]["kept"]) == json.dumps(
        {"type": "object", "description": "Written once.", "required": ["x"], "properties": {"x": {"type": "integer"}}}
    )


def test_a_kept_model_the_document_does_not_use_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"^Described is not a model of the document"):
        document_schema(Page, "p", "the page", defs={"described": Described})


def test_an_omitted_property_may_be_left_out_but_is_never_null() -> None:
    base = '{"tally": {"n": 0}, "told": {"n": 1}, "inner": {"n": 2}, "first": null, "place": null, "kept": []'
    assert Page.model_validate_json(base + "}", strict=True).left is None
    assert Page.model_validate_json(base + ', "left": {"x": 3}}', strict=True).left == Kept(x=3)
    with pytest.raises(ValidationError, match="left out when there is nothing to say, never null"):
        Page.model_validate_json(base + ', "left": null}', strict=True)
    with pytest.raises(ValidationError, match="greater than or equal to 1"):
        Page.model_validate_json(base.replace('"place": null', '"place": 0') + "}", strict=True)


def test_null_in_type_takes_only_a_simple_type_or_null() -> None:
    class Wrong(BaseModel):
        n: int = Field(json_schema_extra=null_in_type)

    with pytest.raises(ValueError, match=r"^null_in_type: not a type or null: None$"):
        Wrong.model_json_schema()
