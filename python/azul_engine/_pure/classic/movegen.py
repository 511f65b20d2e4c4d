"""Classic and grey-wall Azul, pure-Python engine: move generation (legal actions, chance outcomes).

C++ twin: native/src/classic/movegen.cpp.
"""


from .. import common as _common
from ..._errors import IllegalMoveError
from .types import (
    CENTRE,
    DRAW_ACTION_BASE,
    FILL,
    FIRST_PLAYER,
    FIRST_PLAYER_ACTION_BASE,
    NUM_ACTIONS,
    OFFER,
    PHASE_NAMES,
    TILE_ACTION_BASE,
    TILING,
)
from .notation import _DRAFTS, _OPEN_EMPTY


def _pending_row(self, p):
    count = self._line_count[p]
    for r in range(5):
        if count[r] == r + 1:
            return r
    return -1


def _allowed_columns(self, p, row, colour):
    """Grey wall: empty cells of ``row`` whose column holds no ``colour`` yet."""
    wall = self._wall[p]
    return [c for c in range(5) if wall[row * 5 + c] < 0 and colour not in wall[c::5]]


def _row_has(self, p, row, colour):
    return self._row_colours[p][row] >> colour & 1


def legal_actions(self):
    """Legal action ids, ascending.  At a chance node, the possible outcomes.

    Drafts are ``(source * 5 + colour) * 6 + destination`` (source 0-8 factory, 9 centre;
    destination 0-4 pattern line, 5 floor), so they come source by source, colour by colour,
    pattern lines then floor.  An empty list means the game is over.
    """
    with self._lock:
        return self._legal_actions()


def _legal_actions(self):
    phase = self._phase
    if phase == OFFER:
        p = self._turn
        lc, ln, rows = self._line_colour[p], self._line_count[p], self._row_colours[p]
        # The pattern lines open to each colour c, as bits c * 5 + r of one mask (cf.
        # OpenLanes in movegen.cpp).  A line never holds a colour its wall row has, so a
        # part-filled line takes its own colour.
        n0, n1, n2, n3, n4 = ln
        o0, o1, o2, o3, o4 = _OPEN_EMPTY
        m = o0[rows[0]] if not n0 else 0
        m |= o1[rows[1]] if not n1 else (1 << lc[1] * 5 + 1 if n1 < 2 else 0)
        m |= o2[rows[2]] if not n2 else (1 << lc[2] * 5 + 2 if n2 < 3 else 0)
        m |= o3[rows[3]] if not n3 else (1 << lc[3] * 5 + 3 if n3 < 4 else 0)
        m |= o4[rows[4]] if not n4 else (1 << lc[4] * 5 + 4 if n4 < 5 else 0)
        # _DRAFTS index of source s, colour c: s * 160 + c * 32 + lines open to c.
        m0 = m & 31
        m1 = 32 + (m >> 5 & 31)
        m2 = 64 + (m >> 10 & 31)
        m3 = 96 + (m >> 15 & 31)
        m4 = 128 + (m >> 20)
        drafts = _DRAFTS
        out = []
        base = 0
        for t0, t1, t2, t3, t4 in self._factories:
            if t0:
                out += drafts[base + m0]
            if t1:
                out += drafts[base + m1]
            if t2:
                out += drafts[base + m2]
            if t3:
                out += drafts[base + m3]
            if t4:
                out += drafts[base + m4]
            base += 160
        t0, t1, t2, t3, t4 = self._centre
        base = CENTRE * 160
        if t0:
            out += drafts[base + m0]
        if t1:
            out += drafts[base + m1]
        if t2:
            out += drafts[base + m2]
        if t3:
            out += drafts[base + m3]
        if t4:
            out += drafts[base + m4]
        return out
    if phase == TILING:
        p = self._turn
        r = self._pending_row(p)
        return [TILE_ACTION_BASE + c
                for c in self._allowed_columns(p, r, self._line_colour[p][r])]
    if phase == FILL or phase == FIRST_PLAYER:
        return _common.chance_actions(phase == FIRST_PLAYER, self._bag, self._players, DRAW_ACTION_BASE,
                                        FIRST_PLAYER_ACTION_BASE)
    return []


def legal_moves(self):
    """Legal moves as notation strings, in the order of :meth:`legal_actions`."""
    return [self.action_to_string(a) for a in self.legal_actions()]


def chance_outcomes(self):
    """At a chance node, ``(action, probability)`` pairs in action order.

    A tile draw's outcomes are in proportion to the bag; the first player is uniform.
    """
    if self._phase == FILL or self._phase == FIRST_PLAYER:
        return _common.chance_outcome_list(self._phase == FIRST_PLAYER, self._bag, self._players,
                                             DRAW_ACTION_BASE, FIRST_PLAYER_ACTION_BASE)
    raise IllegalMoveError("not a chance node (phase %s)" % PHASE_NAMES[self._phase])


def legal_action_mask(self):
    """A bool numpy array of NUM_ACTIONS: True for each id in :meth:`legal_actions`."""
    import numpy as np

    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    mask[self.legal_actions()] = True
    return mask
