"""JSON Schemas of the documents dominolog prints (``list --json``, ``audit --format json``...),
generated from typed document models (pydantic) rather than written by hand, in the plain form
``schemas/`` keeps: no generated titles and no defaults, nested models written in place (no
``$defs``, unless the document names the models it keeps there), ``["string", "null"]`` for a simple
type that may be null, a ``Literal``'s values as an ``enum`` (or ``const``) alone, and each object's
keys in one order (``type``, ``enum``, ``required``, ``properties``, ``items``, ..., ``description``
last; a model's docstring is said just after its type instead, and a description given where the
model is used takes the docstring's place).

What a model says with these: :data:`Omitted` (a property the document may leave out, never null),
:data:`Null` (null said before the other choices), :func:`null_in_type` (a constrained type that may
be null said as one type), :data:`Count` (an integer from 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, Field, TypeAdapter
from pydantic.json_schema import SkipJsonSchema

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _left_out(value: None) -> None:
    raise ValueError("left out when there is nothing to say, never null")


#: ``x: Model | Omitted = None``: a property the document leaves out when it has nothing to say, never
#: null (the schema does not allow null, nor does the model; it holds None when the property is left out)
Omitted = Annotated[None, SkipJsonSchema(), AfterValidator(_left_out)]
#: ``x: Null | Model``: null or the model, null said first (pydantic says it last for ``Model | None``)
Null = Annotated[None, Field()]
#: a count: an integer from 0
Count = Annotated[int, Field(ge=0)]

#: the order of a schema object's keys (others after these, as generated)
_ORDER = (
    "type",
    "enum",
    "const",
    "required",
    "properties",
    "items",
    "additionalProperties",
    "anyOf",
    "oneOf",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
)


def null_in_type(schema: dict[str, Any]) -> None:
    """``Field(json_schema_extra=null_in_type)`` on a ``T | None`` whose ``T`` has bounds or a format:
    one type that may be null, ``{"type": [T, "null"], "minimum": ...}``, rather than an ``anyOf``."""
    choices = schema.pop("anyOf", None)
    if not (isinstance(choices, list) and len(choices) == 2 and choices[1] == {"type": "null"}):
        raise ValueError(f"null_in_type: not a type or null: {choices!r}")
    first = choices[0]
    if not (isinstance(first, dict) and isinstance(first.get("type"), str)):
        raise ValueError(f"null_in_type: not one simple type: {first!r}")
    schema.update({**first, "type": [first["type"], "null"]})


def document_schema(
    model: type[BaseModel] | TypeAdapter[Any],
    uri: str,
    title: str,
    description: str | None = None,
    defs: Mapping[str, type[BaseModel]] | None = None,
) -> dict[str, Any]:
    """The schema of a document ``model`` is the whole of (a union of models: a ``TypeAdapter``), with
    its ``$id`` (``uri``) and ``title``; its description is ``description``, else the model's docstring.
    ``defs``: models written once, under ``$defs`` by these names (in this order), and referred to
    wherever they are used."""
    raw = model.json_schema() if isinstance(model, TypeAdapter) else model.model_json_schema()
    found = raw.pop("$defs", {})
    raw.pop("discriminator", None)  # (OpenAPI's, not JSON Schema's: each choice's const tells)
    kept: dict[str, str] = {}
    for name, kept_model in (defs or {}).items():
        if kept_model.__name__ not in found:
            raise ValueError(f"{kept_model.__name__} is not a model of the document (or its name is not its own)")
        kept[kept_model.__name__] = name
    body = _plain(raw, found, kept)
    docstring = body.pop("description", None)
    if description is None and docstring is not None:
        description = " ".join(docstring.splitlines())
    head: dict[str, Any] = {"$schema": DRAFT, "$id": uri, "title": title}
    if description is not None:
        head["description"] = description
    if kept:
        body["$defs"] = {name: _model(found[ref], found, kept) for ref, name in kept.items()}
    return {**head, **body}


def _plain(node: dict[str, Any], defs: dict[str, Any], kept: dict[str, str]) -> dict[str, Any]:
    """One schema object in the plain form (see the module)."""
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        use = _plain({k: v for k, v in node.items() if k != "$ref"}, defs, kept)
        if name in kept:
            return {"$ref": f"#/$defs/{kept[name]}", **use}
        inner = _model(defs[name], defs, kept)
        # (what the use says goes in the place of what the model says: a description, the docstring's)
        return _ordered({**inner, **use}, docstring="description" in inner)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("title", "default") or (key == "additionalProperties" and value is True):
            continue  # (a default is the printer's, not the document's; any property is the default)
        if key == "properties":
            out[key] = {name: _plain(sub, defs, kept) for name, sub in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = _plain(value, defs, kept)
        elif key in ("anyOf", "oneOf"):
            out[key] = [_plain(sub, defs, kept) for sub in value]
        else:
            out[key] = value
    if "enum" in out or "const" in out:
        out.pop("type", None)  # (a Literal's values say it all)
    choices = out.get("anyOf")
    if isinstance(choices, list) and len(choices) == 2 and choices[1] == {"type": "null"}:
        first = choices[0]
        if set(first) == {"type"} and isinstance(first["type"], str):
            del out["anyOf"]
            out["type"] = [first["type"], "null"]
    return _ordered(out)


def _model(node: dict[str, Any], defs: dict[str, Any], kept: dict[str, str]) -> dict[str, Any]:
    """A model's own schema: its docstring (its description) said just after its type, its lines joined."""
    inner = _plain(node, defs, kept)
    if "description" in inner:  # (a docstring's lines, wrapped for the source, are one text)
        inner["description"] = " ".join(inner["description"].splitlines())
    return _ordered(inner, docstring="description" in inner)


def _ordered(node: dict[str, Any], docstring: bool = False) -> dict[str, Any]:
    """``node``'s keys in the order of the module; ``docstring``: its description is a model's, said
    just after its type."""
    last = len(_ORDER) + 1

    def rank(key: str) -> float:
        if key == "description":
            return 0.5 if docstring else last
        return _ORDER.index(key) if key in _ORDER else len(_ORDER)

    return {key: node[key] for key in sorted(node, key=rank)}
