"""Classic and grey-wall Azul, pure-Python engine: undo: taking back the last apply() exactly.

C++ twin: native/include/azul/common/undo.h (UndoStep; kept by the core's game, azul/common/game.h).
"""


from .. import common as _common


def _undo_entry(self, action):
    """What undo() restores before ``action``: the position and the history's end."""
    copies = list.copy
    return (action, _common.history_mark(self._h_rounds), self._h_first, self._rng,
            self._round, self._phase, self._turn, self._start, self._marker,
            self._marker_floor, self._moves, list(map(copies, self._factories)),
            self._centre[:], self._bag[:], self._lid[:], self._prefill_bag[:],
            self._prefill_lid[:], list(map(copies, self._line_colour)),
            list(map(copies, self._line_count)), list(map(copies, self._wall)),
            list(map(copies, self._floor)), self._score[:],
            list(map(copies, self._row_colours)))


def _restore(self, entry):
    copies = list.copy
    (_, mark, self._h_first, self._rng, self._round, self._phase, self._turn, self._start,
     self._marker, self._marker_floor, self._moves, factories, centre, bag, lid, prefill_bag,
     prefill_lid, line_colour, line_count, wall, floor, score, row_colours) = entry
    self._factories = list(map(copies, factories))
    self._centre = centre[:]
    self._bag = bag[:]
    self._lid = lid[:]
    self._prefill_bag = prefill_bag[:]
    self._prefill_lid = prefill_lid[:]
    self._line_colour = list(map(copies, line_colour))
    self._line_count = list(map(copies, line_count))
    self._wall = list(map(copies, wall))
    self._floor = list(map(copies, floor))
    self._score = score[:]
    self._row_colours = list(map(copies, row_colours))
    _common.restore_history(self._h_rounds, mark)


def undo(self):
    """Take back the last :meth:`apply` (a move or a chance outcome): the position, the
    generator and the history become exactly what they were before it.  Raises
    :class:`IllegalMoveError` when there is nothing to take back: no move applied since the
    state was made, read from text (or unpickled), or since the last :meth:`deal` or
    :meth:`reseed`, which start a new undo history.  :meth:`clone` keeps the undo history."""
    _common.undo(self)
