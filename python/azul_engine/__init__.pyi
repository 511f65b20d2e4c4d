# Type stub of the package root, azul_engine/__init__.py (its docstring says why there is one).  At run time the
# engine's names are the active engine's (AZUL_BACKEND); to a type checker they are the C++ engine's stub,
# _cppengine.pyi, which tests/test_parity.py checks against both engines.  The tools are submodules, imported on
# first use at run time (the module's __getattr__, left out here so that a misspelt name is an error).
# tests/test_typing.py checks that this stub names what the package has.
from types import ModuleType
from typing import List, Union

from . import bench as bench
from . import bots as bots
from . import distributed as distributed
from . import envs as envs
from . import external as external
from . import hints as hints
from . import network as network
from . import openspiel as openspiel
from . import pettingzoo as pettingzoo
from . import play as play
from . import records as records
from . import replay as replay
from . import sb3 as sb3
from . import selfplay as selfplay
from . import serve as serve
from . import svg as svg
from . import textui as textui
from . import tournament as tournament
from . import train as train
from . import web as web
from ._cppengine import (
    GameState as GameState,
    PavilionState as PavilionState,
    VectorGame as VectorGame,
    GameInfo as GameInfo,
    SearchResult as SearchResult,
    RoundSolution as RoundSolution,
    Network as Network,
    new_game as new_game,
    from_text as from_text,
    game_info as game_info,
    end_bonus as end_bonus,
    observation_shape as observation_shape,
    random_playouts as random_playouts,
    playouts_from as playouts_from,
    search as search,
    search_many as search_many,
    solve_round as solve_round,
    load_network as load_network,
    NAME as NAME,
    COLOURS as COLOURS,
    VARIANTS as VARIANTS,
    PORTABLE as PORTABLE,
    VECTORISED as VECTORISED,
    MAX_ROUNDS as MAX_ROUNDS,
    NUM_ACTIONS as NUM_ACTIONS,
    NUM_DRAFT_ACTIONS as NUM_DRAFT_ACTIONS,
    TILE_ACTION_BASE as TILE_ACTION_BASE,
    DRAW_ACTION_BASE as DRAW_ACTION_BASE,
    FIRST_PLAYER_ACTION_BASE as FIRST_PLAYER_ACTION_BASE,
    CHANCE as CHANCE,
    TEXT_VERSION as TEXT_VERSION,
    SP_COLOURS as SP_COLOURS,
    SP_STARS as SP_STARS,
    SP_KEEP_SETS as SP_KEEP_SETS,
    SP_NUM_ACTIONS as SP_NUM_ACTIONS,
    SP_PLACE_ACTION_BASE as SP_PLACE_ACTION_BASE,
    SP_BONUS_ACTION_BASE as SP_BONUS_ACTION_BASE,
    SP_PASS_ACTION_BASE as SP_PASS_ACTION_BASE,
    SP_DRAW_ACTION_BASE as SP_DRAW_ACTION_BASE,
    SP_FIRST_PLAYER_ACTION_BASE as SP_FIRST_PLAYER_ACTION_BASE,
)
from ._errors import AzulError as AzulError
from ._errors import IllegalMoveError as IllegalMoveError
from ._errors import StateFormatError as StateFormatError
from ._version import __version__ as __version__

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

BACKEND: str  # "cpp" or "python": the engine AZUL_BACKEND chose

def load_backend(name: str) -> ModuleType: ...
def engine_of(state: Union[GameState, PavilionState]) -> ModuleType: ...
def available_backends() -> List[str]: ...
