"""Per-variant game facts: the number of actions, the observation layout, score bounds, colours, rounds.

C++ twin: native/src/common/game_info.cpp (native/include/azul/common/game_info.h).  ``game_info(variant, players)`` returns a
frozen :class:`GameInfo`; adapters (PettingZoo, OpenSpiel), bots and records read these facts here instead of
keeping constants of their own.  docs/observation.md describes every observation part named here.
"""

import types

from .classic.types import check_players_and_variant

__all__ = ["GameInfo", "game_info"]

# Observation parts in layout order: (name, length).  A seat block, repeated for every seat from the observer
# on, then the shared values.  The C++ twin's tables are the same, name for name.
_CLASSIC_SEAT = (("wall", 125), ("pattern_lines", 25), ("floor", 1), ("marker_on_floor", 1),
                 ("holds_marker", 1), ("score", 1))
_CLASSIC_SHARED = (("factories", 45), ("centre", 5), ("marker_in_centre", 1), ("bag", 5), ("lid", 5),
                   ("round", 1), ("phase", 5), ("pending_row", 5), ("starting_seat", 4))
_PAVILION_SEAT = (("spaces", 42), ("centre_colours", 36), ("hand", 6), ("score", 1), ("passed", 1),
                  ("holds_token", 1))
_PAVILION_SHARED = (("factories", 54), ("centre", 6), ("token_in_centre", 1), ("supply", 6), ("bag", 6),
                    ("tower", 6), ("round", 1), ("wild_colour", 6), ("phase", 6), ("bonus_owed", 1),
                    ("starting_seat", 4))

# A classic score is at most 25 wall tiles x 10 points (a run of 5 across plus 5 down) + the end bonuses
# 5 x 2 + 5 x 7 + 5 x 10; floors only take points away.  Summer Pavilion: 5 at the start + 42 spaces x 6 points
# (a run is at most 6) + every star bonus (112) + every number bonus (40).
_CLASSIC_BONUSES = (("row", 2), ("column", 7), ("colour", 10))
_PAVILION_BONUSES = (("star-O", 17), ("star-R", 14), ("star-B", 15), ("star-Y", 16), ("star-G", 18),
                     ("star-P", 20), ("star-C", 12), ("number-1", 4), ("number-2", 8), ("number-3", 12),
                     ("number-4", 16))

# variant: (num_actions, colours, start_score, min_score, max_score, max_rounds, rounds, tiles_per_colour,
#           wild_colours, seat parts, shared parts, end bonuses)
_VARIANTS = {
    "classic": (314, "BYRKW", 0, 0, 25 * 10 + 95, 100, None, 20, None, _CLASSIC_SEAT, _CLASSIC_SHARED,
                _CLASSIC_BONUSES),
    "summer-pavilion": (1798, "PGOYBR", 5, 1, 5 + 42 * 6 + 112 + 40, 6, 6, 22, "PGOYBR", _PAVILION_SEAT,
                        _PAVILION_SHARED, _PAVILION_BONUSES),
}
_VARIANTS["grey"] = _VARIANTS["classic"]

_HINT = "use azul_engine.game_info(variant, players)"

# What each floor space costs (rules section 1: 1, 2, 4, 6, 8, 11, 14 in total); the classic wall's pattern
# (colour c of row r at column (c + r) mod 5); Summer Pavilion's stars (outer ones clockwise from the upper left,
# then the centre).
_FLOOR_PENALTIES = (1, 1, 2, 2, 2, 3, 3)
_CLASSIC_WALL = tuple("".join("BYRKW"[(c - r) % 5] for c in range(5)) for r in range(5))
_STARS = "ORBYGPC"


def _offsets(players, seat, shared):
    out = {}
    start = 0
    for k in range(players):
        for name, length in seat:
            out["seat%d.%s" % (k, name)] = (start, length)
            start += length
    for name, length in shared:
        out[name] = (start, length)
        start += length
    return out, start


def _field(index):
    """The read-only property of ``GameInfo._values[index]``."""
    return property(lambda self: self._values[index], doc="See the class docstring.")


