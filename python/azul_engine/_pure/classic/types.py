"""Classic and grey-wall Azul, pure-Python engine: constants (colours, action ids, phases), and the check of a
player count and variant that new_game, observation_shape and game_info share.

C++ twin: native/include/azul/common/types.h (and classic/observation.h's sizes).
"""


COLOURS = "BYRKW"  # frozen order: 0 blue, 1 yellow, 2 red, 3 black, 4 white


COLOUR_NAMES = ("blue", "yellow", "red", "black", "white")


VARIANTS = ("classic", "grey", "summer-pavilion")


WALL_VARIANTS = ("classic", "grey")  # the variants a GameState plays; PavilionState the third


TEXT_VERSION = 1


TILES_PER_COLOUR = 20


FLOOR_SPACES = 7


# A game still going at the end of this round ends there, with end-game scoring, as a stuck game does
# (docs/decisions.md): some positions cycle for ever though a tile could still reach a wall.
MAX_ROUNDS = 100


FLOOR_PENALTY = (0, 1, 2, 4, 6, 8, 11, 14)  # cumulative, by number of floor items (0-7)


CENTRE = 9  # source index of the centre; factories are 0-8


FLOOR = 5  # destination index of the floor line; pattern lines are 0-4


# Action ids: drafts (source * 5 + colour) * 6 + destination; then the grey-wall column choices,
# then the chance outcomes of explicit-chance mode (a tile of a colour drawn, the first player).
NUM_DRAFT_ACTIONS = 300


TILE_ACTION_BASE = 300  # 300-304: grey wall, place the pending line's tile in column 0-4


DRAW_ACTION_BASE = 305  # 305-309: chance, a tile of colour 0-4 is drawn from the bag


FIRST_PLAYER_ACTION_BASE = 310  # 310-313: chance, seat 0-3 starts round 1


PORTABLE = True  # as the C++ engine built with AZUL_PORTABLE=1: no machine-specific code (plain Python)
VECTORISED = False  # as the C++ engine where it has no AVX2: every draw one at a time


NUM_ACTIONS = 314


CHANCE = -1  # current_player at a chance node and once the game is over


SEAT_FEATURES = 154  # observation values per seat (observation_tensor)


SHARED_FEATURES = 76  # observation values shared by all seats


# Phases (the order is part of the state text's meaning, not of its spelling).
FIRST_PLAYER, FILL, OFFER, TILING, OVER = range(5)


PHASE_NAMES = ("first-player", "fill", "offer", "tiling", "over")


def _wall_column(colour, row):
    """Column of ``colour`` in ``row`` on the coloured (classic) wall."""
    return (colour + row) % 5


def _num_factories(players):
    return 2 * players + 1


def check_players_and_variant(players, variant):
    """new_game's first checks, which observation_shape and game_info make too: ``players`` an int 2-4 (TypeError,
    ValueError), ``variant`` one of VARIANTS (ValueError)."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError("players must be an int, not %s" % type(players).__name__)
    if not 2 <= players <= 4:
        raise ValueError("players must be 2, 3 or 4, got %d" % players)
    if variant not in VARIANTS:
        raise ValueError("unknown variant %r (variants: %s)" % (variant, ", ".join(VARIANTS)))
