"""The HTML of every page is in templates (issue 37): no tag written in the package's Python (but the SVG
drawings of :data:`DRAWINGS`), every template shipped as package data, and every value escaped by the
environment itself (autoescaping, then cut and cleaned of control characters as :func:`esc` does)."""

from __future__ import annotations

import ast
import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dominolog"
#: the only modules that write tags: drawings computed point by point (SVG, not HTML): the table's picture
#: and the line chart of the sheets and standings; each escapes its few texts itself
DRAWINGS = {"dominolog/layouts/picture.py", "dominolog/club/chart.py"}
#: the elements of HTML (a placeholder such as ``<log>`` or ``<new match>`` in a message is not one)
ELEMENTS = str.split(
    "a abbr address article aside b blockquote body br button caption code col dd del details div dl dt em "
    "fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hr html i img input ins kbd label "
    "legend li link main mark meta nav noscript ol optgroup option output p pre q s samp script section select "
    "small span strong style sub summary sup table tbody td template textarea tfoot th thead time title tr u ul "
    "var wbr svg"
)
#: a tag: ``<p>``, ``</td>``, ``<a href=``, ``<br``
TAG = re.compile(rf"</?(?:{'|'.join(ELEMENTS)})(?:[\s/>]|$)", re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are docstrings (a module's, a class's, a function's)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def tag_literals(path: Path) -> list[tuple[int, str]]:
    """The string literals of a Python file (f-strings' text parts joined) holding a tag, but docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    inside = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs | inside:
            text = node.value
        else:
            continue
        if TAG.search(text):
            out.append((node.lineno, text[:80]))
    return out


def test_no_html_outside_the_templates() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name not in DRAWINGS and (tags := tag_literals(path)):
            found[name] = tags
    assert found == {}
    for name in DRAWINGS:  # (the allowance is not kept for a module that no longer needs it)
        assert tag_literals(ROOT / name), name


def test_the_finder_sees_a_tag_in_every_kind_of_literal(tmp_path: Path) -> None:
    code = tmp_path / "m.py"
    code.write_text(
        '"""A <p> in a docstring is words."""\n'
        'A = "<td>"\nB = f"<a href={A}>"\nC = "a < b and c > d"\nD = "</main>"\nE = "x" "<br"\n'
        'def f():\n    """<b>"""\n    return "<html lang=en>" + "<log>"\n',
        encoding="utf-8",
    )
    assert [line for line, _ in tag_literals(code)] == [2, 3, 5, 6, 9]


def test_every_template_is_package_data() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    shipped = patterns["package-data"]["dominolog"]
    templates = sorted(p.relative_to(PACKAGE).as_posix() for p in (PACKAGE / "templates").rglob("*.html"))
    assert len(templates) >= 20
    for name in templates:
        assert any(fnmatch(name, pattern) and name.count("/") == pattern.count("/") for pattern in shipped), name


def test_every_value_is_escaped_cut_and_cleaned() -> None:
    from markupsafe import Markup

    from dominolog.htmlpage import environment

    page = environment().from_string('<p title="{{ v }}">{{ v }}|{{ v|shown(5) }}|{{ m }}|{{ v|exact }}</p>')
    hostile = "<script>'\"&\x1b"
    said = page.render(v=hostile, m=Markup("<b>kept</b>"))
    cleaned = "&lt;script&gt;&#x27;&quot;&amp;\\x1b"
    assert said == (
        f'<p title="{cleaned}">{cleaned}|&lt;scri...(12 chars)|<b>kept</b>|&lt;script&gt;&#x27;&quot;&amp;\x1b</p>'
    )
    assert environment().from_string("{{ v }}").render(v="x" * 501) == "x" * 500 + "...(501 chars)"
    assert environment().from_string("{{ v }}").render(v="x" * 501, limit=2000) == "x" * 501


def test_a_template_is_its_lines_joined() -> None:
    from dominolog.htmlpage import render

    assert render("web/note.html", note="a & b") == '<p class="note">a &amp; b</p>'
    with pytest.raises(Exception, match="nowhere"):
        render("nowhere.html")
