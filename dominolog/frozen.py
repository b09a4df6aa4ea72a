"""Pickling (and copying) the dataclasses of the compiled build.

pickle restores an object with ``__slots__`` attribute by attribute, which a frozen dataclass
compiled by mypyc refuses (``FrozenInstanceError``), and a compiled class whose ``__init__`` is
written out (the events, the reader's records) cannot be made empty first: the reports that
``verify --jobs``, ``import --jobs`` and ``verify --dask`` send between processes carry such
objects. Each of those classes pickles itself by its constructor instead: ``def __reduce__(self):
return by_fields(self)``, the same in both builds.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def by_fields(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    """``obj``'s class and its fields in order: what ``__reduce__`` returns to rebuild it by ``__init__``."""
    return (type(obj), tuple(getattr(obj, f.name) for f in fields(obj)))
