"""Classic and grey-wall Azul, pure-Python engine: the game's record (docs/records.md) and score sheet.

C++ twin: native/src/classic/record.cpp.
"""


import json


from .. import common as _common
from .types import FIRST_PLAYER_ACTION_BASE, OVER, VARIANTS


def record(self):
    """The game so far as an "azul-record" version 1 dict (records.md).

    A round still in play has ``scores`` None; ``final_scores`` and ``winners`` are None
    until the game is over.  ``seed`` is None when the draws did not all come from the
    game's seed (explicit chance mode, :meth:`deal`, :meth:`reseed`, a state from text).
    Raises ValueError for a state read from text without its history.
    """
    if not self._h_complete:
        raise ValueError("no record: this state was read from text without its history "
                         "(write it with to_text(history=True))")
    over = self._phase == OVER
    return {
        "format": "azul-record", "version": 1, "variant": VARIANTS[self._variant],
        "players": self._players, "seed": self._h_seed, "first_player": self._h_first,
        "rounds": _common.record_rounds(self._h_rounds),
        "final_scores": self.scores if over else None,
        "winners": self.winners if over else None,
    }


def record_json(self):
    """:meth:`record` as compact JSON text, byte for byte the same in both engines."""
    return json.dumps(self.record(), separators=(", ", ": "))


def score_sheet(self):
    """Every scoring event of the game so far, round by round: a list per round of dicts.

    ``{"event": "tile", "player", "row", "column", "colour", "across", "down", "points"}``
    for each tile placed at wall tiling, in tiling order (``across`` and ``down`` are the
    runs through it, the tile counted in each); ``{"event": "line-to-floor", "player",
    "row", "colour", "tiles", "to_lid"}`` for a grey-wall line with no allowed cell;
    ``{"event": "floor", "player", "items", "marker", "penalty", "before", "after"}`` for
    each floor penalty (``after`` is clamped at 0); ``{"event": "bonus", "player", "rows",
    "columns", "colours", "points", "before", "after"}`` at the end.  Rows and columns are
    0-based.  It replays the game's history, so it raises ValueError where :meth:`record`
    does.
    """
    if not self._h_complete:
        self.record()  # raises the same ValueError
    g = type(self)._blank(self._players, self._variant, True, 0)
    g._sheet = []
    if self._h_first >= 0:
        g.apply(FIRST_PLAYER_ACTION_BASE + self._h_first)
        for factories, moves, _ in self._h_rounds:
            g.deal(factories)
            for move in moves:
                g.apply(move)
    return g._sheet
