"""Markup of the package's own: the one escaper, MarkupSafe's ``Markup`` (what a page takes as markup already made:
the pictures, the pages' own style and script), and the Jinja2 environments of its pages.

Pages (the HTML replay, the web app's pages) are Jinja2 templates with autoescaping on: a value put into one is
escaped by Jinja2, which calls MarkupSafe's ``escape``.  The SVG pictures (``svg.py``) are written in Python and
escape their text with ``escape`` below, the same function.  Nothing else in the package escapes markup, and no
other module imports MarkupSafe (.importlinter's contract escaper).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from markupsafe import Markup, escape as _escape

if TYPE_CHECKING:
    import jinja2

__all__ = ["escape", "environment", "Markup"]


def escape(text: object) -> str:
    """``str(text)`` with ``& < > " '`` replaced by their character references, for the text or an attribute value
    of markup; a plain ``str``."""
    return str(_escape(str(text)))


def environment(package: str, folder: str) -> jinja2.Environment:
    """A Jinja2 environment of the templates in the folder ``folder`` of the package ``package``: autoescaping on
    for every template, a name a template does not know an error, and the lines of ``{% ... %}`` tags left out of
    what it writes (a template ends in a line break as its file does)."""
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader(package, folder), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              keep_trailing_newline=True)
