#!/usr/bin/env bash
# The README's test command, for a fresh machine: install the package with its test extras, the optional
# framework adapters' extras (OpenSpiel, PettingZoo) and the browser tests' (Playwright, driving the system's
# chromium) into .venv, run pytest on the whole suite (every rules test once per engine). Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh "[test,openspiel,pettingzoo,browser]"

echo "+ python -m pytest $*"
python -m pytest "$@"
