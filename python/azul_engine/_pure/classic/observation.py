"""Classic and grey-wall Azul, pure-Python engine: observation tensors (docs/observation.md).

C++ twin: native/src/classic/observation.cpp.
"""


from .. import common as _common
from ..pavilion import tables as _pavilion_tables
from .types import OFFER, SEAT_FEATURES, SHARED_FEATURES, TILING, check_players_and_variant


def observation_shape(players, variant="classic"):
    """Shape of :meth:`GameState.observation_tensor`: ``(154 * players + 76,)``; for
    "summer-pavilion", of :meth:`PavilionState.observation_tensor`: ``(87 * players + 97,)``."""
    check_players_and_variant(players, variant)  # as new_game does
    if variant == "summer-pavilion":
        return (_pavilion_tables.SEAT_FEATURES * players + _pavilion_tables.SHARED_FEATURES,)
    return (SEAT_FEATURES * players + SHARED_FEATURES,)


def _observation(self, player, out, offset):
    """Write the observation of ``player`` (see :meth:`observation_tensor`) into the list
    ``out`` from ``offset``; values are exact fractions, made float32 by the caller."""
    players = self._players
    for k in range(players):
        seat = (player + k) % players
        base = offset + SEAT_FEATURES * k
        wall = self._wall[seat]
        for i in range(25):
            if wall[i] >= 0:
                out[base + 25 * wall[i] + i] = 1.0
        for r in range(5):
            n = self._line_count[seat][r]
            if n:
                out[base + 125 + 5 * r + self._line_colour[seat][r]] = n / (r + 1)
        out[base + 150] = sum(self._floor[seat]) / 7
        out[base + 151] = 1.0 if self._marker == seat and self._marker_floor else 0.0
        out[base + 152] = 1.0 if self._marker == seat else 0.0
        out[base + 153] = self._score[seat] / 100
    base = offset + SEAT_FEATURES * players
    for f, tiles in enumerate(self._factories):
        for c in range(5):
            out[base + 5 * f + c] = tiles[c] / 4
    for c in range(5):
        out[base + 45 + c] = self._centre[c] / 20
        out[base + 51 + c] = self._bag[c] / 20
        out[base + 56 + c] = self._lid[c] / 20
    out[base + 50] = 1.0 if self._phase == OFFER and self._marker < 0 else 0.0
    out[base + 61] = self._round / 10
    out[base + 62 + self._phase] = 1.0
    if self._phase == TILING:
        out[base + 67 + self._pending_row(self._turn)] = 1.0
    if self._start >= 0:
        out[base + 72 + (self._start - player) % players] = 1.0


def _observer(self, player):
    return _common.observer(player, self._turn, self._players)


def observation_tensor(self, player=None):
    """The state as seen by ``player`` (default: the player to move; seat 0 at a chance node
    or after the end): a float32 numpy array of shape ``observation_shape(players)``.

    Perspective-relative: block k describes seat ``(player + k) % players``, so the
    observer comes first.  Each seat block has 154 values: wall cell (row r, column c)
    holding colour k at ``25k + 5r + c`` (one-hot, 125), pattern line r holding colour k at
    ``125 + 5r + k`` (tiles / (r + 1)), floor tiles / 7 at 150, the marker on this floor at
    151, this seat took the marker this round at 152, score / 100 at 153.  Then 76 shared
    values: factory f colour k at ``5f + k`` (tiles / 4; 9 factories), centre colour k at
    45 + k (tiles / 20), the marker still in the centre at 50, bag and lid colour k at
    51 + k and 56 + k (tiles / 20), round / 10 at 61, the phase one-hot at 62-66
    (first-player, fill, offer, tiling, over), the grey-wall pending row one-hot at 67-71,
    and the round's starting seat relative to the observer one-hot at 72-75.
    """
    import numpy as np

    player = self._observer(player)
    out = [0.0] * (SEAT_FEATURES * self._players + SHARED_FEATURES)
    self._observation(player, out, 0)
    return np.array(out, dtype=np.float32)
