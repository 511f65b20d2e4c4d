"""Azul: Summer Pavilion in the pure-Python engine: one module per job, as the C++ core's (each module's banner
names its C++ twin).  ``azul_engine._pypavilion`` assembles them."""

from . import state  # noqa: E402,F401  (first: it imports every job module in an order that works)
