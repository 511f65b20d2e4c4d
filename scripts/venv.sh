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

# pip's output goes to build/pip.log (one line says what is installed); only a failure shows it.
mkdir -p build
pip_quiet() {
    if ! python -m pip install --progress-bar off "$@" >>build/pip.log 2>&1; then
        tail -n 40 build/pip.log
        echo "venv.sh: pip install $* failed (the whole log: build/pip.log)" >&2
        return 1
    fi
}
: >build/pip.log

# PyTorch for the [rl] extra, before it, from PyTorch's own index of CPU builds: PyPI's plain `torch` on Linux is
# a CUDA build of several GB, and the example and tests need only the CPU. 2.13.0 first: the CPU build this
# project's machines keep on disk (pip's find-links; an unpinned `torch` would take a newer CUDA build from their
# mirror); then the newest CPU build; PyPI's only when PyTorch's index does not answer. An installed torch is
# kept. Only when the extras name rl.
case "${1:-}" in
    *rl*|*train*)
        if ! python -c "import torch" >/dev/null 2>&1; then
            cpu="--index-url https://download.pytorch.org/whl/cpu --retries 1 --timeout 30"
            echo "+ pip install torch $cpu (the CPU build for the [rl] extra; docs/rl.md; log: build/pip.log)"
            # shellcheck disable=SC2086
            if ! pip_quiet $cpu "torch==2.13.0" 2>/dev/null && ! pip_quiet $cpu "torch>=2.0"; then
                echo "+ PyTorch's index did not answer: pip install torch (PyPI's build)"
                pip_quiet "torch>=2.0"
            fi
        fi
        ;;
esac

# The package as a release gives it: `python -m build` makes the sdist and builds the wheel from it (in a clean
# copy, so nothing of the tree's build/ is reused), and that wheel is installed: the suite tests the wheel a user
# gets, not the source tree. The C++ engine compiles for about a minute on 2 cores; the build's log is shown only
# when it fails. The wheel and sdist of build/dist/ are reused when they were built from the same sources (a hash
# of every file the sdist takes, the interpreter and the build's environment: build/dist/SOURCES), so that
# scripts/test.sh after scripts/bench.sh on the same tree does not compile the engine again.
pip_quiet "build>=1"
sources=$(python - <<'PY'
import hashlib
import os
import sys

h = hashlib.sha256()
h.update(("%s %s\n" % (sys.version, sys.platform)).encode())
for name in ("AZUL_REQUIRE_CPP", "AZUL_PORTABLE", "AZUL_SANITIZE", "CC", "CXX", "CFLAGS", "CXXFLAGS"):
    h.update(("%s=%s\n" % (name, os.environ.get(name, ""))).encode())
paths = ["setup.py", "pyproject.toml", "README.md", "LICENSE"]
for top in ("python", "native", "src"):
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "build") and not d.endswith(".egg-info"))
        paths += [os.path.join(folder, f) for f in sorted(files) if not f.endswith((".so", ".pyd", ".pyc"))]
for path in paths:
    if os.path.isfile(path):
        with open(path, "rb") as f:
            h.update(path.encode() + b"\0" + hashlib.sha256(f.read()).digest())
print(h.hexdigest())
PY
)
shopt -s nullglob
built=(build/dist/azul_engine-*.whl)
built_sdists=(build/dist/azul_engine-*.tar.gz)
shopt -u nullglob
if [ "${#built[@]}" = 1 ] && [ "${#built_sdists[@]}" = 1 ] && [ "$(cat build/dist/SOURCES 2>/dev/null)" = "$sources" ]; then
    echo "+ reusing ${built[0]} (built from these sources: build/dist/SOURCES)"
else
    rm -rf build/dist && mkdir -p build/dist
    echo "+ python -m build --outdir build/dist . (the sdist, then the wheel from it; compiles the C++ engine)"
    # In the background, with a line every 30 s: the compile is a minute or more of silence otherwise.
    python -m build --outdir build/dist . >build/dist-build.log 2>&1 &
    build_pid=$!
    waited=0
    while kill -0 "$build_pid" 2>/dev/null; do
        sleep 1
        waited=$((waited + 1))
        if [ $((waited % 30)) = 0 ] && kill -0 "$build_pid" 2>/dev/null; then
            echo "venv.sh: still building, ${waited} s (the C++ engine compiles; log: build/dist-build.log)"
        fi
    done
    if ! wait "$build_pid"; then
        tail -n 60 build/dist-build.log
        echo "venv.sh: python -m build failed (the whole log: build/dist-build.log)" >&2
        exit 1
    fi
    grep -i "warning" build/dist-build.log | grep -v "^\s*$" | head -n 20 || true
    echo "$sources" >build/dist/SOURCES
fi
wheel=$(echo build/dist/azul_engine-*.whl)
echo "+ pip install $wheel${1:-} (log: build/pip.log)"
pip_quiet --force-reinstall --no-deps "$wheel"
pip_quiet "$wheel${1:-}"

echo "+ python -m azul_engine info"
python -m azul_engine info
if [ "${AZUL_REQUIRE_CPP:-}" = 1 ]; then
    # The build step already failed if the extension did not compile; this catches one that built but won't import.
    python -c "import azul_engine; azul_engine.load_backend('cpp')"
fi