class GameInfo:
    """The facts of one variant and player count (``game_info``); read-only, compared by variant and players.

    - ``variant``, ``players``: what was asked for.
    - ``num_actions``: the length of ``legal_action_mask()`` (every action id, chance outcomes included).
    - ``observation_shape``: ``observation_tensor()``'s shape, ``(size,)``; ``observation_offsets``: a read-only
      mapping, part name -> ``(start, length)``, in layout order, covering the whole tensor.  ``seatK.NAME`` is a
      part of the block of the K-th seat after the observer (``seat0``: the observer); other names are shared
      values (docs/observation.md).  ``seat_features``: the length of one seat block.
    - ``colours``: the colour letters in the engine's colour order; ``tiles_per_colour``; ``factories``.
    - ``start_score``; ``min_score``: no loss takes a score below it (0, or Summer Pavilion's 1); ``max_score``: a
      bound that no score can exceed.
    - ``max_rounds``: the round after which a game ends at the latest (classic and grey: the engine's round cap,
      ``MAX_ROUNDS``); ``rounds``: the fixed number of rounds (Summer Pavilion's 6), None where the game ends on a
      completed wall row.
    - ``wild_colours``: Summer Pavilion's wild colour of round i at ``wild_colours[i - 1]``; None elsewhere.
    - ``end_bonuses``: a read-only mapping, bonus name -> points (``row``, ``column``, ``colour``; or
      ``star-X`` for a complete star X and ``number-N`` for all seven spaces numbered N).
    - ``floor_penalties``: classic and grey: the points each of the floor's 7 spaces costs, left to right
      (``(1, 1, 2, 2, 2, 3, 3)``); None in Summer Pavilion, which has no floor line.
    - ``wall_pattern``: classic: the colour letters of each wall row, top down (``("BYRKW", "WBYRK", ...)``); None
      in grey (a free wall) and Summer Pavilion.
    - ``stars``: Summer Pavilion: the stars' letters in the engine's order (``"ORBYGPC"``: the six outer stars by
      colour, then the centre ``C``); None elsewhere.
    """

    __slots__ = ("_values",)

    def __new__(cls, *args, **kwargs):
        raise TypeError(_HINT)

    def __init__(self, *args, **kwargs):
        raise TypeError(_HINT)

    @classmethod
    def _make(cls, variant, players):
        (num_actions, colours, start_score, min_score, max_score, max_rounds, rounds, tiles_per_colour,
         wild_colours, seat, shared, bonuses) = _VARIANTS[variant]
        offsets, size = _offsets(players, seat, shared)
        self = object.__new__(cls)
        object.__setattr__(self, "_values", (
            variant, players, num_actions, (size,), types.MappingProxyType(offsets), sum(n for _, n in seat),
            colours, start_score, min_score, max_score, max_rounds, rounds, 2 * players + 1, tiles_per_colour,
            wild_colours, types.MappingProxyType(dict(bonuses)),
            None if variant == "summer-pavilion" else _FLOOR_PENALTIES,
            _CLASSIC_WALL if variant == "classic" else None,
            _STARS if variant == "summer-pavilion" else None))
        return self

    def __setattr__(self, name, value):
        raise AttributeError("GameInfo is read-only")

    def __delattr__(self, name):
        raise AttributeError("GameInfo is read-only")

    def __eq__(self, other):
        if not isinstance(other, GameInfo):
            return NotImplemented
        return self._values[:2] == other._values[:2]

    def __hash__(self):
        return hash(self._values[:2])

    def __repr__(self):
        return "GameInfo(variant=%r, players=%d)" % self._values[:2]

    def __reduce__(self):
        return (game_info, self._values[:2])

    # The facts, read-only, in the order of _values (_make).
    variant = _field(0)
    players = _field(1)
    num_actions = _field(2)
    observation_shape = _field(3)
    observation_offsets = _field(4)
    seat_features = _field(5)
    colours = _field(6)
    start_score = _field(7)
    min_score = _field(8)
    max_score = _field(9)
    max_rounds = _field(10)
    rounds = _field(11)
    factories = _field(12)
    tiles_per_colour = _field(13)
    wild_colours = _field(14)
    end_bonuses = _field(15)
    floor_penalties = _field(16)
    wall_pattern = _field(17)
    stars = _field(18)


_CACHE: dict = {}


def game_info(variant="classic", players=2):
    """The :class:`GameInfo` of ``variant`` ("classic", "grey" or "summer-pavilion") for ``players`` (2-4).

    Raises TypeError / ValueError as ``new_game`` does for a bad player count or variant.
    """
    key = (variant, players) if type(players) is int and type(variant) is str else None
    info = _CACHE.get(key) if key is not None else None
    if info is None:
        check_players_and_variant(players, variant)  # as new_game does
        info = GameInfo._make(variant, players)
        _CACHE[(variant, players)] = info
    return info
