"""Azul: Summer Pavilion, pure-Python engine: the game's record (docs/records.md) and score sheet.

C++ twin: native/src/pavilion/record.cpp.
"""


import json


from .. import common as _common
from .tables import OVER, SP_FIRST_PLAYER_ACTION_BASE


def record(self):
    """The game so far as an "azul-record" version 1 dict, with the setup ``supply``
    (records.md).  Raises ValueError for a state read from text without its history."""
    if not self._h_complete:
        raise ValueError("no record: this state was read from text without its history "
                         "(write it with to_text(history=True))")
    over = self._phase == OVER
    return {
        "format": "azul-record", "version": 1, "variant": "summer-pavilion",
        "players": self._players, "seed": self._h_seed, "first_player": self._h_first,
        "supply": self._h_supply,
        "rounds": _common.record_rounds(self._h_rounds),
        "final_scores": self.scores if over else None,
        "winners": self.winners if over else None,
    }


def record_json(self):
    """:meth:`record` as JSON text, byte for byte the same in both engines."""
    return json.dumps(self.record(), separators=(", ", ": "))


def score_sheet(self):
    """Every scoring event of the game so far, a list per round of dicts, in play order:

    ``{"event": "start-token", "player", "tiles", "before", "after"}`` (first taker from
    the centre); ``{"event": "place", "player", "star", "space", "colour", "wilds", "run",
    "points", "before", "after", "ornaments", "bonus_tiles"}``; ``{"event": "bonus-tile",
    "player", "colour"}``; ``{"event": "pass", "player", "kept", "discarded", "before",
    "after"}``; and after round 6 ``{"event": "end", "player", "stars", "star_points",
    "numbers", "number_points", "kept", "before", "after"}``.  Every loss stops at 1.
    Raises ValueError where :meth:`record` does."""
    if not self._h_complete:
        self.record()
    g = type(self)._blank(self._players, True, 0)
    g._sheet = []
    if self._h_first >= 0:
        g.apply(SP_FIRST_PLAYER_ACTION_BASE + self._h_first)
        if self._h_supply is not None:
            g.deal_supply(self._h_supply)
            for factories, moves, _ in self._h_rounds:
                g.deal(factories)
                for move in moves:
                    g.apply(move)
    return g._sheet
