"""Markup of the package's own: the one escaper.

Pages (the HTML replay, the web app's pages) are Jinja2 templates with autoescaping on: a value put into one is
escaped by Jinja2, which calls MarkupSafe's ``escape``.  The SVG pictures (``svg.py``) are written in Python and
escape their text with ``escape`` below, the same function.  Nothing else in the package escapes markup.
"""

from markupsafe import escape as _escape

__all__ = ["escape"]


def escape(text):
    """``str(text)`` with ``& < > " '`` replaced by their character references, for the text or an attribute value
    of markup; a plain ``str``."""
    return str(_escape(str(text)))

