"""Alias of ``azul_engine._pure.common``, what the two pure-Python rule sets share (kept for older imports)."""

import sys

from ._pure import common

sys.modules[__name__] = common
