"""Azul: Summer Pavilion, pure-Python engine: undo: taking back the last apply() exactly.

C++ twin: native/include/azul/common/undo.h (UndoStep; kept by the core's game, azul/common/game.h).
"""


from .. import common as _common


def _undo_entry(self, action):
    """What undo() restores before ``action``: the position and the history's end."""
    copies = list.copy
    return (action, _common.history_mark(self._h_rounds), self._h_first, self._h_supply,
            self._rng, self._round, self._phase, self._fill, self._turn, self._start, self._marker,
            self._moves, self._next, self._owed, list(map(copies, self._factories)),
            self._centre[:], self._supply[:], self._refill[:], self._bag[:], self._tower[:],
            self._prefill_bag[:], self._prefill_tower[:], self._score[:],
            list(map(copies, self._hand)), list(map(copies, self._board)), self._filled[:],
            self._passed[:])


def _restore(self, entry):
    copies = list.copy
    (_, mark, self._h_first, self._h_supply, self._rng, self._round, self._phase, self._fill,
     self._turn, self._start, self._marker, self._moves, self._next, self._owed, factories,
     centre, supply, refill, bag, tower, prefill_bag, prefill_tower, score, hand, board,
     filled, passed) = entry
    self._factories = list(map(copies, factories))
    self._centre = centre[:]
    self._supply = supply[:]
    self._refill = refill[:]
    self._bag = bag[:]
    self._tower = tower[:]
    self._prefill_bag = prefill_bag[:]
    self._prefill_tower = prefill_tower[:]
    self._score = score[:]
    self._hand = list(map(copies, hand))
    self._board = list(map(copies, board))
    self._filled = filled[:]
    self._passed = passed[:]
    _common.restore_history(self._h_rounds, mark)


def undo(self):
    """Take back the last :meth:`apply` (a move or a chance outcome): the position, the
    generator and the history become exactly what they were before it.  Raises
    :class:`IllegalMoveError` when there is nothing to take back: no move applied since the
    state was made, read from text (or unpickled), or since the last :meth:`deal`,
    :meth:`deal_supply` (also applied as a '~' refill) or :meth:`reseed`, which start a new
    undo history.  :meth:`clone` keeps the undo history."""
    _common.undo(self)
