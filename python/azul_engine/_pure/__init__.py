"""The pure-Python engine's modules, laid out as the C++ core in ``native/`` (see each module's banner for its
C++ twin).  ``azul_engine._pyengine`` (and ``_pypavilion``) import the engine's API from them; import that, not
these."""
