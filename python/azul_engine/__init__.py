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
import os

from ._errors import AzulError, IllegalMoveError, StateFormatError

try:
    from importlib.metadata import PackageNotFoundError, version

    __version__ = version("azul-engine")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0.1.0"

# In preference order: available_backends() and "auto" follow it.
_MODULES = {"cpp": "azul_engine._cppengine", "python": "azul_engine._pyengine"}
_CHOICES = ("auto", *_MODULES)


def load_backend(name):
    """Return the engine module called ``name`` (``"cpp"`` or ``"python"``), importing it if needed.

    Raises ``ImportError`` if that engine cannot be imported (for ``"cpp"``: it was not built), and ``ValueError``
    for any other name.
    """
    if name not in _MODULES:
        raise ValueError(f"unknown azul-engine backend {name!r}; expected one of: {', '.join(_MODULES)}")
    try:
        module = importlib.import_module(_MODULES[name])
    except ImportError as exc:
        if name != "cpp":
            raise
        raise ImportError(
            f"azul-engine: the C++ engine (azul_engine._cppengine) cannot be imported: {exc}. Reinstall with a "
            "C++17 compiler available (AZUL_REQUIRE_CPP=1 makes a failed build an error instead of a warning), "
            "or use AZUL_BACKEND=python."
        ) from exc
    from . import svg  # Jupyter draws the states of every engine loaded (state._repr_svg_)

    svg.install(module)
    return module


def engine_of(state):
    """The engine module whose ``GameState`` or ``PavilionState`` ``state`` is (``engine.NAME`` says which);
    TypeError for anything else."""
    import sys

    for module_name in _MODULES.values():
        module = sys.modules.get(module_name)
        if module is not None and isinstance(state, (module.GameState, module.PavilionState)):
            return module
    raise TypeError("not a game state of either engine: %s" % type(state).__name__)


def available_backends():
    """Names of the engines that import here, in preference order: a sublist of ``["cpp", "python"]``."""
    names = []
    for name in _MODULES:
        try:
            load_backend(name)
        except ImportError:
            continue
        names.append(name)
    return names


def _choose_backend(requested):
    if requested not in _CHOICES:
        raise ValueError(f"AZUL_BACKEND={requested!r} is not one of: {', '.join(_CHOICES)}")
    if requested != "auto":
        return requested, load_backend(requested)
    try:
        return "cpp", load_backend("cpp")
    except ImportError:
        return "python", load_backend("python")


BACKEND, _engine = _choose_backend(os.environ.get("AZUL_BACKEND") or "auto")

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
