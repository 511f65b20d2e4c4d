"""Azul: Summer Pavilion in the pure-Python engine (rules section 3).

The readable twin of ``native/src/pavilion/`` and ``native/include/azul/pavilion/``: the same
board model, action ids, notation, state text, history and messages.  The code is in
``azul_engine._pure.pavilion`` (one module per job: tables, notation, movegen, apply, scoring, round,
observation, text, record, playout, undo, key; each module's banner names its C++ twin), where ``state.py``
composes :class:`PavilionState` from them; this module imports its public names from there.
:func:`azul_engine._pyengine.new_game` hands ``variant="summer-pavilion"`` to :func:`new_game`
here; the state it returns is a :class:`PavilionState`, with the same methods as a classic
``GameState`` wherever the two games share an idea.

Board model.  Colours (frozen order) ``P G O Y B R``: purple, green, orange, yellow, blue, red.
Stars ``O R B Y G P`` (the outer stars clockwise from the upper left, each taking only its own
colour) and ``C`` (the centre star, six different colours).  Space ``n`` (1-6) of a star costs
``n`` tiles.  Spaces are numbered 0-41 inside the engine: ``star * 6 + n - 1`` with stars in the
order ``O R B Y G P C``.  The round's wild colour is colour ``round - 1``.

Action ids (``SP_NUM_ACTIONS`` = 1798):

- 0-59, acquire: ``source * 6 + colour`` (source 0-8 factory, 9 the centre);
- 60-1571, place: ``60 + (space * 6 + colour) * 6 + wilds`` (space 0-41 as above, the colour
  paid and placed, 0-5 wild tiles standing in for it);
- 1572-1577, bonus tile: ``1572 + colour``, one tile of that colour from the supply;
- 1578-1787, pass: ``1578 + k`` keeping ``SP_KEEP_SETS[k]`` (the 210 multisets of at most 4
  tiles, by size and then in colour order: '', 'P', 'G', ..., 'RRRR');
- 1788-1793, chance: a tile of colour 0-5 is drawn from the bag;
- 1794-1797, chance: seat 0-3 starts round 1.
"""

from ._errors import IllegalMoveError, StateFormatError
from ._pure.pavilion.playout import LIGHT_PASS_ODDS, play_random
from ._pure.pavilion.state import PavilionState, new_game
from ._pure.pavilion.tables import (
    ACQUIRE,
    BONUS,
    CENTRE,
    CENTRE_STAR,
    CHANCE,
    FILL,
    FILL_FACTORIES,
    FILL_NAMES,
    FILL_REFILL,
    FILL_SETUP,
    FIRST_PLAYER,
    MIN_SCORE,
    NO_FILL,
    NUMBER_BONUS,
    ORNAMENTS,
    OVER,
    PHASE_NAMES,
    PLAY,
    ROUNDS,
    SEAT_FEATURES,
    SHARED_FEATURES,
    SP_BONUS_ACTION_BASE,
    SP_COLOURS,
    SP_COLOUR_NAMES,
    SP_DRAW_ACTION_BASE,
    SP_FIRST_PLAYER_ACTION_BASE,
    SP_KEEP_SETS,
    SP_NUM_ACTIONS,
    SP_PASS_ACTION_BASE,
    SP_PLACE_ACTION_BASE,
    SP_STARS,
    SP_STAR_NAMES,
    START_SCORE,
    STAR_BONUS,
    STAR_COLOUR,
    SUPPLY_SIZE,
    TILES_PER_COLOUR,
    ornament_name,
)

__all__ = [
    "PavilionState", "new_game", "play_random", "ornament_name", "IllegalMoveError", "StateFormatError",
    "SP_COLOURS", "SP_COLOUR_NAMES", "SP_STARS", "SP_STAR_NAMES", "SP_KEEP_SETS", "SP_NUM_ACTIONS",
    "SP_PLACE_ACTION_BASE", "SP_BONUS_ACTION_BASE", "SP_PASS_ACTION_BASE", "SP_DRAW_ACTION_BASE",
    "SP_FIRST_PLAYER_ACTION_BASE", "STAR_COLOUR", "CENTRE_STAR", "CENTRE", "TILES_PER_COLOUR", "SUPPLY_SIZE",
    "START_SCORE", "MIN_SCORE", "ROUNDS", "STAR_BONUS", "NUMBER_BONUS", "ORNAMENTS", "CHANCE", "SEAT_FEATURES",
    "SHARED_FEATURES", "FIRST_PLAYER", "FILL", "ACQUIRE", "PLAY", "BONUS", "OVER", "PHASE_NAMES", "NO_FILL",
    "FILL_SETUP", "FILL_FACTORIES", "FILL_REFILL", "FILL_NAMES", "LIGHT_PASS_ODDS",
]
