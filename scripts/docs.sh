#!/usr/bin/env bash
# The documentation site (docs/: Sphinx, MyST Markdown, the Furo theme; the command line from sphinx-argparse, the
# API reference from autodoc): build it into build/docs with every warning an error, then run the examples of the
# pages, of the README and of the docstrings as doctests against both engines, one after the other
# (AZUL_BACKEND=cpp, then AZUL_BACKEND=python: the tests of tests/test_docs.py named "examples").
#
#   bash scripts/docs.sh                 build and check
#   bash scripts/docs.sh --build-only    build only (about 40 s): no examples run
#   bash scripts/docs.sh --serve         build and check, then serve build/docs on http://127.0.0.1:8001/ (PORT=N
#                                        for another port; Ctrl-C stops it); with --build-only, build and serve
#
# The site's port is 8001, so that it never meets the web app's, `azul-engine serve` on 8000 (docs/web.md).
#
# It runs in .venv when that holds the package (scripts/test.sh or scripts/bench.sh made it; without one it is
# made here, with the docs and test extras), or in PYTHON=/path/to/python. The [docs] extra's tools (and pytest)
# are installed there when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

serve=0
build_only=0
for arg in "$@"; do
    case "$arg" in
        --serve) serve=1 ;;
        --build-only) build_only=1 ;;
        *) echo "usage: bash scripts/docs.sh [--build-only] [--serve]" >&2; exit 2 ;;
    esac
done

if [ -n "${PYTHON:-}" ]; then
    py=$PYTHON
elif [ -x .venv/bin/python ] && .venv/bin/python -c "import azul_engine" >/dev/null 2>&1; then
    py=.venv/bin/python
else
    source scripts/venv.sh "[docs,test]"
    py=python
fi

# The requirements of an extra, read from pyproject.toml (so that the package itself is not reinstalled).
extra() {
    "$py" - "$1" <<'EOF'
import re
import sys

text = open("pyproject.toml", encoding="utf-8").read()
match = re.search(r"^%s = \[(.*?)\]" % re.escape(sys.argv[1]), text, re.M | re.S)
print(" ".join(re.findall(r'"([^"]+)"', match.group(1))))
EOF
}
if ! "$py" -c "import sphinx, myst_parser, furo, sphinxarg" >/dev/null 2>&1; then
    echo "+ pip install $(extra docs) (the docs extra)"
    # shellcheck disable=SC2046
    "$py" -m pip install --quiet --progress-bar off $(extra docs)
fi
if [ "$build_only" = 0 ] && ! "$py" -c "import pytest" >/dev/null 2>&1; then
    echo "+ pip install $(extra test) (the test extra: the doctests run under pytest)"
    # shellcheck disable=SC2046
    "$py" -m pip install --quiet --progress-bar off $(extra test)
fi

echo "+ python -m sphinx -W --keep-going -E -b html docs build/docs"
start=$SECONDS
"$py" -m sphinx -W --keep-going -E -q -b html -d build/docs-doctrees docs build/docs
echo "docs.sh: the site built in $((SECONDS - start)) s, no warnings: build/docs/index.html"

if [ "$build_only" = 1 ]; then
    echo "docs.sh: --build-only: the examples were not run (bash scripts/docs.sh runs them on both engines)"
else
    if ! "$py" -c "import azul_engine; azul_engine.load_backend('cpp')" >/dev/null 2>&1; then
        echo "docs.sh: the C++ engine does not import here; the examples must run on both engines" \
             "(install with a C++17 compiler: AZUL_REQUIRE_CPP=1 pip install .)" >&2
        exit 1
    fi
    for backend in cpp python; do
        echo "+ AZUL_BACKEND=$backend python -m pytest tests/test_docs.py -k examples"
        AZUL_BACKEND=$backend "$py" -m pytest -q -p no:cacheprovider tests/test_docs.py -k examples
    done
fi

if [ "$serve" = 1 ]; then
    port=${PORT:-8001}
    echo "docs.sh: serving build/docs on http://127.0.0.1:$port/ (Ctrl-C stops it)"
    exec "$py" -m http.server --bind 127.0.0.1 --directory build/docs "$port"
fi
