#!/usr/bin/env bash
# Builds the C++ engine with every plain C++ fallback forced (AZUL_PORTABLE=1: the bit tricks of
# native/include/azul/common/bits.h, the fills' draw loop of native/src/common/rng.cpp instead of AVX2) into
# .venv-portable, and runs the playout, lockstep and checksum tests on it: what a machine or compiler without the
# builtins or AVX2 gets must play the same games. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# The core's portable code is ISO C++17 (what MSVC gets, which has no __int128, vector extension or builtin):
# with AZUL_PORTABLE, GCC's -pedantic-errors finds no extension in native/src (tests/test_portable_source.py
# checks that every GCC-only construct is guarded).
echo "+ ${CXX:-c++} -std=c++17 -fsyntax-only -pedantic-errors -DAZUL_PORTABLE native/src/**/*.cpp"
find native/src -name '*.cpp' -print0 | sort -z | xargs -0 -n 1 "${CXX:-c++}" -std=c++17 -fsyntax-only \
    -pedantic-errors -Wall -Wextra -Werror -DAZUL_PORTABLE -Inative/include
if [ ! -x .venv-portable/bin/python ]; then
    echo "+ ${PYTHON:-python3} -m venv .venv-portable"
    "${PYTHON:-python3}" -m venv .venv-portable
    .venv-portable/bin/python -m pip install --quiet --upgrade pip
fi
# Built from a copy of the sources, in one install: pip builds a local tree in place, and setuptools reuses the
# release objects that scripts/test.sh left in build/ (the "portable" extension was then the release one), and a
# second `pip install .[test]` would rebuild it without AZUL_PORTABLE.
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
tar --exclude=./.git --exclude='./.venv*' --exclude=./build --exclude='*.egg-info' --exclude='*.so' \
    --exclude=__pycache__ --exclude=.pytest_cache --exclude=.hypothesis -cf - . | tar -xf - -C "$src"
echo "+ AZUL_PORTABLE=1 AZUL_REQUIRE_CPP=1 pip install .[test]"
AZUL_PORTABLE=1 AZUL_REQUIRE_CPP=1 .venv-portable/bin/python -m pip install --quiet --force-reinstall "$src[test]"
.venv-portable/bin/python -c "import azul_engine; e = azul_engine.load_backend('cpp'); assert e.PORTABLE and not e.VECTORISED, 'not a portable build'"
echo "+ python -m pytest tests/test_playouts.py tests/test_kernel.py tests/test_lockstep.py tests/test_pavilion_lockstep.py $*"
.venv-portable/bin/python -m pytest -q tests/test_playouts.py tests/test_kernel.py tests/test_lockstep.py \
    tests/test_pavilion_lockstep.py "$@"
