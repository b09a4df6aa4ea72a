"""Rule variants, found by name (python-chess style ``find_variant``).

A new variant is one module with a :class:`~dominolog.variants.base.Variant`
subclass, listed in :data:`VARIANTS`; the reducer does not change.
"""

from __future__ import annotations

from dominolog.variants.base import Variant, VariantError
from dominolog.variants.brettspielnetz import Brettspielnetz
from dominolog.variants.double_bergen import DoubleBergen
from dominolog.variants.double_draw import DoubleDraw
from dominolog.variants.ghost13 import Ghost13
from dominolog.variants.thirty_nine import ThirtyNine

VARIANTS: dict[str, type[Variant]] = {
    cls.name: cls for cls in (Ghost13, Brettspielnetz, ThirtyNine, DoubleBergen, DoubleDraw)
}


def find_variant(name: str) -> type[Variant]:
    """The variant class registered under ``name`` (VariantError if there is none)."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise VariantError(f"unknown or not yet supported variant {name!r} (supported: {known})") from None


__all__ = ["VARIANTS", "Variant", "VariantError", "find_variant"]
