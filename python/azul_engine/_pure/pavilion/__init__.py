"""Azul: Summer Pavilion in the pure-Python engine: one module per job, as the C++ core's (each module's banner
names its C++ twin).  ``state.py`` composes PavilionState from them; ``azul_engine._pypavilion`` exports the
result."""
