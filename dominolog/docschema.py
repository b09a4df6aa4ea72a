"""JSON Schemas of the documents dominolog prints (``list --json``...), generated from typed document
models (pydantic) rather than written by hand, in the plain form ``schemas/`` keeps: no generated
titles and no defaults, nested models written in place (no ``$defs``), ``["string", "null"]`` for a
simple type that may be null, a ``Literal``'s values as an ``enum`` (or ``const``) alone, and each
object's keys in one order (``type``, ``enum``, ``required``, ``properties``, ``items``, ...,
``description`` last).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, TypeAdapter

DRAFT = "https://json-schema.org/draft/2020-12/schema"

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


def document_schema(
    model: type[BaseModel] | TypeAdapter[Any], uri: str, title: str, description: str | None = None
) -> dict[str, Any]:
    """The schema of a document ``model`` is the whole of (a union of models: a ``TypeAdapter``), with
    its ``$id`` (``uri``) and ``title``; its description is ``description``, else the model's docstring."""
    raw = model.json_schema() if isinstance(model, TypeAdapter) else model.model_json_schema()
    defs = raw.pop("$defs", {})
    raw.pop("discriminator", None)  # (OpenAPI's, not JSON Schema's: each choice's const tells)
    body = _plain(raw, defs)
    description = body.pop("description", description)
    head: dict[str, Any] = {"$schema": DRAFT, "$id": uri, "title": title}
    if description is not None:
        head["description"] = description
    return {**head, **body}


def _plain(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """One schema object in the plain form (see the module)."""
    ref = node.get("$ref")
    if isinstance(ref, str):
        inner = _plain(defs[ref.rsplit("/", 1)[-1]], defs)
        # (a model's docstring describes it wherever it is used, unless the use says what it is)
        extra = {k: v for k, v in node.items() if k != "$ref"}
        return _ordered({**inner, **_plain(extra, defs)})
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("title", "default") or (key == "additionalProperties" and value is True):
            continue  # (a default is the printer's, not the document's; any property is the default)
        if key == "properties":
            out[key] = {name: _plain(sub, defs) for name, sub in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = _plain(value, defs)
        elif key == "anyOf":
            out[key] = [_plain(sub, defs) for sub in value]
        elif key == "oneOf":  # (a choice of models: each one keeps its docstring, said after its type)
            out[key] = [_choice(sub, defs) for sub in value]
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


def _choice(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return _plain(node, defs)
    model = defs[ref.rsplit("/", 1)[-1]]
    inner = _plain(model, defs)
    if "description" not in model:
        return inner
    kind = {"type": inner.pop("type")} if "type" in inner else {}
    return {**kind, "description": inner.pop("description"), **inner}


def _ordered(node: dict[str, Any]) -> dict[str, Any]:
    ranked = sorted(node, key=lambda k: (_ORDER.index(k) if k in _ORDER else len(_ORDER), k == "description"))
    return {key: node[key] for key in ranked}
