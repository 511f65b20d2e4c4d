"""Exceptions shared by both engines.

Both ``_pyengine`` and ``_cppengine`` raise these very classes (the C++ bindings import this module), so
``except azul_engine.IllegalMoveError`` works whichever engine is active. Both subclass ``ValueError``: an illegal
move or a malformed state is a bad argument value, and callers that only know ``ValueError`` still catch them.
"""

__all__ = ["AzulError", "IllegalMoveError", "StateFormatError"]


class AzulError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalMoveError(AzulError, ValueError):
    """A move that the rules forbid in this state; the message names the rule broken."""


class StateFormatError(AzulError, ValueError):
    """State text or other input data that cannot be parsed or does not describe a valid state."""


# Their public name (tracebacks and repr show azul_engine.IllegalMoveError); pickle finds them there.
for _cls in (AzulError, IllegalMoveError, StateFormatError):
    _cls.__module__ = "azul_engine"
del _cls
