#!/usr/bin/env bash
# The README's main job, for a fresh machine: install the package into .venv and run the benchmark
# (python -m azul_engine bench). Arguments go to the bench command, e.g. --json or --backend cpp.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh ""  # no extras (an explicit argument: a sourced script would see ours)

echo "+ python -m azul_engine bench $*"
python -m azul_engine bench "$@"
