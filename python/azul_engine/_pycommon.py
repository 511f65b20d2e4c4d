"""Alias of ``azul_engine._pure.common``, what the two pure-Python rule sets share (kept for older imports)."""

import sys
from typing import TYPE_CHECKING

from ._pure import common

if TYPE_CHECKING:  # what type checkers see here: the module it stands for (they do not run the line below)
    from ._pure.common import *  # noqa: F401,F403

sys.modules[__name__] = common
