"""Rule variants, found by name (python-chess style ``find_variant``).

A new variant is one module with a :class:`~dominolog.variants.base.Variant` subclass, registered
here by :func:`register_variant` (the five of dominolog below; a plugin or a test registers its own
the same way); the reducer, the audit, the viewers and the recorder do not change: they ask the
class (docs/design/variants.md).
"""

from __future__ import annotations

from dominolog.events.kinds import VARIANT_NAMES
from dominolog.variants.base import Variant, VariantError
from dominolog.variants.brettspielnetz import Brettspielnetz
from dominolog.variants.double_bergen import DoubleBergen
from dominolog.variants.double_draw import DoubleDraw
from dominolog.variants.ghost13 import Ghost13
from dominolog.variants.thirty_nine import ThirtyNine

#: name -> class, in the order registered
VARIANTS: dict[str, type[Variant]] = {}
#: alias -> name (a variant's other spellings: ``thirty_nine``)
ALIASES: dict[str, str] = {}


def register_variant(cls: type[Variant]) -> type[Variant]:
    """Register ``cls`` under its :attr:`~Variant.name` (and its aliases): from now on a
    ``match_start`` may name it. Returns ``cls`` (a class decorator); VariantError for a name or an
    alias that is taken."""
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise VariantError(f"{cls.__name__} has no name")
    for taken in (name, *cls.aliases):
        if taken in VARIANTS or taken in ALIASES:
            raise VariantError(f"a variant named {taken!r} is registered already")
    VARIANTS[name] = cls
    for alias in cls.aliases:
        ALIASES[alias] = name
    VARIANT_NAMES.append(name)
    return cls


def unregister_variant(name: str) -> None:
    """Take the variant registered as ``name`` out of the registry (VariantError if there is none)."""
    cls = find_variant(name)
    del VARIANTS[name]
    for alias in cls.aliases:
        ALIASES.pop(alias, None)
    VARIANT_NAMES.remove(name)


def find_variant(name: str) -> type[Variant]:
    """The variant class registered under ``name`` (VariantError if there is none)."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise VariantError(f"unknown or not yet supported variant {name!r} (supported: {known})") from None


def canonical_name(name: str) -> str | None:
    """The registered name of a variant given by its name or one of its aliases (None: no such variant)."""
    name = ALIASES.get(name, name)
    return name if name in VARIANTS else None


for _cls in (Ghost13, Brettspielnetz, ThirtyNine, DoubleBergen, DoubleDraw):
    register_variant(_cls)

__all__ = [
    "ALIASES",
    "VARIANTS",
    "Variant",
    "VariantError",
    "canonical_name",
    "find_variant",
    "register_variant",
    "unregister_variant",
]
