"""Write the assembly modules (_pyengine.py, _pypavilion.py), the _pycommon alias and the package inits."""
import ast
import os
import re

P = "python/azul_engine"


def docstring_and_all(path):
    src = open(path).read()
    tree = ast.parse(src)
    doc = ast.get_docstring(tree, clean=False)
    all_node = next((n for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "__all__"),
                    None)
    all_text = ast.get_source_segment(src, all_node) if all_node else None
    return doc, all_text


# common.py: one level deeper now.
path = P + "/_pure/common.py"
s = open(path).read()
s = s.replace("from ._errors import", "from .._errors import")
s = s.replace('''The C++ twins are native/include/azul/rng.h and native/src/textutil.cpp.''',
              '''C++ twins: native/include/azul/rng.h and native/src/textutil.cpp (azul_engine._pycommon is an alias of this
module, for older imports).''')
open(path, "w").write(s)
open(P + "/_pycommon.py", "w").write('''"""Alias of ``azul_engine._pure.common``, what the two pure-Python rule sets share (kept for older imports)."""

import sys

from ._pure import common

sys.modules[__name__] = common
''')

# VectorGame serves both variants: _pure/vector.py, beside common.py.
src = open(P + "/_pure/classic/vector.py").read()
src = src.replace("from .. import common as _pycommon", "from . import common as _pycommon")
src = src.replace("from ..common import", "from .common import")
src = re.sub(r"^from \.(\w+) import", r"from .classic.\1 import", src, flags=re.M)
src = src.replace("from ...", "from ..").replace("from .classic.common import", "from .common import")
open(P + "/_pure/vector.py", "w").write(src)
os.remove(P + "/_pure/classic/vector.py")

open(P + "/_pure/classic/__init__.py", "w").write(
    '''"""Classic and grey-wall Azul in the pure-Python engine: one module per job, as native/src/ (each module's banner
names its C++ twin).  ``azul_engine._pyengine`` assembles the engine from them."""
''')
open(P + "/_pure/pavilion/__init__.py", "w").write(
    '''"""Azul: Summer Pavilion in the pure-Python engine: one module per job, as the C++ core's (each module's banner
names its C++ twin).  ``azul_engine._pypavilion`` assembles them."""
''')

ASSEMBLE = ""
COMMON_ASSEMBLE = '''

def assemble(namespace, modules, module_name):
    """Fill an engine module's namespace (``azul_engine._pyengine``, ``_pypavilion``) from the modules of its jobs:
    every top-level name, private ones included, as when each engine was one file.  Their functions and classes
    take that module as theirs, so that reprs and pickles name it as before.  Methods (attached to their class by
    the variant's state module) are left out."""
    for module in modules:
        for key, value in vars(module).items():
            if key.startswith("__"):
                continue
            if callable(value) and "." in getattr(value, "__qualname__", ""):
                continue
            if callable(value) and getattr(value, "__module__", "") == module.__name__:
                value.__module__ = module_name
            namespace.setdefault(key, value)
'''
with open(P + "/_pure/common.py", "a") as f:
    f.write(COMMON_ASSEMBLE)


doc, all_text = docstring_and_all(P + "/_pyengine.py")
doc = doc.replace('''This module is the readable twin of the C++ core in ``native/``: the sections below follow
``native/src/*.cpp`` one for one (randomness, notation, move generation, moves, wall tiling and
scoring, rounds, state text, history and records), so the two can be read side by side.''',
'''This module is the readable twin of the C++ core in ``native/``.  It assembles the engine from
``azul_engine._pure``: ``classic/`` (one module per job, as ``native/src/``: types, notation, state,
movegen, apply, scoring, round, observation, text, record, playout; each module's banner names its C++
twin), ``pavilion/`` (Summer Pavilion, through ``azul_engine._pypavilion``), ``common.py`` (what both
share), ``vector.py`` and ``game_info.py``, so that the two engines can be read side by side.''')
def module_list(package, first, skip=()):
    names = sorted(f[:-3] for f in os.listdir(P + "/_pure/" + package) if f.endswith(".py") and f != "__init__.py")
    names = [n for n in names if n not in skip]
    return [first] + [n for n in names if n != first]


CLASSIC = module_list("classic", "state")
PAVILION = module_list("pavilion", "state")


def imports(package, names):
    lines = ["from ._pure.%s import %s as _m_%s%s" % (package, n, n, "  # first: it imports the modules of every job"
                                                       if n == "state" else "") for n in names]
    return "\n".join(lines)


def order(names, leaf):
    import textwrap
    rest = [n for n in names if n not in (leaf, "notation", "state")]
    text = ", ".join("_m_" + n for n in [leaf, "notation", "state"] + rest)
    return "\n    ".join(textwrap.wrap(text, 100))


open(P + "/_pyengine.py", "w").write('''"""%s"""

%s
from ._pure import vector as _m_vector
from ._pure.game_info import GameInfo, game_info
from . import _pypavilion
from ._pypavilion import (
    PavilionState, SP_COLOURS, SP_STARS, SP_KEEP_SETS, SP_NUM_ACTIONS, SP_PLACE_ACTION_BASE,
    SP_BONUS_ACTION_BASE, SP_PASS_ACTION_BASE, SP_DRAW_ACTION_BASE, SP_FIRST_PLAYER_ACTION_BASE,
)
from ._errors import IllegalMoveError, StateFormatError
from ._pure.common import assemble as _assemble

%s
%s
_assemble(globals(), (\n    %s, _m_vector,\n), __name__)
''' % (doc, imports("classic", CLASSIC), all_text, ASSEMBLE, order(CLASSIC, "types")))

doc, _ = docstring_and_all(P + "/_pypavilion.py")
doc = doc.replace('''The readable twin of ``native/src/pavilion.cpp`` and ``native/src/pavilion_text.cpp``: the same
board model, action ids, notation, state text, history and messages, section by section.''',
'''The readable twin of ``native/src/pavilion.cpp`` and ``native/src/pavilion_text.cpp``: the same
board model, action ids, notation, state text, history and messages.  This module assembles it from
``azul_engine._pure.pavilion`` (one module per job: tables, notation, state, movegen, apply, scoring,
round, observation, text, record, playout; each module's banner names its C++ twin).''')
open(P + "/_pypavilion.py", "w").write('''"""%s"""

%s
from ._pure.common import assemble as _assemble
%s
_assemble(globals(), (\n    %s,\n), __name__)
''' % (doc, imports("pavilion", PAVILION), ASSEMBLE, order(PAVILION, "tables")))
