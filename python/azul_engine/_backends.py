"""The two engines and the choice between them: ``load_backend``, ``engine_of``, ``available_backends`` and the
engine ``AZUL_BACKEND`` chose when the package was first imported (``BACKEND``, ``ENGINE``).

This is the top of the engine layer: the tools import it (never the package root, which re-exports it), so that
nothing below the command line imports upwards.  Code that runs whenever an engine is loaded (the pictures'
``_repr_svg_``) registers itself with :func:`on_load`.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Callable, List, Tuple, cast

# The generator of rules.md section 5 for the tools' own draws (the bots'): the pure engine's, which the games' own
# draws follow in both engines. The one name of the pure engine that the tools take, and only from here.
from ._pure.common import SplitMix64

if TYPE_CHECKING:
    from ._types import GameInfo

__all__ = ["BACKEND", "ENGINE", "MODULES", "CHOICES", "SplitMix64", "available_backends", "engine_named",
           "engine_of", "game_info", "load_backend", "on_load"]

# In preference order: available_backends() and "auto" follow it.
MODULES = {"cpp": "azul_engine._cppengine", "python": "azul_engine._pyengine"}
CHOICES = ("auto", *MODULES)

_hooks: List[Callable[[ModuleType], object]] = []


def on_load(hook: Callable[[ModuleType], object]) -> None:
    """Call ``hook(engine_module)`` for every engine loaded from now on and for those already loaded."""
    _hooks.append(hook)
    for name in MODULES.values():
        module = sys.modules.get(name)
        if module is not None:
            hook(module)


def load_backend(name: str) -> ModuleType:
    """Return the engine module called ``name`` (``"cpp"`` or ``"python"``), importing it if needed.

    Raises ``ImportError`` if that engine cannot be imported (for ``"cpp"``: it was not built), and ``ValueError``
    for any other name.
    """
    if name not in MODULES:
        raise ValueError(f"unknown azul-engine backend {name!r}; expected one of: {', '.join(MODULES)}")
    try:
        module = importlib.import_module(MODULES[name])
    except ImportError as exc:
        if name != "cpp":
            raise
        raise ImportError(
            f"azul-engine: the C++ engine (azul_engine._cppengine) cannot be imported: {exc}. Reinstall with a "
            "C++17 compiler available (AZUL_REQUIRE_CPP=1 makes a failed build an error instead of a warning), "
            "or use AZUL_BACKEND=python."
        ) from exc
    for hook in _hooks:  # each time: an engine module imported directly gets them at its first load_backend
        hook(module)
    return module


def engine_named(engine: object = None) -> ModuleType:
    """The engine that ``engine`` means, wherever a tool takes one (``--backend``, ``backend=``, ``engine=``):
    None or ``"auto"`` the active one (``ENGINE``, which ``AZUL_BACKEND`` chose), ``"cpp"`` or ``"python"`` that
    engine (``load_backend``: ImportError when it cannot be imported, ValueError for another name), or an engine
    module itself (the package root counts as one: it is the active engine's names). Its name is ``.NAME``."""
    if engine is None or engine == "auto":
        return ENGINE
    if isinstance(engine, str):
        return load_backend(engine)
    if isinstance(engine, ModuleType) and hasattr(engine, "new_game"):
        return engine
    raise TypeError("an engine is a backend name (cpp, python or auto), an engine module or None, not %s"
                    % type(engine).__name__)


def engine_of(state: object) -> ModuleType:
    """The engine module whose ``GameState`` or ``PavilionState`` ``state`` is (``engine.NAME`` says which);
    TypeError for anything else."""
    for module_name in MODULES.values():
        module = sys.modules.get(module_name)
        if module is not None and isinstance(state, (module.GameState, module.PavilionState)):
            return module
    raise TypeError("not a game state of either engine: %s" % type(state).__name__)


def available_backends() -> List[str]:
    """Names of the engines that import here, in preference order: a sublist of ``["cpp", "python"]``."""
    names = []
    for name in MODULES:
        try:
            load_backend(name)
        except ImportError:
            continue
        names.append(name)
    return names


def _choose(requested: str) -> Tuple[str, ModuleType]:
    if requested not in CHOICES:
        raise ValueError(f"AZUL_BACKEND={requested!r} is not one of: {', '.join(CHOICES)}")
    if requested != "auto":
        return requested, load_backend(requested)
    try:
        return "cpp", load_backend("cpp")
    except ImportError:
        return "python", load_backend("python")


BACKEND, ENGINE = _choose(os.environ.get("AZUL_BACKEND") or "auto")


def game_info(variant: str = "classic", players: int = 2) -> GameInfo:
    """The facts of ``variant`` for ``players`` (``GameInfo``: colours, rounds, bonuses, sizes) as the active engine
    gives them; both engines give the same."""
    return cast("GameInfo", ENGINE.game_info(variant, players))
