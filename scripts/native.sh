#!/usr/bin/env bash
# The C++ core on its own, without Python: configures native/CMakeLists.txt into build/native, builds the static
# library azul_core and the C++ tests (native/tests/: the bench playout checksums and a few rules tests) with
# -Wall -Wextra -Werror, and runs them with ctest. Needs a C++17 compiler and CMake: on a machine without cmake,
# CI (root) installs it with apt-get; elsewhere the `cmake` wheel of PyPI in .venv is used when there is one.
# Arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cmake >/dev/null 2>&1; then
    if [ -x .venv/bin/cmake ]; then
        export PATH="$PWD/.venv/bin:$PATH"
    elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && apt-get install -y -qq cmake >/dev/null
    else
        echo "native.sh: cmake not found (apt-get install cmake, or pip install cmake into .venv)" >&2
        exit 1
    fi
fi
build=${AZUL_NATIVE_BUILD:-build/native}
cmake -S native -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "${AZUL_BUILD_JOBS:-2}"
ctest --test-dir "$build" --output-on-failure "$@"
