#!/usr/bin/env bash
# The README's test command, for a fresh machine: install the package with its test extras, the optional
# framework adapters' extras (OpenSpiel, PettingZoo, Gymnasium, and Stable-Baselines3 with PyTorch for the RL
# example's smoke test), the web app's with its tests' (web, webtest) and the data and
# Ray extras (pyarrow, Ray), Playwright (the SVG and replay browser tests) and the docs extra (Sphinx: the site's
# build is a test) into .venv, run pytest on the whole suite (every rules test once per engine). Arguments
# go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh "[test,openspiel,pettingzoo,gymnasium,rl,train,web,webtest,data,ray,browser,docs]"

echo "+ python -m pytest $*"
python -m pytest "$@"
