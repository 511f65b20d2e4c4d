"""The pure-Python Azul engine.

This module is the readable twin of the C++ core in ``native/``.  Its code is in ``azul_engine._pure``:
``classic/`` (one module per job, as ``native/src/``: types, notation, movegen, apply, scoring, round,
observation, text, record, undo, key, and playout; each module's banner names its C++ twin), where
``classic/state.py`` composes :class:`GameState` (its class body binds each job's functions by name);
``pavilion/`` (Summer Pavilion, the same way, exported by ``azul_engine._pypavilion``), ``common.py`` (what both
share), ``vector.py``, ``game_info.py`` and ``search.py``, so that the two engines can be read side by side.
This module imports the engine's names from there, each one by name.  It must behave exactly like
``azul_engine._cppengine``: the same seed and moves give the same game, the same legal moves in the same order,
the same state text and the same errors.  The shared test suite checks that in lockstep.

Everything here is plain Python on purpose: no compiler is needed, and a debugger can step
through every rule.
"""

from ._errors import IllegalMoveError, StateFormatError
from ._pure.classic.observation import observation_shape
from ._pure.classic.playout import playouts_from, random_playouts
from ._pure.classic.scoring import end_bonus
from ._pure.classic.state import GameState, from_text, new_game
from ._pure.classic.types import (
    CHANCE,
    COLOURS,
    DRAW_ACTION_BASE,
    FIRST_PLAYER_ACTION_BASE,
    MAX_ROUNDS,
    NUM_ACTIONS,
    NUM_DRAFT_ACTIONS,
    PORTABLE,
    TEXT_VERSION,
    TILE_ACTION_BASE,
    VARIANTS,
    VECTORISED,
)
from ._pure.game_info import GameInfo, game_info
from ._pure.network import Network, load_network
from ._pure.search import RoundSolution, SearchResult, search, search_many, solve_round
from ._pure.vector import VectorGame
from ._pypavilion import (
    SP_BONUS_ACTION_BASE,
    SP_COLOURS,
    SP_DRAW_ACTION_BASE,
    SP_FIRST_PLAYER_ACTION_BASE,
    SP_KEEP_SETS,
    SP_NUM_ACTIONS,
    SP_PASS_ACTION_BASE,
    SP_PLACE_ACTION_BASE,
    SP_STARS,
    PavilionState,
)

__all__ = [
    "GameState", "new_game", "IllegalMoveError", "StateFormatError",
    "COLOURS", "VARIANTS", "PORTABLE", "VECTORISED", "MAX_ROUNDS", "NUM_ACTIONS", "NUM_DRAFT_ACTIONS", "TILE_ACTION_BASE",
    "DRAW_ACTION_BASE", "FIRST_PLAYER_ACTION_BASE", "CHANCE", "TEXT_VERSION", "end_bonus",
    "random_playouts", "playouts_from", "VectorGame", "observation_shape",
    "from_text", "PavilionState", "SP_COLOURS", "SP_STARS", "SP_KEEP_SETS", "SP_NUM_ACTIONS",
    "SP_PLACE_ACTION_BASE", "SP_BONUS_ACTION_BASE", "SP_PASS_ACTION_BASE", "SP_DRAW_ACTION_BASE",
    "SP_FIRST_PLAYER_ACTION_BASE", "GameInfo", "game_info", "search", "SearchResult", "NAME",
    "search_many", "Network", "load_network", "solve_round", "RoundSolution",
]

NAME = "python"  # the engine's name, as load_backend takes it (the C++ engine's: "cpp")
