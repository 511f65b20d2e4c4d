#!/bin/bash
# One-off tool of issue 12 (kept for merges): splits a single-file pure engine (python/azul_engine/_pyengine.py,
# _pypavilion.py, _pycommon.py as on main before issue 12) into python/azul_engine/_pure/, as commit "The pure
# engine's modules mirror native/" did. Use: check out a tree whose pure engine is still one file per variant (for
# example a branch made before the split, merged with main's parent of the split), run this from the repository
# root, then add the module list in pyproject.toml and rerun the tests. Methods not listed in the specs stay in
# the state modules; the undo/key modules are written when those methods exist (bots-engine's).
set -e
here=$(dirname "$0")
python3 "$here/split_pure.py" "$here/classic_spec.py"
python3 "$here/split_pure.py" "$here/pavilion_spec.py"
P=python/azul_engine
git mv $P/_pycommon.py $P/_pure/common.py 2>/dev/null || mv $P/_pycommon.py $P/_pure/common.py
python3 "$here/write_assembly.py"
for v in classic pavilion; do
    printf '\nfrom . import state  # noqa: E402,F401  (first: it imports every job module in an order that works)\n' \
        >> $P/_pure/$v/__init__.py
done
echo "banners: fix the C++ twin paths (native/src/classic/..., native/src/pavilion/...) as in the split commit"
