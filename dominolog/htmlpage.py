"""The HTML of every page: Jinja2 templates (``dominolog/templates/``, shipped as package data) rendered
with autoescaping, and the frame of the club's pages (score sheets, standings): one self-contained file
each, its style sheet inline, nothing loaded from a network, a print stylesheet for the paper copy.

How the templates are written and rendered (:func:`render`):

- every ``{{ value }}`` goes through :func:`esc` (the environment's ``finalize``): cut to :data:`LIMIT`
  characters, control characters made visible, then escaped, quotes too; nothing to remember at each
  place. ``{{ value|shown(300) }}`` cuts at another length. HTML made elsewhere (an SVG picture, a part
  rendered by another template) is passed as :class:`markupsafe.Markup` and kept as it is;
- the lines of a template are joined: each line's leading spaces and its line break are dropped (the
  tags can be laid out one a line while the page stays as compact as it was), a space at a line's end
  is kept; ``{{ nl }}`` writes a line break;
- ``|exact``: escaped only (a value a script reads back), ``|json``: as JSON, ``|pathpart``: quoted for
  one part of a path, ``|joined(", ")``: the values as one text (Jinja's ``join`` escapes them its own
  way, so it is not used).
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import quote

from jinja2 import BaseLoader, Environment, StrictUndefined, TemplateNotFound, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from dominolog import __version__
from dominolog.textsafe import shown

#: how much of one string from a log is shown on a page
LIMIT = 500


def esc(value: object, limit: int = LIMIT) -> str:
    """Any value as HTML text: cut, control characters made visible, then ``html.escape`` (quotes too)."""
    return html.escape(shown("" if value is None else value, limit), quote=True)


@pass_context
def _finalize(context: Context, value: object) -> object:
    """What ``{{ value }}`` writes: HTML made elsewhere as it is, anything else through :func:`esc`, cut
    at :data:`LIMIT` characters or at the template's ``limit`` (the audit report's is longer)."""
    if isinstance(value, Markup):
        return value
    limit = context.get("limit")
    return Markup(esc(value, limit if isinstance(limit, int) else LIMIT))


def _shown(value: object, limit: int = LIMIT) -> Markup:
    """``{{ value|shown(N) }}``: :func:`esc` with another limit."""
    if isinstance(value, Markup):
        return value
    return Markup(esc(value, limit))


def _exact(value: object) -> Markup:
    """``{{ value|exact }}``: escaped only, neither cut nor its controls made visible: a value a script
    reads back from an attribute (an event's name it sends to the API)."""
    return Markup(html.escape(str(value), quote=True))


def _joined(values: Iterable[object], separator: str) -> str:
    """``{{ values|joined(", ") }}``: the values as one text (then escaped as one, as Jinja's own ``join``
    would not: it escapes each value its own way)."""
    return separator.join(str(v) for v in values)


class _Joined(BaseLoader):
    """The templates of ``dominolog/templates/``, their lines joined (see the module's notes)."""

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Any]:
        if ".." in template.split("/"):
            raise TemplateNotFound(template)
        try:
            text = resources.files("dominolog").joinpath("templates", *template.split("/")).read_text(encoding="utf-8")
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:
            raise TemplateNotFound(template) from exc
        return "".join(line.lstrip(" ") for line in text.splitlines()), template, lambda: True


@cache
def environment() -> Environment:
    """The one Jinja2 environment of the package's templates (autoescaped, undefined names an error)."""
    env = Environment(loader=_Joined(), autoescape=True, finalize=_finalize, undefined=StrictUndefined)
    env.filters.update(shown=_shown, exact=_exact, json=json.dumps, joined=_joined)
    env.filters["pathpart"] = lambda text: quote(str(text), safe="")
    env.globals.update(nl=Markup("\n"), version=__version__)
    return env


def render(name: str, **context: Any) -> str:
    """The template ``dominolog/templates/NAME`` rendered with ``context``."""
    return environment().get_template(name).render(**context)


def part(name: str, **context: Any) -> Markup:
    """:func:`render` as HTML to put inside another template as it is."""
    return Markup(render(name, **context))


def page_main(body: str) -> str:
    """What the ``<main>`` of :func:`html_page` holds: ``body`` and the footer."""
    return render("page_main.html", body=Markup(body))


@cache
def page_css() -> str:
    text = resources.files("dominolog").joinpath("page.css").read_text(encoding="utf-8")
    assert "</" + "style" not in text.lower(), "page.css"
    return text


#: a page the server keeps current (``static/live.js``): its stream and the address of its live part
Live = tuple[str, str]


def html_page(title: str, body: str, extra_css: str = "", live: Live | None = None) -> str:
    """A whole HTML document (``templates/page.html``): ``title`` (plain text, escaped there) and ``body``
    (HTML made by a template); ``live``: the server's page, its ``<main>`` fetched again as it moves."""
    assert "</" + "style" not in extra_css.lower()
    css = Markup(page_css() + extra_css)
    return render("page.html", title=title, body=Markup(body), css=css, live=live)
