"""Azul: Summer Pavilion, pure-Python engine: constants and tables (colours, stars, ornaments, action ids, kept-tile
sets, phases).

C++ twin: native/src/pavilion/tables.cpp (and the constants of native/include/azul/pavilion/state.h).
"""


import itertools


SP_COLOURS = "PGOYBR"


SP_COLOUR_NAMES = ("purple", "green", "orange", "yellow", "blue", "red")


SP_STARS = "ORBYGPC"


SP_STAR_NAMES = ("orange", "red", "blue", "yellow", "green", "purple", "centre")


STAR_COLOUR = (2, 5, 4, 3, 1, 0, -1)  # colour of each outer star; -1: the centre takes any


CENTRE_STAR = 6


TILES_PER_COLOUR = 22


SUPPLY_SIZE = 10


START_SCORE = 5


MIN_SCORE = 1


ROUNDS = 6


CENTRE = 9  # source index of the centre; factories are 0-8


STAR_BONUS = (17, 14, 15, 16, 18, 20, 12)  # by star O R B Y G P C


NUMBER_BONUS = (4, 8, 12, 16)  # all seven spaces numbered 1, 2, 3, 4 covered


SP_PLACE_ACTION_BASE = 60


SP_BONUS_ACTION_BASE = 1572


SP_PASS_ACTION_BASE = 1578


SP_DRAW_ACTION_BASE = 1788


SP_FIRST_PLAYER_ACTION_BASE = 1794


SP_NUM_ACTIONS = 1798


CHANCE = -1


SEAT_FEATURES = 87  # observation values per seat (observation_tensor)


SHARED_FEATURES = 97  # observation values shared by all seats


# The kept-tile multisets of a pass, in action order: by size, then colour order.
_KEEPS = tuple(tuple(combo.count(c) for c in range(6))
               for size in range(5)
               for combo in itertools.combinations_with_replacement(range(6), size))


SP_KEEP_SETS = tuple("".join(SP_COLOURS[c] * k[c] for c in range(6)) for k in _KEEPS)


_KEEP_INDEX = {k: i for i, k in enumerate(_KEEPS)}


# The passes open to a hand, as one bit per kept-tile multiset: _PASS_FIT[c][n] has bit i set
# when SP_KEEP_SETS[i] keeps at most n (0-4) tiles of colour c, so a hand's passes are the AND
# over its colours; _PASS_BYTES[j][b] lists the pass ids of the bits b in byte j of the mask.
_PASS_FIT = tuple(tuple(sum(1 << i for i, k in enumerate(_KEEPS) if k[c] <= n) for n in range(5))
                  for c in range(6))


_PASS_MASK_BYTES = (len(_KEEPS) + 7) // 8


_PASS_BYTES = tuple(tuple(tuple(SP_PASS_ACTION_BASE + j * 8 + b for b in range(8) if byte >> b & 1)
                          for byte in range(256)) for j in range(_PASS_MASK_BYTES))


# Ornaments: 6 windows (3 tiles), 6 statues (2), 6 pillars (1), with their surrounding spaces.
def _space(star, number):
    return star * 6 + number - 1


def _ornaments():
    out = []
    for s in range(6):
        out.append(("window", s, (_space(s, 5), _space(s, 6)), 3))
    for s in range(6):
        b = (s + 1) % 6
        out.append(("statue", s, (_space(s, 1), _space(s, 2), _space(b, 3), _space(b, 4)), 2))
    for s in range(6):
        out.append(("pillar", s, (_space(s, 2), _space(s, 3), _space(CENTRE_STAR, (s + 5) % 6 + 1),
                                  _space(CENTRE_STAR, s + 1)), 1))
    return tuple(out)


ORNAMENTS = _ornaments()


_ORNAMENT_MASK = tuple(sum(1 << x for x in o[2]) for o in ORNAMENTS)


_ORNAMENTS_OF = tuple(tuple(i for i, o in enumerate(ORNAMENTS) if sp in o[2]) for sp in range(42))


_STAR_MASK = tuple(0x3F << (6 * s) for s in range(7))


_NUMBER_MASK = tuple(sum(1 << (s * 6 + n) for s in range(7)) for n in range(6))


def ornament_name(i):
    """'window O', 'statue O-R', 'pillar O' ..."""
    kind, s, _, _ = ORNAMENTS[i]
    if kind == "statue":
        return "statue %s-%s" % (SP_STARS[s], SP_STARS[(s + 1) % 6])
    return "%s %s" % (kind, SP_STARS[s])


# Phases.
FIRST_PLAYER, FILL, ACQUIRE, PLAY, BONUS, OVER = range(6)


PHASE_NAMES = ("first-player", "fill", "acquire", "play", "bonus", "over")


# What a fill phase fills: the setup supply, the round's factories, the supply after a turn.
NO_FILL, FILL_SETUP, FILL_FACTORIES, FILL_REFILL = range(4)


FILL_NAMES = ("-", "setup", "factories", "refill")


# _ACQUIRES[(source * 6 + wild) * 64 + m]: the acquire ids of a source holding the colours in
# mask m in a round whose wild colour is ``wild``: each colour but the wild one, or the wild one
# when it is all the source holds.
_ACQUIRES = tuple(
    tuple(_s * 6 + _c for _c in range(6) if _m >> _c & 1 and _c != _w)
    or ((_s * 6 + _w,) if _m >> _w & 1 else ())
    for _s in range(10) for _w in range(6) for _m in range(64))


def _num_factories(players):
    return 2 * players + 1
