"""Classic and grey-wall Azul in the pure-Python engine: one module per job, as native/src/ (each module's banner
names its C++ twin).  ``state.py`` composes GameState from them; ``azul_engine._pyengine`` exports the result."""
