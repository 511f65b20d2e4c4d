"""Azul: Summer Pavilion, pure-Python engine: observation tensors (docs/observation.md).

C++ twin: native/src/pavilion/observation.cpp.
"""


from .. import common as _common
from .tables import ACQUIRE, SEAT_FEATURES, SHARED_FEATURES


def observation_tensor(self, player=None):
    """The state as seen by ``player`` (default: the player to move; seat 0 at a chance node or
    after the end): a float32 numpy array of shape ``observation_shape(players,
    "summer-pavilion")`` = ``(87 * players + 97,)``.

    Perspective-relative: block k describes seat ``(player + k) % players``, the observer first.
    Each seat block has 87 values: space s (``star * 6 + number - 1``, stars O R B Y G P C)
    covered at s (42), centre space k holding colour c at ``42 + 6k + c`` (36), tiles in hand of
    colour c at 78 + c (/ 22), score / 100 at 84, passed at 85, holds the start token at 86.
    Then 97 shared values: factory f colour c at ``6f + c`` (/ 4; 9 factories), centre colour c
    at 54 + c (/ 22), the start token still in the centre at 60, supply colour c at 61 + c
    (/ 10), bag and tower colour c at 67 + c and 73 + c (/ 22), round / 6 at 79, the wild
    colour one-hot at 80-85, the phase one-hot at 86-91 (first-player, fill, acquire, play,
    bonus, over), bonus tiles owed / 18 at 92, and the round's starting seat relative to the
    observer one-hot at 93-96.
    """
    import numpy as np

    player = self._observer(player)
    n = self._players
    out = np.zeros(SEAT_FEATURES * n + SHARED_FEATURES, dtype=np.float32)
    for k in range(n):
        seat = (player + k) % n
        base = SEAT_FEATURES * k
        board = self._board[seat]
        for s in range(42):
            if board[s] >= 0:
                out[base + s] = 1.0
                if s >= 36:
                    out[base + 42 + 6 * (s - 36) + board[s]] = 1.0
        for c in range(6):
            out[base + 78 + c] = self._hand[seat][c] / 22
        out[base + 84] = self._score[seat] / 100
        out[base + 85] = 1.0 if self._passed[seat] else 0.0
        out[base + 86] = 1.0 if self._marker == seat else 0.0
    base = SEAT_FEATURES * n
    for f, tiles in enumerate(self._factories):
        for c in range(6):
            out[base + 6 * f + c] = tiles[c] / 4
    for c in range(6):
        out[base + 54 + c] = self._centre[c] / 22
        out[base + 61 + c] = self._supply[c] / 10
        out[base + 67 + c] = self._bag[c] / 22
        out[base + 73 + c] = self._tower[c] / 22
    out[base + 60] = 1.0 if self._marker < 0 and self._phase == ACQUIRE else 0.0
    out[base + 79] = self._round / 6
    out[base + 80 + self._round - 1] = 1.0
    out[base + 86 + self._phase] = 1.0
    out[base + 92] = self._owed / 18
    if self._start >= 0:
        out[base + 93 + (self._start - player) % n] = 1.0
    return out


def _observer(self, player):
    return _common.observer(player, self._turn, self._players)
