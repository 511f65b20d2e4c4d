"""Azul rules engine with two interchangeable backends.

``azul_engine._cppengine`` (C++17, built by ``pip install`` when a compiler is available) and
``azul_engine._pyengine`` (pure Python) export the same names and pass the same tests. This package re-exports the
active one. The environment variable ``AZUL_BACKEND`` chooses it when the package is first imported:

- ``auto`` (the default; also when unset or empty): the C++ engine if it imports, else the pure-Python one;
- ``cpp``: the C++ engine, or ``ImportError`` if it was not built (never a silent fallback);
- ``python``: the pure-Python engine.

``BACKEND`` names the engine in use; ``load_backend(name)`` returns either engine module, whichever is active.
"""

import importlib

from . import _backends
from ._errors import AzulError, IllegalMoveError, StateFormatError

from ._version import __version__

from . import svg
from ._backends import BACKEND, ENGINE as _engine, available_backends, engine_of, load_backend

# Jupyter draws the states of every engine loaded (state._repr_svg_).
_backends.on_load(svg.install)

# Both engines define the same __all__ (PEP 399: the accelerated module exposes nothing the pure one lacks).
globals().update((_name, getattr(_engine, _name)) for _name in _engine.__all__)

__all__ = sorted(
    {"AzulError", "IllegalMoveError", "StateFormatError", "BACKEND", "available_backends", "load_backend",
     "engine_of"}
    | set(_engine.__all__)
)

# The package's tools, imported on first use (PEP 562), so that ``import azul_engine as az; az.records.read(...)``
# works as ``import azul_engine.records`` does, without importing them all with the engine.
_SUBMODULES = ("bench", "bots", "distributed", "envs", "external", "hints", "openspiel", "pettingzoo", "play",
               "records", "replay", "sb3", "selfplay", "serve", "svg", "textui", "tournament", "web")


def __getattr__(name):
    if name in _SUBMODULES:
        try:
            return importlib.import_module("." + name, __name__)
        except ImportError as exc:  # an extra not installed (pyspiel, starlette, ...): hasattr() stays False
            raise AttributeError(f"azul_engine.{name} cannot be imported: {exc}") from exc
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES))
