"""Azul rules engine with two interchangeable backends.

``azul_engine._cppengine`` (C++17, built by ``pip install`` when a compiler is available) and
``azul_engine._pyengine`` (pure Python) export the same names and pass the same tests. This package re-exports the
active one. The environment variable ``AZUL_BACKEND`` chooses it when the package is first imported:

- ``auto`` (the default; also when unset or empty): the C++ engine if it imports, else the pure-Python one;
- ``cpp``: the C++ engine, or ``ImportError`` if it was not built (never a silent fallback);
- ``python``: the pure-Python engine.

``BACKEND`` names the engine in use; ``load_backend(name)`` returns either engine module, whichever is active.

Typing.  Each name of the engine is assigned here by name from the active engine (``GameState =
_engine.GameState``, ...), never by filling the namespace in a loop, so that a reader (and a linter) sees every
name the package has.  What type checkers read is ``__init__.pyi`` beside this file (PEP 561: a stub wins over
the module): it re-exports the engine's names from the C++ engine's stub ``_cppengine.pyi``, which describes both
engines (tests/test_parity.py checks its names and signatures against each), and declares the rest: the backend
functions, the errors, ``__version__`` and the tools as submodules (``az.records``).  So ``az.new_game(2)`` is a
``GameState | PavilionState`` to mypy and pyright whichever engine runs, and a misspelt name is an error
(tests/test_typing.py checks both).  ``__getattr__`` below, which imports the tools on first use, is not in the
stub: to a checker the package has exactly the names the stub declares.  A name added here must be added there too
(tests/test_typing.py compares the two).
"""

import importlib as _importlib

from . import _backends
from ._errors import AzulError, IllegalMoveError, StateFormatError

from ._version import __version__

from . import svg
from ._backends import BACKEND, ENGINE as _engine, available_backends, engine_of, load_backend

# Jupyter draws the states of every engine loaded (state._repr_svg_).
_backends.on_load(svg.install)

# The active engine's names (both engines define the same __all__, PEP 399: the accelerated module exposes nothing
# the pure one lacks), each by name; its IllegalMoveError and StateFormatError are the very classes of _errors,
# imported above, which both engines raise.
# The game states, their facts and the search's result.
GameState = _engine.GameState
PavilionState = _engine.PavilionState
VectorGame = _engine.VectorGame
GameInfo = _engine.GameInfo
SearchResult = _engine.SearchResult
RoundSolution = _engine.RoundSolution
Network = _engine.Network

# Functions.
new_game = _engine.new_game
from_text = _engine.from_text
game_info = _engine.game_info
end_bonus = _engine.end_bonus
observation_shape = _engine.observation_shape
random_playouts = _engine.random_playouts
playouts_from = _engine.playouts_from
search = _engine.search
search_many = _engine.search_many
solve_round = _engine.solve_round
load_network = _engine.load_network

# Constants.
NAME = _engine.NAME
COLOURS = _engine.COLOURS
VARIANTS = _engine.VARIANTS
PORTABLE = _engine.PORTABLE
VECTORISED = _engine.VECTORISED
MAX_ROUNDS = _engine.MAX_ROUNDS
NUM_ACTIONS = _engine.NUM_ACTIONS
NUM_DRAFT_ACTIONS = _engine.NUM_DRAFT_ACTIONS
TILE_ACTION_BASE = _engine.TILE_ACTION_BASE
DRAW_ACTION_BASE = _engine.DRAW_ACTION_BASE
FIRST_PLAYER_ACTION_BASE = _engine.FIRST_PLAYER_ACTION_BASE
CHANCE = _engine.CHANCE
TEXT_VERSION = _engine.TEXT_VERSION
SP_COLOURS = _engine.SP_COLOURS
SP_STARS = _engine.SP_STARS
SP_KEEP_SETS = _engine.SP_KEEP_SETS
SP_NUM_ACTIONS = _engine.SP_NUM_ACTIONS
SP_PLACE_ACTION_BASE = _engine.SP_PLACE_ACTION_BASE
SP_BONUS_ACTION_BASE = _engine.SP_BONUS_ACTION_BASE
SP_PASS_ACTION_BASE = _engine.SP_PASS_ACTION_BASE
SP_DRAW_ACTION_BASE = _engine.SP_DRAW_ACTION_BASE
SP_FIRST_PLAYER_ACTION_BASE = _engine.SP_FIRST_PLAYER_ACTION_BASE

__all__ = [
    "AzulError", "BACKEND", "CHANCE", "COLOURS", "DRAW_ACTION_BASE", "FIRST_PLAYER_ACTION_BASE", "GameInfo",
    "GameState", "IllegalMoveError", "MAX_ROUNDS", "NAME", "Network", "NUM_ACTIONS", "NUM_DRAFT_ACTIONS", "PORTABLE",
    "PavilionState", "RoundSolution", "SP_BONUS_ACTION_BASE", "SP_COLOURS", "SP_DRAW_ACTION_BASE",
    "SP_FIRST_PLAYER_ACTION_BASE", "SP_KEEP_SETS", "SP_NUM_ACTIONS", "SP_PASS_ACTION_BASE",
    "SP_PLACE_ACTION_BASE", "SP_STARS", "SearchResult", "StateFormatError", "TEXT_VERSION",
    "TILE_ACTION_BASE", "VARIANTS", "VECTORISED", "VectorGame", "available_backends", "end_bonus",
    "engine_of", "from_text", "game_info", "load_backend", "load_network", "new_game", "observation_shape",
    "playouts_from", "random_playouts", "search", "search_many", "solve_round",
]

# The package's tools, imported on first use (PEP 562), so that ``import azul_engine as az; az.records.read(...)``
# works as ``import azul_engine.records`` does, without importing them all with the engine.
_SUBMODULES = ("bench", "bots", "distributed", "envs", "external", "hints", "network", "openspiel", "pettingzoo",
               "play", "records", "replay", "sb3", "selfplay", "serve", "svg", "textui", "tournament", "train", "web")


def __getattr__(name):
    if name in _SUBMODULES:
        try:
            return _importlib.import_module("." + name, __name__)
        except ImportError as exc:  # an extra not installed (pyspiel, starlette, ...): hasattr() stays False
            raise AttributeError(f"azul_engine.{name} cannot be imported: {exc}") from exc
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    # What a user may use: the API, the tools and the module's dunders; not the package's own imports
    # (importlib, the private modules).
    return sorted(set(__all__) | set(_SUBMODULES) | {n for n in globals() if n.startswith("__")})
