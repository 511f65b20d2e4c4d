"""Azul: Summer Pavilion in the pure-Python engine (rules section 3).

The readable twin of ``native/src/pavilion/`` and ``native/include/azul/pavilion/``: the same
board model, action ids, notation, state text, history and messages.  This module assembles it from
``azul_engine._pure.pavilion`` (one module per job: tables, notation, state, movegen, apply, scoring,
round, observation, text, record, playout, undo, key; each module's banner names its C++ twin).
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

from ._pure.pavilion import state as _m_state  # first: it imports the modules of every job
from ._pure.pavilion import apply as _m_apply
from ._pure.pavilion import key as _m_key
from ._pure.pavilion import movegen as _m_movegen
from ._pure.pavilion import notation as _m_notation
from ._pure.pavilion import observation as _m_observation
from ._pure.pavilion import playout as _m_playout
from ._pure.pavilion import record as _m_record
from ._pure.pavilion import round as _m_round
from ._pure.pavilion import scoring as _m_scoring
from ._pure.pavilion import tables as _m_tables
from ._pure.pavilion import text as _m_text
from ._pure.pavilion import undo as _m_undo
from ._pure.common import assemble as _assemble

_assemble(globals(), (
    _m_tables, _m_notation, _m_state, _m_apply, _m_key, _m_movegen, _m_observation, _m_playout,
    _m_record, _m_round, _m_scoring, _m_text, _m_undo,
), __name__)
