"""One big log file read by several processes (``verify --jobs``, ``import --jobs``): cut into parts of
about equal size, each cut at the start of a line that begins a match.

A cut is made only where the reader itself would begin a new match: a line (not one too long to
read) that decodes as a ``match_start``, as :func:`~dominolog.log.reader.iter_matches` decides it. So
each part holds whole matches, and reading the parts one after the other, each from its first line's
number (:func:`~dominolog.log.reader.iter_matches` with ``first_line``), gives the same matches with
the same records as reading the whole file: ``tests/test_parts.py`` holds it to that on hostile files
(a byte-order mark, lines too long, ``match_start`` inside a note, matches cut short past
:data:`~dominolog.log.reader.MAX_MATCH_EVENTS`, bytes that are not UTF-8).
"""

from __future__ import annotations

import itertools
import mmap
from pathlib import Path

from dominolog.log.reader import LONGEST_READ_WHOLE, decode_line

#: a part smaller than this is not worth a process of its own
SMALLEST_PART = 1 << 20
#: a part is read whole into memory: none is made bigger than this
LARGEST_PART = 64 << 20

#: (first byte, byte after the last, number of the first line)
Part = tuple[int, int, int]


def parts_of(path: Path, count: int, smallest: int = SMALLEST_PART) -> list[Part]:
    """``path`` cut into about ``count`` parts (more when parts would pass :data:`LARGEST_PART`, fewer
    when they would be smaller than ``smallest``, or when the file begins fewer matches), in order."""
    size = path.stat().st_size
    each = min(max(size // max(count, 1), smallest, 1), LARGEST_PART)
    if size <= each:
        return [(0, size, 1)]
    cuts = [0]
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
        target = each
        while target < size:
            cut = _match_start_from(data, target, cuts[-1])
            if cut is None:
                break
            cuts.append(cut)
            target = cut + each
        lines = [1]
        for a, b in itertools.pairwise(cuts):
            lines.append(lines[-1] + data[a:b].count(b"\n"))
    ends = [*cuts[1:], size]
    return list(zip(cuts, ends, lines, strict=True))


def _match_start_from(data: mmap.mmap, pos: int, after: int) -> int | None:
    """Where the first line at or past ``pos`` (and starting past ``after``) that begins a match starts."""
    i = pos
    while True:
        i = data.find(b"match_start", i)
        if i < 0:
            return None
        start = data.rfind(b"\n", 0, i) + 1
        end = data.find(b"\n", i)
        end = len(data) if end < 0 else end
        # a line longer than the reader reads whole is malformed, never a match_start (reader.binary_lines)
        if start > after and end - start <= LONGEST_READ_WHOLE:
            stripped = data[start:end].strip()
            if stripped and decode_line(stripped, 0, 0).type == "match_start":
                return start
        i = end + 1


def read_part(path: Path, part: Part) -> bytes:
    """The bytes of one part of the file."""
    start, end, _ = part
    with open(path, "rb") as fh:
        fh.seek(start)
        return fh.read(end - start)
