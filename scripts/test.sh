#!/usr/bin/env bash
# Run the test suite on a fresh machine: make .venv if needed, install the package with its test extras, run pytest.
# Arguments go to pytest. AZUL_REQUIRE_CPP=1 makes a C++ engine that fails to build or import an error;
# PYTHON=/path/to/python3 picks the interpreter of a new .venv.
# Non-editable install on purpose: tests import what a user would get (the same wheel), not the source tree.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
    echo "+ ${PYTHON:-python3} -m venv .venv"
    "${PYTHON:-python3}" -m venv .venv
    .venv/bin/python -m pip install --quiet --upgrade pip
fi
# Put the venv first on PATH, so that `python` below and in any subprocess the tests start is the venv's.
export PATH="$PWD/.venv/bin:$PATH"

echo "+ pip install .[test]"
python -m pip install --quiet ".[test]"

echo "+ python -m azul_engine info"
python -m azul_engine info
if [ "${AZUL_REQUIRE_CPP:-}" = 1 ]; then
    # The build step already failed if the extension did not compile; this catches one that built but won't import.
    python -c "import azul_engine; azul_engine.load_backend('cpp'); assert 'cpp' in azul_engine.available_backends()"
fi

echo "+ python -m pytest $*"
python -m pytest "$@"
