# Sourced by scripts/test.sh and scripts/bench.sh: make .venv if needed, put it first on PATH, build the sdist and
# the wheel (build/dist/) and install that wheel into it: what runs is what a user would get.
# $1: the extras to install, e.g. "[test]", or nothing. PYTHON=/path/to/python3 picks the interpreter of a new .venv;
# AZUL_REQUIRE_CPP=1 makes a C++ engine that fails to build or import an error.
if [ ! -x .venv/bin/python ]; then
    echo "+ ${PYTHON:-python3} -m venv .venv"
    "${PYTHON:-python3}" -m venv .venv
    .venv/bin/python -m pip install --quiet --upgrade pip
fi
# The venv first on PATH, so that `python` here and in any subprocess the tests start is the venv's.
export PATH="$PWD/.venv/bin:$PATH"

# PyTorch for the [rl] extra, before it, from PyTorch's own index of CPU builds: PyPI's plain `torch` on Linux is
# a CUDA build of several GB, and the example and tests need only the CPU. 2.13.0 first: the CPU build this
# project's machines keep on disk (pip's find-links; an unpinned `torch` would take a newer CUDA build from their
# mirror); then the newest CPU build; PyPI's only when PyTorch's index does not answer. An installed torch is
# kept. Only when the extras name rl.
case "${1:-}" in
    *rl*|*train*)
        if ! python -c "import torch" >/dev/null 2>&1; then
            cpu="--index-url https://download.pytorch.org/whl/cpu --retries 1 --timeout 30"
            echo "+ pip install torch $cpu (the CPU build for the [rl] extra; docs/rl.md)"
            # shellcheck disable=SC2086
            if ! python -m pip install --progress-bar off $cpu "torch==2.13.0" 2>/dev/null \
                    && ! python -m pip install --progress-bar off $cpu "torch>=2.0"; then
                echo "+ PyTorch's index did not answer: pip install torch (PyPI's build)"
                python -m pip install --progress-bar off "torch>=2.0"
            fi
        fi
        ;;
esac

# The package as a release gives it: `python -m build` makes the sdist and builds the wheel from it (in a clean
# copy, so nothing of the tree's build/ is reused), and that wheel is installed: the suite tests the wheel a user
# gets, not the source tree. The C++ engine compiles for about a minute on 2 cores; the build's log is shown only
# when it fails.
python -m pip install --quiet --progress-bar off "build>=1"
rm -rf build/dist && mkdir -p build/dist
echo "+ python -m build --outdir build/dist . (the sdist, then the wheel from it; compiles the C++ engine)"
if ! python -m build --outdir build/dist . >build/dist-build.log 2>&1; then
    tail -n 60 build/dist-build.log
    echo "venv.sh: python -m build failed (the whole log: build/dist-build.log)" >&2
    exit 1
fi
grep -i "warning" build/dist-build.log | grep -v "^\s*$" | head -n 20 || true
wheel=$(echo build/dist/azul_engine-*.whl)
echo "+ pip install $wheel${1:-}"
python -m pip install --progress-bar off --force-reinstall --no-deps "$wheel" | { grep -v "^Requirement already satisfied\|^Looking in\|^Processing ./build\|is already installed with the same version" || true; }
python -m pip install --progress-bar off "$wheel${1:-}" | { grep -v "^Requirement already satisfied\|^Looking in\|^Processing ./build\|is already installed with the same version" || true; }

echo "+ python -m azul_engine info"
python -m azul_engine info
if [ "${AZUL_REQUIRE_CPP:-}" = 1 ]; then
    # The build step already failed if the extension did not compile; this catches one that built but won't import.
    python -c "import azul_engine; azul_engine.load_backend('cpp')"
fi
