"""The pure-Python Azul engine.

This module is the readable twin of the C++ core in ``native/``.  It assembles the engine from
``azul_engine._pure``: ``classic/`` (one module per job, as ``native/src/``: types, notation, state,
movegen, apply, scoring, round, observation, text, record, playout, undo, key; each module's banner names its C++
twin), ``pavilion/`` (Summer Pavilion, through ``azul_engine._pypavilion``), ``common.py`` (what both
share), ``vector.py`` and ``game_info.py``, so that the two engines can be read side by side.  It must
behave exactly like ``azul_engine._cppengine``: the same seed and moves give the same game, the
same legal moves in the same order, the same state text and the same errors.  The shared test
suite checks that in lockstep.

Everything here is plain Python on purpose: no compiler is needed, and a debugger can step
through every rule.
"""

from ._pure.classic import state as _m_state  # first: it imports the modules of every job
from ._pure.classic import apply as _m_apply
from ._pure.classic import key as _m_key
from ._pure.classic import movegen as _m_movegen
from ._pure.classic import notation as _m_notation
from ._pure.classic import observation as _m_observation
from ._pure.classic import playout as _m_playout
from ._pure.classic import record as _m_record
from ._pure.classic import round as _m_round
from ._pure.classic import scoring as _m_scoring
from ._pure.classic import text as _m_text
from ._pure.classic import types as _m_types
from ._pure.classic import undo as _m_undo
from ._pure import vector as _m_vector
from ._pure.game_info import GameInfo, game_info
from . import _pypavilion
from ._pypavilion import (
    PavilionState, SP_COLOURS, SP_STARS, SP_KEEP_SETS, SP_NUM_ACTIONS, SP_PLACE_ACTION_BASE,
    SP_BONUS_ACTION_BASE, SP_PASS_ACTION_BASE, SP_DRAW_ACTION_BASE, SP_FIRST_PLAYER_ACTION_BASE,
)
from ._errors import IllegalMoveError, StateFormatError
from ._pure.common import assemble as _assemble
from ._pure.search import SearchResult, search

__all__ = [
    "GameState", "new_game", "IllegalMoveError", "StateFormatError",
    "COLOURS", "VARIANTS", "PORTABLE", "VECTORISED", "MAX_ROUNDS", "NUM_ACTIONS", "NUM_DRAFT_ACTIONS", "TILE_ACTION_BASE",
    "DRAW_ACTION_BASE", "FIRST_PLAYER_ACTION_BASE", "CHANCE", "TEXT_VERSION", "end_bonus",
    "random_playouts", "playouts_from", "VectorGame", "observation_shape",
    "from_text", "PavilionState", "SP_COLOURS", "SP_STARS", "SP_KEEP_SETS", "SP_NUM_ACTIONS",
    "SP_PLACE_ACTION_BASE", "SP_BONUS_ACTION_BASE", "SP_PASS_ACTION_BASE", "SP_DRAW_ACTION_BASE",
    "SP_FIRST_PLAYER_ACTION_BASE", "GameInfo", "game_info", "search", "SearchResult", "NAME",
]

NAME = "python"  # the engine's name, as load_backend takes it (the C++ engine's: "cpp")

_assemble(globals(), (
    _m_types, _m_notation, _m_state, _m_apply, _m_key, _m_movegen, _m_observation, _m_playout,
    _m_record, _m_round, _m_scoring, _m_text, _m_undo, _m_vector,
), __name__)
