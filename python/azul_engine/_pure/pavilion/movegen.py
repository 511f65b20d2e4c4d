"""Azul: Summer Pavilion, pure-Python engine: move generation (legal actions, chance outcomes).

C++ twin: native/src/pavilion/movegen.cpp.
"""


from .. import common as _common
from ..._errors import IllegalMoveError
from .tables import (
    ACQUIRE,
    BONUS,
    CENTRE,
    FILL,
    FIRST_PLAYER,
    PHASE_NAMES,
    PLAY,
    SP_BONUS_ACTION_BASE,
    SP_DRAW_ACTION_BASE,
    SP_FIRST_PLAYER_ACTION_BASE,
    SP_NUM_ACTIONS,
    SP_PLACE_ACTION_BASE,
    STAR_COLOUR,
    _ACQUIRES,
    _PASS_BYTES,
    _PASS_FIT,
    _PASS_MASK_BYTES,
)
from .notation import _ACTION_TEXT


def _wild_count_range(cost, have, wilds, is_wild):
    """The wild tiles that may stand in when paying ``cost`` with ``have`` tiles of the colour and
    ``wilds`` wild tiles: at least one real tile; none when the colour is the wild one."""
    if is_wild:
        return range(1) if have >= cost else range(0)
    lo = cost - have if cost > have else 0
    hi = cost - 1 if cost - 1 < wilds else wilds
    return range(lo, hi + 1)


# Placement ids from tables, each keyed by a hand key: the colour's tiles in hand (clamped at 6)
# * 12 + the wild tiles (clamped at 5) * 2 + 1 if the colour is the wild one.
def _space_places(space, colour, key):
    """The placement ids on ``space`` in ``colour`` for hand key ``key``, ascending."""
    have, rest = divmod(key, 12)
    wilds, is_wild = divmod(rest, 2)
    base = SP_PLACE_ACTION_BASE + (space * 6 + colour) * 6
    return tuple(base + w for w in _wild_count_range(space % 6 + 1, have, wilds, is_wild))


# _CENTRE_PLACES[(k * 6 + colour) * 84 + hand key]: on centre star space k.
_CENTRE_PLACES = tuple(_space_places(36 + _k, _c, _h)
                       for _k in range(6) for _c in range(6) for _h in range(84))


# _STAR_PLACES[(star * 64 + covered spaces mask) * 84 + hand key]: an outer star's placements,
# space by space, filled in as met (an outer star takes one colour).
_STAR_PLACES: dict = {}


def _star_places(key):
    rest, hand_key = divmod(key, 84)
    star, covered = divmod(rest, 64)
    ids = ()
    for k in range(6):
        if not covered >> k & 1:
            ids += _space_places(star * 6 + k, STAR_COLOUR[star], hand_key)
    _STAR_PLACES[key] = ids
    return ids


def legal_actions(self):
    """Legal action ids, ascending; at a chance node the possible outcomes; empty once over.
    """
    with self._lock:
        return self._legal_actions()


def _legal_actions(self):
    phase = self._phase
    if phase == PLAY:
        out = self._placements()
        out += self._passes()
        return out
    if phase == ACQUIRE:
        # Per source, the colours it holds but the wild one, or the wild one alone.
        acquires = _ACQUIRES
        base = (self._round - 1) * 64
        out = []
        for t0, t1, t2, t3, t4, t5 in self._factories:
            m = ((1 if t0 else 0) | (2 if t1 else 0) | (4 if t2 else 0) | (8 if t3 else 0)
                 | (16 if t4 else 0) | (32 if t5 else 0))
            if m:
                out += acquires[base + m]
            base += 384
        t0, t1, t2, t3, t4, t5 = self._centre
        m = ((1 if t0 else 0) | (2 if t1 else 0) | (4 if t2 else 0) | (8 if t3 else 0)
             | (16 if t4 else 0) | (32 if t5 else 0))
        if m:
            out += acquires[CENTRE * 384 + (self._round - 1) * 64 + m]
        return out
    if phase == BONUS:
        return [SP_BONUS_ACTION_BASE + c for c in range(6) if self._supply[c]]
    if phase == FILL or phase == FIRST_PLAYER:
        return _common.chance_actions(phase == FIRST_PLAYER, self._bag, self._players, SP_DRAW_ACTION_BASE,
                                        SP_FIRST_PLAYER_ACTION_BASE)
    return []


def _placements(self):
    p = self._turn
    hand, board = self._hand[p], self._board[p]
    wild = self._round - 1
    wilds2 = (hand[wild] if hand[wild] < 5 else 5) * 2
    covered = self._filled[p]
    stars, star_places = _STAR_PLACES, _star_places
    out = []
    for star in range(6):
        c = STAR_COLOUR[star]
        have = hand[c]
        if have:
            key = (((star * 64 + (covered >> star * 6 & 63)) * 7 + (have if have < 6 else 6))
                   * 12 + wilds2 + (c == wild))
            ids = stars.get(key)
            out += ids if ids is not None else star_places(key)
    # The centre star: every colour it does not hold yet, space by space.
    used = 0
    for k in range(36, 42):
        if board[k] >= 0:
            used |= 1 << board[k]
    keys = [c * 84 + (hand[c] if hand[c] < 6 else 6) * 12 + wilds2 + (c == wild)
            for c in range(6) if hand[c] and not used >> c & 1]
    if keys:
        centre = _CENTRE_PLACES
        for k in range(6):
            if board[36 + k] < 0:
                for key in keys:
                    out += centre[k * 504 + key]
    return out


def _passes(self):
    h0, h1, h2, h3, h4, h5 = self._hand[self._turn]
    f0, f1, f2, f3, f4, f5 = _PASS_FIT
    fit = (f0[h0 if h0 < 4 else 4] & f1[h1 if h1 < 4 else 4] & f2[h2 if h2 < 4 else 4]
           & f3[h3 if h3 < 4 else 4] & f4[h4 if h4 < 4 else 4] & f5[h5 if h5 < 4 else 4])
    out = []
    for ids, b in zip(_PASS_BYTES, fit.to_bytes(_PASS_MASK_BYTES, "little")):
        if b:
            out += ids[b]
    return out


def legal_moves(self):
    """Legal moves as notation strings, in the order of :meth:`legal_actions`."""
    return [_ACTION_TEXT[a] for a in self.legal_actions()]


def legal_action_mask(self):
    """A numpy bool array of ``SP_NUM_ACTIONS``: True at the legal action ids."""
    import numpy as np
    mask = np.zeros(SP_NUM_ACTIONS, dtype=bool)
    mask[self.legal_actions()] = True
    return mask


def chance_outcomes(self):
    """At a chance node, ``(action, probability)`` pairs in action order."""
    if self._phase == FILL or self._phase == FIRST_PLAYER:
        return _common.chance_outcome_list(self._phase == FIRST_PLAYER, self._bag, self._players,
                                             SP_DRAW_ACTION_BASE, SP_FIRST_PLAYER_ACTION_BASE)
    raise IllegalMoveError("not a chance node (phase %s)" % PHASE_NAMES[self._phase])
