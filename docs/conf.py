"""Sphinx configuration of the azul-engine documentation site.

Build: ``bash scripts/docs.sh`` (or ``sphinx-build -W --keep-going -b html docs build/docs``). The pages are
Markdown (MyST); the API reference is autodoc on the package in ``python/``, the command line sphinx-argparse on
``azul_engine.__main__:parser``. The code samples of the pages run as doctests against both engines
(``scripts/docs.sh``; ``tests/test_docs.py``), not in this build.
"""

import importlib.util
import re
import inspect
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The package from this checkout (an install of it works the same: the first azul_engine found is used).
sys.path.insert(0, os.path.join(ROOT, "python"))
# docs/apiref.py: the engine API's reference from the type stubs (the azul-api directive).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from azul_engine import __version__  # noqa: E402

project = "azul-engine"
author = "the azul-engine authors"
copyright = "the azul-engine authors"
version = release = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    "sphinxarg.ext",
    "apiref",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
# docs/search.md (the search's algorithm, which the code cites by section) cannot be the site's page "search": that
# name is Sphinx's own search page, which would overwrite it. The site shows it as search-algorithm.md (an
# {include} of it), and the pages' links to search.md are pointed there as they are read (_search_links); on
# GitHub they still lead to search.md.
exclude_patterns = ["_build", "search.md", "apiref.py"]
# records.md's example record holds "[...]" for rounds left out, which is not JSON: Pygments says so and the block
# is shown unhighlighted. The numbered source pages are included as they are, so that one warning is not an error.
suppress_warnings = ["misc.highlighting_failure"]

# MyST: GitHub's heading anchors (the pages link to "#1-the-record" as they do on GitHub), ::: fences, and the
# {include} of CHANGELOG.md and CONTRIBUTING.md.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]

# No smart quotes: the pages' commands and options copy and paste as they are (docutils would turn "--workers"
# into an en dash and "..." into curly quotes, which a shell does not take).
smartquotes = False

html_theme = "furo"
html_title = f"azul-engine {release}"
html_static_path = []

# autodoc: the modules are documented from their docstrings, members in source order. The optional libraries of
# the adapters (Gymnasium, PettingZoo, OpenSpiel, Stable-Baselines3, Starlette, Ray) are mocked only when they
# are not installed, so the site builds from the [docs] extra alone (Read the Docs) and, where they are
# installed, documents the real classes.
autodoc_member_order = "bysource"
autodoc_default_options = {"show-inheritance": True}
autodoc_typehints = "signature"
OPTIONAL = {"gymnasium": "gymnasium", "pettingzoo": "pettingzoo", "pyspiel": "pyspiel",
            "open_spiel": "open_spiel", "stable_baselines3": "stable_baselines3", "sb3_contrib": "sb3_contrib",
            "torch": "torch", "starlette": "starlette", "uvicorn": "uvicorn", "ray": "ray", "pyarrow": "pyarrow"}
autodoc_mock_imports = [name for name, top in OPTIONAL.items() if importlib.util.find_spec(top) is None]


def _no_type_docstring(app, what, name, obj, options, lines):
    """A constant (``NUM_ACTIONS``, ``COLOURS``, ``BACKEND``) has no docstring of its own: Python gives it its type's
    (``int([x]) -> integer ...``), which says nothing about the constant; show its value alone."""
    own = type(obj).__doc__
    if what in ("data", "attribute") and isinstance(own, str) and lines:
        if [line.strip() for line in lines if line.strip()] == [line.strip() for line in own.splitlines() if line.strip()]:
            lines[:] = []


def _search_links(app, docname, source):
    """Links to search.md lead to the site's search-algorithm page (see exclude_patterns)."""
    source[0] = re.sub(r"\]\(search\.md(?=[#)])", "](search-algorithm.md", source[0])


def _one_default(app, doctree):
    """sphinx-argparse writes "Default: X" under every option that has one; where the option's help already says
    its default ("engine to use (default: the active one, cpp)"), that line is dropped, so that the command line's
    page shows each default once."""
    from docutils import nodes

    for item in doctree.findall(lambda n: isinstance(n, (nodes.definition, nodes.description))):
        paragraphs = [p for p in item.children if isinstance(p, nodes.paragraph)]
        defaults = [p for p in paragraphs if p.astext().startswith("Default: ")]
        said = " ".join(p.astext() for p in paragraphs if p not in defaults).lower()
        if defaults and "default" in said:
            for p in defaults:
                item.remove(p)


def setup(app):
    app.connect("doctree-read", _one_default)
    app.connect("autodoc-process-docstring", _no_type_docstring)
    app.connect("source-read", _search_links)
