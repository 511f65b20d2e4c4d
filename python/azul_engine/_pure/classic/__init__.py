"""Classic and grey-wall Azul in the pure-Python engine: one module per job, as native/src/ (each module's banner
names its C++ twin).  ``azul_engine._pyengine`` assembles the engine from them."""

from . import state  # noqa: E402,F401  (first: it imports every job module in an order that works)
