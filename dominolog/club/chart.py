"""A line chart as inline SVG (no script, no fonts loaded): running totals on a score sheet, rating
histories in the standings. Every text is escaped; the chart prints as it shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

#: one colour per line, told apart in print and by people who do not see red/green (Okabe-Ito)
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
FONTS = "system-ui, -apple-system, &quot;Segoe UI&quot;, Roboto, &quot;DejaVu Sans&quot;, sans-serif"
DASHES = ("", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3")


@dataclass(slots=True)
class Series:
    """One line: its name and a value at each x (None: no point there)."""

    name: str
    values: Sequence[float | None]
    #: an uncertainty band around each value (same length as ``values``), e.g. a rating's sigma
    spread: Sequence[float | None] | None = None


def _nice_step(span: float) -> float:
    """A round step for about five gridlines over ``span``."""
    if span <= 0:
        return 1.0
    raw = span / 5
    mag = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1.0
    for m in (1, 2, 2.5, 5, 10):
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.1f}"


def line_chart(
    series: Sequence[Series],
    x_labels: Sequence[str],
    title: str,
    y_label: str = "",
    width: int = 720,
    height: int = 300,
    target: float | None = None,
) -> str:
    """The chart as an ``<svg>`` element. ``x_labels`` names each x (e.g. "H1"); ``target`` draws a
    dashed line (the score a match is played to)."""
    n = len(x_labels)
    left, right, top, bottom = 52, 150, 30, 42
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for s in series for v in s.values if v is not None]
    bands = [
        (v - d, v + d)
        for s in series
        if s.spread is not None
        for v, d in zip(s.values, s.spread, strict=False)
        if v is not None and d is not None
    ]
    lo = min([0.0, *values, *(b[0] for b in bands), *([target] if target is not None else [])])
    hi = max([1.0, *values, *(b[1] for b in bands), *([target] if target is not None else [])])
    step = _nice_step(hi - lo)
    lo = step * (lo // step)
    hi = step * -(-hi // step)

    def x_at(i: int) -> float:
        return left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y_at(v: float) -> float:
        return top + plot_h * (1 - (v - lo) / (hi - lo))

    out = [
        f'<svg class="chart" font-family="{FONTS}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>',
        f'<text x="{left}" y="18" font-size="13" font-weight="600" fill="#1d232a">{escape(title)}</text>',
    ]
    v = lo
    while v <= hi + step / 1000:
        y = y_at(v)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#e3e7eb"/>')
        out.append(
            f'<text x="{left - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end" fill="#5b6570">{_fmt(v)}</text>'
        )
        v += step
    if lo < 0 < hi:
        out.append(f'<line x1="{left}" y1="{y_at(0):.1f}" x2="{left + plot_w}" y2="{y_at(0):.1f}" stroke="#9aa4ad"/>')
    if target is not None:
        y = y_at(target)
        out.append(
            f'<line class="target" x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" '
            f'stroke="#5b6570" stroke-dasharray="4 4"/>'
            f'<text x="{left + plot_w + 4}" y="{y + 4:.1f}" font-size="11" fill="#5b6570">{_fmt(target)}</text>'
        )
    every = max(1, -(-n // 16))  # at most about 16 labels along the bottom
    for i, label in enumerate(x_labels):
        if i % every == 0 or i == n - 1:
            out.append(
                f'<text x="{x_at(i):.1f}" y="{top + plot_h + 16}" font-size="11" text-anchor="middle" '
                f'fill="#5b6570">{escape(label)}</text>'
            )
    if y_label:
        out.append(
            f'<text x="12" y="{top + plot_h / 2:.1f}" font-size="11" fill="#5b6570" text-anchor="middle" '
            f'transform="rotate(-90 12 {top + plot_h / 2:.1f})">{escape(y_label)}</text>'
        )
    for k, s in enumerate(series):
        colour, dash = COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)]
        pts = [(x_at(i), y_at(v)) for i, v in enumerate(s.values) if v is not None]
        if s.spread is not None:
            upper = [
                (x_at(i), y_at(v + d))
                for i, (v, d) in enumerate(zip(s.values, s.spread, strict=False))
                if v is not None and d is not None
            ]
            lower = [
                (x_at(i), y_at(v - d))
                for i, (v, d) in enumerate(zip(s.values, s.spread, strict=False))
                if v is not None and d is not None
            ]
            if len(upper) > 1:
                ring = " ".join(f"{x:.1f},{y:.1f}" for x, y in [*upper, *reversed(lower)])
                out.append(f'<polygon points="{ring}" fill="{colour}" fill-opacity="0.10" stroke="none"/>')
        name = escape(s.name)
        out.append(f'<g class="series" data-name="{name}">')
        if len(pts) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.2"{dash_attr}/>')
        for (x, y), v in zip(pts, [v for v in s.values if v is not None], strict=True):
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"><title>{name}: {_fmt(v)}</title></circle>'
            )
        out.append("</g>")
        ly = top + 8 + 18 * k
        lx = left + plot_w + 14
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line x1="{lx}" y1="{ly}" x2="{lx + 22}" y2="{ly}" stroke="{colour}" stroke-width="2.2"{dash_attr}/>'
            f'<text x="{lx + 28}" y="{ly + 4}" font-size="12" fill="#1d232a">{escape(s.name[:18])}</text>'
        )
    out.append("</svg>")
    return "".join(out)
