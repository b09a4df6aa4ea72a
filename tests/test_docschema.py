"""The JSON Schemas generated from document models (dominolog/docschema.py): the plain form schemas/ keeps."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from dominolog.docschema import DRAFT, document_schema


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
