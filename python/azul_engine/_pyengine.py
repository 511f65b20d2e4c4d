"""The pure-Python Azul engine.

This module is the readable twin of the C++ core in ``native/``: the sections below follow
``native/src/*.cpp`` one for one (randomness, notation, move generation, moves, wall tiling and
scoring, rounds, state text, history and records), so the two can be read side by side.  It must
behave exactly like ``azul_engine._cppengine``: the same seed and moves give the same game, the
same legal moves in the same order, the same state text and the same errors.  The shared test
suite checks that in lockstep.

Everything here is plain Python on purpose: no compiler is needed, and a debugger can step
through every rule.
"""

import itertools
import json
import os

from ._errors import IllegalMoveError, StateFormatError
from . import _pycommon
from ._pycommon import MASK64 as _MASK64
from ._pycommon import new_lock as _new_lock
from ._pycommon import check_seed as _check_seed
from ._pycommon import splitmix_next as _splitmix_next

__all__ = [
    "GameState", "new_game", "IllegalMoveError", "StateFormatError",
    "COLOURS", "VARIANTS", "PORTABLE", "MAX_ROUNDS", "NUM_ACTIONS", "NUM_DRAFT_ACTIONS", "TILE_ACTION_BASE",
    "DRAW_ACTION_BASE", "FIRST_PLAYER_ACTION_BASE", "CHANCE", "TEXT_VERSION", "end_bonus",
    "random_playouts", "playouts_from", "VectorGame", "observation_shape",
    "from_text", "PavilionState", "SP_COLOURS", "SP_STARS", "SP_KEEP_SETS", "SP_NUM_ACTIONS",
    "SP_PLACE_ACTION_BASE", "SP_BONUS_ACTION_BASE", "SP_PASS_ACTION_BASE", "SP_DRAW_ACTION_BASE",
    "SP_FIRST_PLAYER_ACTION_BASE",
]

# ---------------------------------------------------------------------------------------------
# Constants (native/include/azul/types.h)
# ---------------------------------------------------------------------------------------------

COLOURS = "BYRKW"  # frozen order: 0 blue, 1 yellow, 2 red, 3 black, 4 white
COLOUR_NAMES = ("blue", "yellow", "red", "black", "white")
VARIANTS = ("classic", "grey", "summer-pavilion")
WALL_VARIANTS = ("classic", "grey")  # the variants a GameState plays; PavilionState the third
TEXT_VERSION = 1
TILES_PER_COLOUR = 20
FLOOR_SPACES = 7
# A game still going at the end of this round ends there, with end-game scoring, as a stuck game does (README, rules
# decisions): some positions cycle for ever though a tile could still reach a wall.
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


# ---------------------------------------------------------------------------------------------
# Randomness (native/include/azul/rng.h): SplitMix64, rules section 5
# ---------------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------------
# Notation (native/src/notation.cpp): records.md, classic and grey
# ---------------------------------------------------------------------------------------------

def _tiles_to_str(counts):
    """Tile counts as colour letters in colour order: [1, 0, 2, 0, 0] -> 'BRR'."""
    text = _TILE_TEXT.get(tuple(counts))
    if text is None:
        b, y, r, k, w = counts
        text = "B" * b + "Y" * y + "R" * r + "K" * k + "W" * w
    return text


# The text of every tile multiset of at most 4 tiles (a factory's, a floor's), precomputed.
_TILE_TEXT = {k: "".join(COLOURS[c] * k[c] for c in range(5))
              for k in itertools.product(range(5), repeat=5) if sum(k) <= 4}


def _draft_to_str(action):
    source, rest = divmod(action, 30)
    colour, dest = divmod(rest, 6)
    return ("C" if source == CENTRE else str(source + 1)) + COLOURS[colour] + (
        "F" if dest == FLOOR else str(dest + 1))


# Hot-path tables for drafts: the notation and (source, colour, destination) of each id, and
# _DRAFTS[(source * 5 + colour) * 32 + m]: the draft ids of that source and colour, pattern
# lines in the 5-bit mask m then the floor, ascending (the order legal_actions lists them in).
_NO_TILES = (0, 0, 0, 0, 0)
_DRAFT_TEXT = tuple(_draft_to_str(_a) for _a in range(NUM_DRAFT_ACTIONS))
_TILING_TEXT = tuple("W%d%d" % (_r + 1, _c + 1) for _r in range(5) for _c in range(5))
_DRAFT_PARTS = tuple((_a // 30, _a % 30 // 6, _a % 6) for _a in range(NUM_DRAFT_ACTIONS))
_DRAFTS = tuple(tuple(_sc * 6 + _d for _d in range(5) if _m >> _d & 1) + (_sc * 6 + FLOOR,)
                for _sc in range(50) for _m in range(32))
# _OPEN_EMPTY[r][w]: an empty pattern line r whose wall row holds the colours in mask w is open
# to every other colour c: bit c * 5 + r of a packed mask of the lines open to each colour.
_OPEN_EMPTY = tuple(tuple(sum(1 << (_c * 5 + _r) for _c in range(5) if not _w >> _c & 1)
                          for _w in range(32)) for _r in range(5))


def _parse_move(text):
    """Parse notation into an action id without looking at a state.

    Grey-wall tiling moves ``W<row><col>`` return ``(action, row)`` so that the caller can check
    the row against the pending line; every other move returns ``(action, -1)``.
    """
    if not isinstance(text, str):
        raise TypeError("a move is an action id (int) or a notation string, not %s"
                        % type(text).__name__)
    bad = "%r is not a move: " % text
    if not text.isascii():
        raise IllegalMoveError(bad + "move notation is ASCII")
    if len(text) == 2 and text[0] == "~":
        ch = text[1]
        if ch in COLOURS:
            return DRAW_ACTION_BASE + COLOURS.index(ch), -1
        if ch in "0123":
            return FIRST_PLAYER_ACTION_BASE + int(ch), -1
        raise IllegalMoveError(bad + "a chance outcome is ~ and a colour letter (B Y R K W) "
                               "or ~ and a seat (0-3)")
    if len(text) == 3 and text[0] == "W":
        row, col = text[1], text[2]
        if row not in "12345" or col not in "12345":
            raise IllegalMoveError(bad + "a wall tiling move is W, a row 1-5 and a column 1-5")
        return TILE_ACTION_BASE + int(col) - 1, int(row) - 1
    if len(text) != 3:
        raise IllegalMoveError(bad + "a draft is 3 characters: source (1-9 or C), colour "
                               "(B Y R K W), destination (1-5 or F), as in 3R4")
    s, c, d = text
    if s == "C":
        source = CENTRE
    elif s in "123456789":
        source = int(s) - 1
    else:
        raise IllegalMoveError(bad + "unknown source %r (factories 1-9, C for the centre)" % s)
    if c not in COLOURS:
        raise IllegalMoveError(bad + "unknown colour %r (colours are B Y R K W)" % c)
    if d == "F":
        dest = FLOOR
    elif d in "12345":
        dest = int(d) - 1
    else:
        raise IllegalMoveError(bad + "unknown destination %r (pattern lines 1-5, F for the "
                               "floor)" % d)
    return (source * 5 + COLOURS.index(c)) * 6 + dest, -1


def _parse_tiles(text, what):
    """Parse colour letters in colour order ('' or '-' for none) into counts."""
    counts = [0] * 5
    if text in ("", "-"):
        return counts
    last = 0
    for ch in text:
        if ch not in COLOURS:
            raise StateFormatError("%s: unknown colour %r in %r (colours are B Y R K W)"
                                   % (what, ch, text))
        c = COLOURS.index(ch)
        if c < last:
            raise StateFormatError("%s: tiles %r are not in colour order (B Y R K W)"
                                   % (what, text))
        last = c
        counts[c] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# The game state (native/include/azul/state.h)
# ---------------------------------------------------------------------------------------------

class GameState:
    """One game of Azul: the position, its generator and the game's history.

    Make one with :func:`new_game` or :meth:`from_text`.  Equality (``==``), :meth:`to_text` and
    pickling cover the position and generator; the history behind :meth:`record` is carried by
    :meth:`clone`, copies, pickles and ``to_text(history=True)``.

    >>> g = new_game(players=2, seed=7)
    >>> g.factories
    ['BRRW', 'BYYR', 'BRWW', 'RWWW', 'YKKK']
    >>> g.current_player
    0
    >>> g.apply("5K3")
    >>> g.pattern_lines[0], g.center
    (['', '', 'KKK', '', ''], 'Y')
    """

    __slots__ = (
        "_players", "_variant", "_explicit", "_seed", "_rng", "_round", "_phase", "_turn",
        "_start", "_marker", "_marker_floor", "_moves", "_factories", "_centre", "_bag", "_lid",
        "_prefill_bag", "_prefill_lid", "_line_colour", "_line_count", "_wall", "_floor",
        "_score",
        "_row_colours",  # derived from _wall: bit c of [p][r] set when wall row r holds colour c
        # history (not part of the position)
        "_h_complete", "_h_seed", "_h_first", "_h_rounds",
        # score sheet events, per round; None except while score_sheet() replays the history
        "_sheet",
        # what undo() takes back: one entry per apply() (_undo_entry), newest last
        "_undo",
        # held by every call that is not atomic as it is (_pycommon.make_atomic)
        "_lock",
    )

    def __new__(cls, *args, **kwargs):
        # Only the engine makes states (object.__new__): no half-made object can exist.
        raise TypeError("use azul_engine.new_game(...) or GameState.from_text(text)")

    def __init__(self, *args, **kwargs):
        raise TypeError("use azul_engine.new_game(...) or GameState.from_text(text)")

    @classmethod
    def _blank(cls, players, variant, explicit, seed):
        self = object.__new__(cls)
        self._players = players
        self._variant = variant
        self._explicit = explicit
        self._seed = seed
        self._rng = seed
        self._round = 1
        self._phase = FIRST_PLAYER
        self._turn = CHANCE
        self._start = -1
        self._marker = -1
        self._marker_floor = False
        self._moves = 0
        self._factories = [[0] * 5 for _ in range(_num_factories(players))]
        self._centre = [0] * 5
        self._bag = [TILES_PER_COLOUR] * 5
        self._lid = [0] * 5
        self._prefill_bag = [TILES_PER_COLOUR] * 5
        self._prefill_lid = [0] * 5
        self._line_colour = [[-1] * 5 for _ in range(players)]
        self._line_count = [[0] * 5 for _ in range(players)]
        self._wall = [[-1] * 25 for _ in range(players)]
        self._floor = [[0] * 5 for _ in range(players)]
        self._score = [0] * players
        self._row_colours = [[0] * 5 for _ in range(players)]
        self._h_complete = True
        self._h_seed = None if explicit else seed
        self._h_first = -1
        self._h_rounds = []
        self._sheet = None
        self._undo = []
        self._lock = _new_lock()
        return self

    # -- randomness ---------------------------------------------------------------------------

    def _below(self, n):
        self._rng, z = _splitmix_next(self._rng)
        return ((z >> 32) * n) >> 32

    def reseed(self, seed):
        """Replace the generator's state with ``seed`` (for a searching bot's private clone).

        The game's ``seed`` property keeps naming the seed the game was made from; the record
        of a reseeded game has seed null, since its draws no longer come from that seed.
        """
        seed = _check_seed(seed)
        self._rng = seed
        self._h_seed = None
        self._undo = []

    # -- read-only queries --------------------------------------------------------------------

    players = property(lambda self: self._players, doc="Number of players (2-4).")
    variant = property(lambda self: VARIANTS[self._variant], doc="'classic' or 'grey'.")
    seed = property(lambda self: self._seed, doc="The seed the game was made from.")
    round = property(lambda self: self._round, doc="Round number, from 1.")
    chance_mode = property(lambda self: "explicit" if self._explicit else "sampled",
                           doc="'sampled' (the generator draws) or 'explicit' (chance nodes).")
    phase = property(lambda self: PHASE_NAMES[self._phase],
                     doc="'first-player', 'fill' (chance nodes), 'offer', 'tiling' or 'over'.")
    current_player = property(
        lambda self: self._turn,
        doc="Seat to move (during grey-wall tiling: the player choosing); -1 at a chance node "
            "and once the game is over.")
    starting_player = property(lambda self: self._start,
                               doc="Seat that started this round (-1 before it is drawn).")
    is_over = property(lambda self: self._phase == OVER)
    is_chance_node = property(lambda self: self._phase in (FIRST_PLAYER, FILL))
    scores = property(lambda self: list(self._score),
                      doc="Scores; once the game is over they include the end bonuses.")
    factories = property(lambda self: [_tiles_to_str(f) for f in self._factories])
    center = property(lambda self: _tiles_to_str(self._centre),
                      doc="Tiles in the centre, colour letters in colour order.")
    bag = property(lambda self: _tiles_to_str(self._bag))
    lid = property(lambda self: _tiles_to_str(self._lid))
    first_player_marker = property(
        lambda self: self._marker,
        doc="-1 while the marker is in the centre, else the seat that took it this round.")
    moves_this_round = property(lambda self: self._moves)

    @property
    def pattern_lines(self):
        """Per player, the five pattern lines as colour letters ('' when empty)."""
        return [[COLOURS[self._line_colour[p][r]] * self._line_count[p][r]
                 if self._line_count[p][r] else "" for r in range(5)]
                for p in range(self._players)]

    @property
    def walls(self):
        """Per player, five rows of five characters: a colour letter or '.' for empty."""
        return [["".join("." if w[r * 5 + c] < 0 else COLOURS[w[r * 5 + c]] for c in range(5))
                 for r in range(5)] for w in self._wall]

    @property
    def floors(self):
        """Per player, the floor line: 'M' for the first-player marker, then tiles."""
        return [("M" if self._marker == p and self._marker_floor else "")
                + _tiles_to_str(self._floor[p]) for p in range(self._players)]

    @property
    def pending_row(self):
        """Grey-wall tiling: the 0-based row whose wall cell is being chosen, else -1."""
        if self._phase != TILING:
            return -1
        return self._pending_row(self._turn)

    @property
    def winners(self):
        """Seats sharing the win, ascending; empty until the game is over.

        Highest score wins; a tie goes to more complete wall rows; still tied, the win is shared.
        """
        if self._phase != OVER:
            return []
        best = max((self._score[p], self._complete_rows(p)) for p in range(self._players))
        return [p for p in range(self._players)
                if (self._score[p], self._complete_rows(p)) == best]

    # -- copying and comparison ---------------------------------------------------------------

    def clone(self):
        """An independent copy: position, generator and history."""
        other = object.__new__(GameState)
        other._players = self._players
        other._variant = self._variant
        other._explicit = self._explicit
        other._seed = self._seed
        other._rng = self._rng
        other._round = self._round
        other._phase = self._phase
        other._turn = self._turn
        other._start = self._start
        other._marker = self._marker
        other._marker_floor = self._marker_floor
        other._moves = self._moves
        copies = list.copy
        other._factories = list(map(copies, self._factories))
        other._centre = self._centre[:]
        other._bag = self._bag[:]
        other._lid = self._lid[:]
        other._prefill_bag = self._prefill_bag[:]
        other._prefill_lid = self._prefill_lid[:]
        other._line_colour = list(map(copies, self._line_colour))
        other._line_count = list(map(copies, self._line_count))
        other._wall = list(map(copies, self._wall))
        other._row_colours = list(map(copies, self._row_colours))
        other._floor = list(map(copies, self._floor))
        other._score = self._score[:]
        other._h_complete = self._h_complete
        other._h_seed = self._h_seed
        other._h_first = self._h_first
        other._h_rounds = _pycommon.copy_rounds(self._h_rounds)
        other._sheet = None
        other._undo = self._undo[:]  # entries are never changed: _restore copies out of them
        other._lock = _new_lock()
        return other

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    # -- undo and position keys (native/include/azul/common/undo.h, classic/key.h) ------------

    def _undo_entry(self, action):
        """What undo() restores before ``action``: the position and the history's end."""
        copies = list.copy
        return (action, _pycommon.history_mark(self._h_rounds), self._h_first, self._rng,
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
        _pycommon.restore_history(self._h_rounds, mark)

    def undo(self):
        """Take back the last :meth:`apply` (a move or a chance outcome): the position, the
        generator and the history become exactly what they were before it.  Raises
        :class:`IllegalMoveError` when there is nothing to take back: no move applied since the
        state was made, read from text (or unpickled), or since the last :meth:`deal` or
        :meth:`reseed`, which start a new undo history.  :meth:`clone` keeps the undo history."""
        _pycommon.undo(self)

    def key(self):
        """A 64-bit key of the position (README "Position keys"), the same in both engines:
        what decides the rest of the game apart from chance, and the player to move; not the
        history, the moves-this-round count, the seed or the generator."""
        words = [self._variant, self._players, int(self._explicit), self._round, self._phase,
                 self._turn, self._start, self._marker, int(self._marker_floor)]
        for f in self._factories:
            words += f
        words += self._centre
        words += self._bag
        words += self._lid
        for p in range(self._players):
            words += self._line_colour[p]
            words += self._line_count[p]
            words += self._wall[p]
            words += self._floor[p]
            words.append(self._score[p])
        return _pycommon.position_key(words)

    def __hash__(self):
        return hash(self.key())

    def _key(self):
        return (self._players, self._variant, self._explicit, self._seed, self._rng,
                self._round, self._phase, self._turn, self._start, self._marker,
                self._marker_floor, self._moves, self._factories, self._centre, self._bag,
                self._lid, self._prefill_bag, self._prefill_lid, self._line_colour,
                self._line_count, self._wall, self._floor, self._score)

    def __eq__(self, other):
        if not isinstance(other, GameState):
            return NotImplemented
        return self._key() == other._key()

    def __reduce__(self):
        return (_from_text, (self.to_text(history=True),))

    def __repr__(self):
        return "GameState.from_text(%r)" % self.to_text()

    # -- move generation (native/src/movegen.cpp) ---------------------------------------------

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
        if phase == FILL:
            return [DRAW_ACTION_BASE + c for c in range(5) if self._bag[c]]
        if phase == FIRST_PLAYER:
            return [FIRST_PLAYER_ACTION_BASE + p for p in range(self._players)]
        return []

    def legal_moves(self):
        """Legal moves as notation strings, in the order of :meth:`legal_actions`."""
        return [self.action_to_string(a) for a in self.legal_actions()]

    def chance_outcomes(self):
        """At a chance node, ``(action, probability)`` pairs in action order.

        A tile draw's outcomes are in proportion to the bag; the first player is uniform.
        """
        if self._phase == FILL:
            total = sum(self._bag)
            return [(DRAW_ACTION_BASE + c, self._bag[c] / total)
                    for c in range(5) if self._bag[c]]
        if self._phase == FIRST_PLAYER:
            return [(FIRST_PLAYER_ACTION_BASE + p, 1.0 / self._players)
                    for p in range(self._players)]
        raise IllegalMoveError("not a chance node (phase %s)" % PHASE_NAMES[self._phase])

    def action_to_string(self, action):
        """Notation of an action id (a grey tiling id needs the pending row of this state)."""
        action = _check_action(action)
        if action < NUM_DRAFT_ACTIONS:
            return _draft_to_str(action)
        if action < DRAW_ACTION_BASE:
            if self._phase != TILING:
                raise IllegalMoveError("action %d is a wall tiling choice, and no wall tiling "
                                       "decision is pending" % action)
            return "W%d%d" % (self._pending_row(self._turn) + 1, action - TILE_ACTION_BASE + 1)
        if action < FIRST_PLAYER_ACTION_BASE:
            return "~" + COLOURS[action - DRAW_ACTION_BASE]
        return "~%d" % (action - FIRST_PLAYER_ACTION_BASE)

    def string_to_action(self, text):
        """Action id of a notation string (checks the row of a grey tiling move)."""
        action, row = _parse_move(text)
        if row >= 0:
            if self._phase == OVER:
                raise IllegalMoveError("game is over")
            if self._phase != TILING:
                raise IllegalMoveError("%r: no wall tiling decision is pending" % text)
            pending = self._pending_row(self._turn)
            if row != pending:
                raise IllegalMoveError("%r: the pending wall tiling decision is for pattern "
                                       "line %d, not %d" % (text, pending + 1, row + 1))
        return action

    # -- moves (native/src/apply.cpp) ---------------------------------------------------------

    def apply(self, move):
        """Play a move: an action id or a notation string.

        Raises :class:`IllegalMoveError` naming the rule broken, and then leaves the state
        unchanged.
        """
        with self._lock:
            if type(move) is int and 0 <= move < NUM_ACTIONS:
                action = move
            elif isinstance(move, str):
                action = self.string_to_action(move)
            else:
                action = _check_action(move)
            self._check_legal(action)
            undo = self._undo
            if len(undo) & 15:  # _pycommon.UNDO_EVERY - 1
                undo.append(action)
            else:
                undo.append(self._undo_entry(action))
            self._play(action)

    def _play(self, action):
        """Apply a legal action (unchecked), recording it in the history."""
        phase = self._phase
        # A state read from text may not know the rounds before it: history is written where known.
        if phase == OFFER:
            rounds = self._h_rounds
            if rounds:
                rounds[-1][1].append(_DRAFT_TEXT[action])
            self._moves += 1
            self._draft(action)
        elif phase == TILING:
            p = self._turn
            r = self._pending_row(p)
            if self._h_rounds:
                self._h_rounds[-1][1].append(_TILING_TEXT[r * 5 + action - TILE_ACTION_BASE])
            self._moves += 1
            self._place(p, r, action - TILE_ACTION_BASE)
            self._continue_tiling()
        elif phase == FILL:
            self._put_drawn(action - DRAW_ACTION_BASE)
            self._continue_fill()
        else:  # FIRST_PLAYER
            self._start = action - FIRST_PLAYER_ACTION_BASE
            self._h_first = self._start
            self._start_round()

    def _check_legal(self, action):
        """Raise IllegalMoveError, naming the rule, unless ``action`` is legal here."""
        phase = self._phase
        if phase == OFFER and action < NUM_DRAFT_ACTIONS:
            # The common case first: a draft that is legal (anything else goes on to the checks
            # below, which name the rule).
            source, colour, dest = _DRAFT_PARTS[action]
            p = self._turn
            if (self._centre[colour] if source == CENTRE
                    else source < len(self._factories) and self._factories[source][colour]):
                if dest == FLOOR:
                    return
                ln = self._line_count[p][dest]
                if ((not ln or self._line_colour[p][dest] == colour) and ln != dest + 1
                        and not self._row_colours[p][dest] >> colour & 1):
                    return
        if phase == OVER:
            raise IllegalMoveError("game is over")
        if phase in (FIRST_PLAYER, FILL):
            what = "the first player" if phase == FIRST_PLAYER else "a tile from the bag"
            if phase == FILL and DRAW_ACTION_BASE <= action < FIRST_PLAYER_ACTION_BASE:
                c = action - DRAW_ACTION_BASE
                if not self._bag[c]:
                    raise IllegalMoveError("the bag has no %s" % COLOUR_NAMES[c])
                return
            if phase == FIRST_PLAYER and action >= FIRST_PLAYER_ACTION_BASE:
                if action - FIRST_PLAYER_ACTION_BASE >= self._players:
                    raise IllegalMoveError("seat %d does not exist with %d players"
                                           % (action - FIRST_PLAYER_ACTION_BASE, self._players))
                return
            raise IllegalMoveError("this is a chance node (%s is drawn); apply one of its "
                                   "outcomes" % what)
        if action >= DRAW_ACTION_BASE:
            raise IllegalMoveError("action %d is a chance outcome, and this is not a chance "
                                   "node" % action)
        p = self._turn
        if phase == TILING:
            r = self._pending_row(p)
            if action < NUM_DRAFT_ACTIONS:
                raise IllegalMoveError(
                    "wall tiling: player %d must first choose a wall column for pattern line %d"
                    % (p, r + 1))
            col = action - TILE_ACTION_BASE
            colour = self._line_colour[p][r]
            wall = self._wall[p]
            if wall[r * 5 + col] >= 0:
                raise IllegalMoveError("wall row %d, column %d is already taken"
                                       % (r + 1, col + 1))
            for rr in range(5):
                if wall[rr * 5 + col] == colour:
                    raise IllegalMoveError("wall column %d already has %s"
                                           % (col + 1, COLOUR_NAMES[colour]))
            return
        # OFFER
        if action >= NUM_DRAFT_ACTIONS:
            raise IllegalMoveError("action %d is a wall tiling choice, and no wall tiling "
                                   "decision is pending" % action)
        source, rest = divmod(action, 30)
        colour, dest = divmod(rest, 6)
        name = COLOUR_NAMES[colour]
        if source == CENTRE:
            if not self._centre[colour]:
                raise IllegalMoveError("the centre has no %s" % name)
        else:
            nf = len(self._factories)
            if source >= nf:
                raise IllegalMoveError("factory %d does not exist with %d players (factories "
                                       "1-%d)" % (source + 1, self._players, nf))
            tiles = self._factories[source]
            if not any(tiles):
                raise IllegalMoveError("factory %d is empty" % (source + 1))
            if not tiles[colour]:
                raise IllegalMoveError("factory %d has no %s" % (source + 1, name))
        if dest == FLOOR:
            return
        lc, ln = self._line_colour[p][dest], self._line_count[p][dest]
        if ln and lc != colour:
            raise IllegalMoveError("pattern line %d already holds %s"
                                   % (dest + 1, COLOUR_NAMES[lc]))
        if ln == dest + 1:
            raise IllegalMoveError("pattern line %d is full" % (dest + 1))
        if self._row_has(p, dest, colour):
            raise IllegalMoveError("wall row %d already has %s" % (dest + 1, name))

    def _to_floor(self, p, colour, n):
        """``n`` tiles fall to player ``p``'s floor, left to right; past 7 items, to the lid.
        Returns how many went to the lid."""
        floor = self._floor[p]
        items = sum(floor) + (1 if self._marker == p and self._marker_floor else 0)
        room = FLOOR_SPACES - items
        if room < 0:
            room = 0
        kept = n if n < room else room
        floor[colour] += kept
        self._lid[colour] += n - kept
        return n - kept

    def _draft(self, action):
        source, colour, dest = _DRAFT_PARTS[action]
        p = self._turn
        centre = self._centre
        if source == CENTRE:
            n = centre[colour]
            centre[colour] = 0
            if self._marker < 0:
                # The first taker from the centre takes the marker, onto the leftmost free
                # floor space before the tiles land; on a full floor it is kept aside.
                self._marker = p
                self._marker_floor = sum(self._floor[p]) < FLOOR_SPACES
        else:
            tiles = self._factories[source]
            n = tiles[colour]
            tiles[colour] = 0
            t0, t1, t2, t3, t4 = tiles
            centre[0] += t0
            centre[1] += t1
            centre[2] += t2
            centre[3] += t3
            centre[4] += t4
            tiles[:] = _NO_TILES
        if dest == FLOOR:
            self._to_floor(p, colour, n)
        else:
            count = self._line_count[p]
            room = dest + 1 - count[dest]
            put = n if n < room else room
            self._line_colour[p][dest] = colour
            count[dest] += put
            if n > put:
                self._to_floor(p, colour, n - put)
        if any(centre) or any(map(any, self._factories)):
            self._turn = (p + 1) % self._players
        else:
            self._phase = TILING
            self._turn = self._start
            self._continue_tiling()

    # -- wall tiling and scoring (native/src/scoring.cpp) -------------------------------------

    def _place(self, p, row, col):
        """Move pattern line ``row``'s tile to wall cell (row, col), score it, empty the line."""
        wall = self._wall[p]
        colour = self._line_colour[p][row]
        wall[row * 5 + col] = colour
        self._row_colours[p][row] |= 1 << colour
        self._lid[colour] += row  # the line's other tiles
        self._line_count[p][row] = 0
        self._line_colour[p][row] = -1
        across, down = _tile_runs(wall, row, col)
        points = (1 if across == 1 and down == 1 else  # _tile_points
                  (across if across > 1 else 0) + (down if down > 1 else 0))
        self._score[p] += points
        if self._sheet is not None:
            self._sheet[-1].append({
                "event": "tile", "player": p, "row": row, "column": col,
                "colour": COLOURS[colour], "across": across, "down": down, "points": points})

    def _best_column(self, p, row, colour):
        """The allowed column (grey wall) where the line's tile scores most, the leftmost of
        equals; -1 if none."""
        wall = self._wall[p]
        best, best_points = -1, -1
        for col in self._allowed_columns(p, row, colour):
            wall[row * 5 + col] = colour
            points = _tile_points(*_tile_runs(wall, row, col))
            wall[row * 5 + col] = -1
            if points > best_points:
                best, best_points = col, points
        return best

    def _tile_walls(self, choose_best):
        """Tile the walls player by player from the current player until the round's starter
        comes round again, each player's lines top to bottom, then their floor.  On the grey
        wall, stop at the first decision (return False, the chooser to move), or with
        ``choose_best`` take the best column."""
        grey = self._variant == 1
        p = self._turn
        while True:
            count = self._line_count[p]
            for r in range(5):
                if count[r] != r + 1:
                    continue
                colour = self._line_colour[p][r]
                if not grey:
                    self._place(p, r, (colour + r) % 5)  # _wall_column
                elif self._allowed_columns(p, r, colour):
                    if not choose_best:
                        self._turn = p
                        return False  # the player chooses the column
                    self._place(p, r, self._best_column(p, r, colour))
                else:
                    # No allowed cell: the whole line goes to the floor (overflow to the lid).
                    count[r] = 0
                    self._line_colour[p][r] = -1
                    to_lid = self._to_floor(p, colour, r + 1)
                    if self._sheet is not None:
                        self._sheet[-1].append({
                            "event": "line-to-floor", "player": p, "row": r,
                            "colour": COLOURS[colour], "tiles": r + 1, "to_lid": to_lid})
            self._floor_penalty(p)
            p = (p + 1) % self._players
            if p == self._start:
                return True

    def _continue_tiling(self):
        if self._tile_walls(False):
            self._end_round()

    def _floor_penalty(self, p):
        floor = self._floor[p]
        holds_marker = self._marker == p and self._marker_floor
        items = sum(floor) + (1 if holds_marker else 0)
        before = self._score[p]
        penalty = FLOOR_PENALTY[items if items < FLOOR_SPACES else FLOOR_SPACES]
        self._score[p] = before - penalty if before > penalty else 0
        if self._sheet is not None:
            self._sheet[-1].append({
                "event": "floor", "player": p, "items": items, "marker": holds_marker,
                "penalty": penalty, "before": before, "after": self._score[p]})
        if any(floor):
            lid = self._lid
            b, y, r, k, w = floor
            lid[0] += b
            lid[1] += y
            lid[2] += r
            lid[3] += k
            lid[4] += w
            floor[:] = _NO_TILES
        if holds_marker:
            self._marker_floor = False  # the marker goes back to its holder

    def _complete_rows(self, p):
        # A wall row never repeats a colour, so it is complete when it holds all five.
        return self._row_colours[p].count(31)


    def _is_stuck(self):
        """Rules 1, stuck games: no tile in the bag or lid can ever reach a wall."""
        supply = [self._bag[c] + self._lid[c] for c in range(5)]
        # On the coloured wall a line that can take colour c has its cell for c free, and that
        # cell's column holds no c: only the grey wall needs to look for an allowed column.
        grey = self._variant == 1
        for p in range(self._players):
            counts, colours, row_colours = (self._line_count[p], self._line_colour[p],
                                            self._row_colours[p])
            for r in range(5):
                n, lc, row = counts[r], colours[r], row_colours[r]
                for c in range(5):
                    if not supply[c]:
                        continue
                    if (n and lc != c) or row >> c & 1:
                        continue  # the pattern line cannot take colour c
                    if not grey or self._allowed_columns(p, r, c):
                        return False
        return True

    def _end_round(self):
        if self._h_rounds:
            self._h_rounds[-1][2] = self._score[:]
        if (any(self._complete_rows(p) for p in range(self._players)) or self._round >= MAX_ROUNDS
                or self._is_stuck()):
            for p in range(self._players):
                rows, columns, colours = _wall_bonus(self._wall[p])
                points = 2 * rows + 7 * columns + 10 * colours
                if self._sheet is not None:
                    self._sheet[-1].append({
                        "event": "bonus", "player": p, "rows": rows, "columns": columns,
                        "colours": colours, "points": points, "before": self._score[p],
                        "after": self._score[p] + points})
                self._score[p] += points
            self._phase = OVER
            self._turn = CHANCE
            return
        if self._marker >= 0:
            self._start = self._marker
        self._round += 1
        self._start_round()

    # -- rounds: refill and deal (native/src/round.cpp) ---------------------------------------

    def _start_round(self):
        self._prefill_bag = self._bag[:]
        self._prefill_lid = self._lid[:]
        for f in self._factories:
            f[:] = _NO_TILES
        self._marker = -1
        self._marker_floor = False
        self._moves = 0
        self._phase = FILL
        self._turn = CHANCE
        self._continue_fill()

    def _put_drawn(self, colour):
        for f in self._factories:
            if sum(f) < 4:
                f[colour] += 1
                self._bag[colour] -= 1
                return

    def _continue_fill(self):
        """Fill the factories in order, 4 tiles each; pour the lid into the bag only when the
        bag is empty; if both are empty, the round starts with what was drawn."""
        bag = self._bag
        total = sum(bag)
        explicit = self._explicit
        rng = self._rng
        for f in self._factories:
            for _ in range(4 - sum(f)):
                if not total:
                    for c in range(5):
                        bag[c] += self._lid[c]
                        self._lid[c] = 0
                    total = sum(bag)
                    if not total:
                        self._rng = rng
                        self._begin_offer()
                        return
                if explicit:
                    return  # wait at the chance node
                # splitmix_next, inlined: rules section 5.
                rng = (rng + 0x9E3779B97F4A7C15) & _MASK64
                z = ((rng ^ (rng >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                k = (((z ^ (z >> 31)) >> 32) * total) >> 32
                c = 0
                while k >= bag[c]:
                    k -= bag[c]
                    c += 1
                bag[c] -= 1
                f[c] += 1
                total -= 1
        self._rng = rng
        self._begin_offer()

    def _begin_offer(self):
        self._phase = OFFER
        self._turn = self._start
        self._h_rounds.append([[_tiles_to_str(f) for f in self._factories], [], None])
        if self._sheet is not None:
            self._sheet.append([])

    def deal(self, factories):
        """Set this round's factory contents explicitly (a replay, a physical game).

        Allowed before the round's first move.  ``factories`` is one string per factory, its
        tiles as colour letters in colour order ('' when empty).  The tiles come from the bag
        as it was before this round's fill, with the lid poured in only if the bag ran out,
        and every factory holds 4 tiles unless bag and lid together held fewer.  Raises
        IllegalMoveError when that is impossible, leaving the state unchanged.
        """
        if self._phase not in (FILL, OFFER) or self._moves:
            raise IllegalMoveError("deal: factories can only be dealt before the round's "
                                   "first move")
        nf = len(self._factories)
        factories = _pycommon.deal_list(factories, nf)
        if len(factories) != nf:
            raise IllegalMoveError("deal: %d players need %d factory strings"
                                   % (self._players, nf))
        for i, text in enumerate(factories):
            if not isinstance(text, str):
                raise IllegalMoveError("deal: factory %d is not a string" % (i + 1))
        counts = []
        for i, text in enumerate(factories):
            try:
                f = _parse_tiles(text, "factory %d" % (i + 1))
            except StateFormatError as e:
                raise IllegalMoveError("deal: " + str(e)) from None
            if sum(f) > 4:
                raise IllegalMoveError("deal: factory %d holds %d tiles; a factory holds 4"
                                       % (i + 1, sum(f)))
            counts.append(f)
        bag, lid = self._prefill_bag, self._prefill_lid
        available = sum(bag) + sum(lid)
        for i, f in enumerate(counts):
            want = min(4, max(0, available - 4 * i))
            if sum(f) != want:
                raise IllegalMoveError(
                    "deal: factory %d holds %d tiles, but with %d tiles in bag and lid it "
                    "must hold %d" % (i + 1, sum(f), available, want))
        need = [sum(f[c] for f in counts) for c in range(5)]
        if all(need[c] <= bag[c] for c in range(5)):
            new_bag, new_lid = [bag[c] - need[c] for c in range(5)], lid[:]
        else:
            # The bag ran out, so all of it was drawn before the lid was poured in.
            for c in range(5):
                if need[c] < bag[c]:
                    raise IllegalMoveError(
                        "deal: the bag held %d %s, more than dealt, so the lid cannot have "
                        "been poured in, yet the bag alone cannot supply these factories"
                        % (bag[c], COLOUR_NAMES[c]))
                if need[c] > bag[c] + lid[c]:
                    raise IllegalMoveError("deal: %d %s dealt, but bag and lid hold only %d"
                                           % (need[c], COLOUR_NAMES[c], bag[c] + lid[c]))
            new_bag, new_lid = [bag[c] + lid[c] - need[c] for c in range(5)], [0] * 5
        self._bag, self._lid = new_bag, new_lid
        self._factories = counts
        self._h_seed = None
        self._undo = []
        if self._phase == OFFER and self._h_rounds:
            self._h_rounds.pop()
        self._begin_offer()

    # -- state text (native/src/text.cpp) -----------------------------------------------------

    def to_text(self, history=False):
        """The position and generator as one versioned line; see :meth:`from_text`.

        With ``history=True`` the game's history follows, so that :meth:`record` still works
        on the state read back.
        """
        out = ["azul-state/%d" % TEXT_VERSION,
               "variant=" + VARIANTS[self._variant],
               "players=%d" % self._players,
               "chance=" + ("explicit" if self._explicit else "sampled"),
               "seed=%d" % self._seed,
               "rng=%016x" % self._rng,
               "round=%d" % self._round,
               "phase=" + PHASE_NAMES[self._phase],
               "turn=%d" % self._turn,
               "start=%d" % self._start,
               "marker=" + ("C" if self._marker < 0 else str(self._marker)),
               "moves=%d" % self._moves,
               "factories=" + ",".join(_tiles_to_str(f) or "-" for f in self._factories),
               "center=" + (_tiles_to_str(self._centre) or "-"),
               "bag=" + _counts(self._bag),
               "lid=" + _counts(self._lid),
               "prefill=" + _counts(self._prefill_bag) + "/" + _counts(self._prefill_lid)]
        lines, walls, floors = self.pattern_lines, self.walls, self.floors
        for p in range(self._players):
            out.append("p%d=%d:%s:%s:%s" % (p, self._score[p],
                                            "/".join(x or "-" for x in lines[p]),
                                            "/".join(walls[p]), floors[p] or "-"))
        if history:
            out.append("history=" + ("-" if self._h_seed is None else str(self._h_seed))
                       + ":%d:%d" % (self._h_first, 1 if self._h_complete else 0))
            out.extend(_pycommon.rounds_text(self._h_rounds))
        return " ".join(out)

    @classmethod
    def from_text(cls, text):
        """Read a state written by :meth:`to_text`.

        Raises :class:`StateFormatError` naming the field for malformed or inconsistent text:
        a missing or unknown field, wrong tile totals, an impossible wall or pattern line, a
        phase that does not fit the rest.
        """
        return _from_text(text)

    # -- history and records (native/src/record.cpp) -----------------------------------------

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
            "rounds": _pycommon.record_rounds(self._h_rounds),
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
        g = GameState._blank(self._players, self._variant, True, 0)
        g._sheet = []
        if self._h_first >= 0:
            g.apply(FIRST_PLAYER_ACTION_BASE + self._h_first)
            for factories, moves, _ in self._h_rounds:
                g.deal(factories)
                for move in moves:
                    g.apply(move)
        return g._sheet

    def score_if_round_ended(self):
        """Each player's score if wall tiling and floor penalties happened now (no end bonuses).

        Players whose wall is already tiled this round keep their score.  On the grey wall
        each complete line goes to the allowed column that scores most (the leftmost of
        equals).  Outside the offer and tiling phases, the current scores.
        """
        if self._phase not in (OFFER, TILING):
            return list(self._score)
        g = self.clone()
        g._h_rounds = [[[], [], None]]  # scoring below must not touch this game's history
        if g._phase == OFFER:
            g._turn = g._start
        g._tile_walls(True)
        return g._score

    # -- observations (native/src/observation.cpp) --------------------------------------------

    def _observation(self, player, out, offset):
        """Write the observation of ``player`` (see :meth:`observation_tensor`) into the list
        ``out`` from ``offset``; values are exact fractions, made float32 by the caller."""
        players = self._players
        for k in range(players):
            seat = (player + k) % players
            base = offset + SEAT_FEATURES * k
            wall = self._wall[seat]
            for i in range(25):
                if wall[i] >= 0:
                    out[base + 25 * wall[i] + i] = 1.0
            for r in range(5):
                n = self._line_count[seat][r]
                if n:
                    out[base + 125 + 5 * r + self._line_colour[seat][r]] = n / (r + 1)
            out[base + 150] = sum(self._floor[seat]) / 7
            out[base + 151] = 1.0 if self._marker == seat and self._marker_floor else 0.0
            out[base + 152] = 1.0 if self._marker == seat else 0.0
            out[base + 153] = self._score[seat] / 100
        base = offset + SEAT_FEATURES * players
        for f, tiles in enumerate(self._factories):
            for c in range(5):
                out[base + 5 * f + c] = tiles[c] / 4
        for c in range(5):
            out[base + 45 + c] = self._centre[c] / 20
            out[base + 51 + c] = self._bag[c] / 20
            out[base + 56 + c] = self._lid[c] / 20
        out[base + 50] = 1.0 if self._phase == OFFER and self._marker < 0 else 0.0
        out[base + 61] = self._round / 10
        out[base + 62 + self._phase] = 1.0
        if self._phase == TILING:
            out[base + 67 + self._pending_row(self._turn)] = 1.0
        if self._start >= 0:
            out[base + 72 + (self._start - player) % players] = 1.0

    def _observer(self, player):
        return _pycommon.observer(player, self._turn, self._players)

    def observation_tensor(self, player=None):
        """The state as seen by ``player`` (default: the player to move; seat 0 at a chance node
        or after the end): a float32 numpy array of shape ``observation_shape(players)``.

        Perspective-relative: block k describes seat ``(player + k) % players``, so the
        observer comes first.  Each seat block has 154 values: wall cell (row r, column c)
        holding colour k at ``25k + 5r + c`` (one-hot, 125), pattern line r holding colour k at
        ``125 + 5r + k`` (tiles / (r + 1)), floor tiles / 7 at 150, the marker on this floor at
        151, this seat took the marker this round at 152, score / 100 at 153.  Then 76 shared
        values: factory f colour k at ``5f + k`` (tiles / 4; 9 factories), centre colour k at
        45 + k (tiles / 20), the marker still in the centre at 50, bag and lid colour k at
        51 + k and 56 + k (tiles / 20), round / 10 at 61, the phase one-hot at 62-66
        (first-player, fill, offer, tiling, over), the grey-wall pending row one-hot at 67-71,
        and the round's starting seat relative to the observer one-hot at 72-75.
        """
        import numpy as np

        player = self._observer(player)
        out = [0.0] * (SEAT_FEATURES * self._players + SHARED_FEATURES)
        self._observation(player, out, 0)
        return np.array(out, dtype=np.float32)

    def legal_action_mask(self):
        """A bool numpy array of NUM_ACTIONS: True for each id in :meth:`legal_actions`."""
        import numpy as np

        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        mask[self.legal_actions()] = True
        return mask

    # -- a readable board ---------------------------------------------------------------------

    def __str__(self):
        return _board_text(self)


# Every call is atomic across threads.  Left alone: apply and legal_actions (they lock for
# themselves), the properties that never change, and is_over (the end is written last).
_pycommon.make_atomic(GameState, unlocked=(
    "apply", "legal_actions", "players", "variant", "seed", "chance_mode", "is_over"))


# ---------------------------------------------------------------------------------------------
# Scoring helpers (native/src/scoring.cpp)
# ---------------------------------------------------------------------------------------------

def _tile_runs(wall, row, col):
    """Lengths of the horizontal and vertical runs through (row, col), the tile counted in each."""
    i = row * 5 + col
    across = 1
    j = i - 1
    while j >= i - col and wall[j] >= 0:
        across += 1
        j -= 1
    j = i + 1
    while j < i - col + 5 and wall[j] >= 0:
        across += 1
        j += 1
    down = 1
    j = i - 5
    while j >= 0 and wall[j] >= 0:
        down += 1
        j -= 5
    j = i + 5
    while j < 25 and wall[j] >= 0:
        down += 1
        j += 5
    return across, down


def _tile_points(across, down):
    """Points for a placed tile with those runs: the horizontal run if 2 or longer plus the
    vertical run if 2 or longer, the tile counted in both; a lone tile scores 1."""
    if across == 1 and down == 1:
        return 1
    return (across if across > 1 else 0) + (down if down > 1 else 0)


def _wall_bonus(wall):
    """(complete rows, complete columns, colours with all 5 tiles) of a wall."""
    rows = sum(1 for r in range(0, 25, 5) if min(wall[r:r + 5]) >= 0)
    columns = sum(1 for c in range(5) if min(wall[c::5]) >= 0)
    colours = sum(1 for k in range(5) if wall.count(k) == 5)
    return rows, columns, colours


# ---------------------------------------------------------------------------------------------
# Construction and checking of input
# ---------------------------------------------------------------------------------------------

def _check_action(action):
    # numpy integers and other int-likes are accepted through __index__; bools are not.
    return _pycommon.check_action(action, NUM_ACTIONS)


def new_game(players=2, variant="classic", seed=None, chance="sampled"):
    """Start a game of Azul.

    ``players`` 2-4; ``variant`` "classic" (coloured wall), "grey" (free placement) or
    "summer-pavilion" (Azul: Summer Pavilion, a :class:`PavilionState`);
    ``seed`` an int in 0..2**64-1, or None to draw one from the OS (kept in ``state.seed``);
    ``chance`` "sampled" (the game's generator draws the first player and every tile) or
    "explicit" (the state stops at each draw as a chance node, see ``chance_outcomes``).
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError("players must be an int, not %s" % type(players).__name__)
    if not 2 <= players <= 4:
        raise ValueError("players must be 2, 3 or 4, got %d" % players)
    if variant not in VARIANTS:
        raise ValueError("unknown variant %r (variants: %s)" % (variant, ", ".join(VARIANTS)))
    if chance not in ("sampled", "explicit"):
        raise ValueError("chance must be 'sampled' or 'explicit', got %r" % (chance,))
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    seed = _check_seed(seed)
    explicit = chance == "explicit"
    if variant == "summer-pavilion":
        return _pypavilion.new_game(players, seed, explicit)
    g = GameState._blank(players, VARIANTS.index(variant), explicit, seed)
    if not explicit:
        g._start = g._below(players)
        g._h_first = g._start
        g._start_round()
    return g


def end_bonus(wall, variant=None):
    """End-game bonuses of a wall: ``{"rows", "columns", "colours", "points"}``.

    ``wall`` is five rows of five characters, colour letters or '.' for empty, as a list or
    one string with the rows separated by '/' or new lines.  ``variant="classic"`` also checks
    each tile against the coloured wall's pattern.  Raises StateFormatError for an impossible
    wall.

    >>> end_bonus(["BYRKW", "WBYRK", "KWBYR", "RKWBY", "YRKW."], variant="classic")
    {'rows': 4, 'columns': 4, 'colours': 4, 'points': 76}
    """
    rows = wall.replace("/", " ").split() if isinstance(wall, str) else list(wall)
    if len(rows) != 5 or not all(isinstance(x, str) and len(x) == 5 for x in rows):
        raise StateFormatError("wall: not 5 rows of 5 cells (colour letters or '.')")
    if variant is not None and variant not in WALL_VARIANTS:
        raise ValueError("unknown variant %r (variants with a wall: %s)"
                         % (variant, ", ".join(WALL_VARIANTS)))
    cells = _parse_wall(rows, variant == "classic", "wall")
    rows_done, columns, colours = _wall_bonus(cells)
    return {"rows": rows_done, "columns": columns, "colours": colours,
            "points": 2 * rows_done + 7 * columns + 10 * colours}


def observation_shape(players, variant="classic"):
    """Shape of :meth:`GameState.observation_tensor`: ``(154 * players + 76,)``; for
    "summer-pavilion", of :meth:`PavilionState.observation_tensor`: ``(87 * players + 97,)``."""
    new_game(players, variant, 0)  # checks the arguments
    if variant == "summer-pavilion":
        return (_pypavilion.SEAT_FEATURES * players + _pypavilion.SHARED_FEATURES,)
    return (SEAT_FEATURES * players + SHARED_FEATURES,)


def _counts(counts):
    return ",".join(str(n) for n in counts)


# ---------------------------------------------------------------------------------------------
# Reading state text (native/src/text.cpp)
# ---------------------------------------------------------------------------------------------

_FIELDS = ("variant", "players", "chance", "seed", "rng", "round", "phase", "turn", "start",
           "marker", "moves", "factories", "center", "bag", "lid", "prefill")


_is_uint = _pycommon.is_uint


def _is_int(text):
    return _is_uint(text[1:] if text[:1] == "-" else text) and len(text) <= 21


def _int_field(fields, key, lo, hi):
    value = fields[key]
    try:
        n = int(value, 10)
    except ValueError:
        n = None
    if n is None or not _is_int(value) or not lo <= n <= hi:
        raise StateFormatError("field %s: %r is not an integer in %d..%d" % (key, value, lo, hi))
    return n


def _count_list(value, key):
    parts = value.split(",")
    if len(parts) != 5 or not all(_is_uint(x) and len(x) <= 3 for x in parts):
        raise StateFormatError("field %s: %r is not 5 tile counts" % (key, value))
    counts = [int(x) for x in parts]
    if any(n > TILES_PER_COLOUR for n in counts):
        raise StateFormatError("field %s: a count above %d" % (key, TILES_PER_COLOUR))
    return counts


def _from_text(text):
    if not isinstance(text, str):
        raise TypeError("state text must be a str, not %s" % type(text).__name__)
    tokens = text.split()
    if not tokens or not tokens[0].startswith("azul-state/"):
        raise StateFormatError("not an Azul state: the text must start with azul-state/%d"
                               % TEXT_VERSION)
    if tokens[0] != "azul-state/%d" % TEXT_VERSION:
        raise StateFormatError("unsupported state text version %r (this engine reads "
                               "azul-state/%d)" % (tokens[0], TEXT_VERSION))
    if "variant=summer-pavilion" in tokens:
        return _pypavilion._from_text(text)
    fields, order = _pycommon.key_values(tokens[1:])
    for key in _FIELDS:
        if key not in fields:
            raise StateFormatError("field %s is missing" % key)
    if fields["variant"] not in VARIANTS:
        raise StateFormatError("field variant: unknown variant %r" % fields["variant"])
    variant = VARIANTS.index(fields["variant"])
    players = _int_field(fields, "players", 2, 4)
    if fields["chance"] not in ("sampled", "explicit"):
        raise StateFormatError("field chance: %r is not sampled or explicit" % fields["chance"])
    explicit = fields["chance"] == "explicit"
    seed = _int_field(fields, "seed", 0, _MASK64)
    rng_text = fields["rng"]
    if len(rng_text) != 16 or any(ch not in "0123456789abcdef" for ch in rng_text):
        raise StateFormatError("field rng: %r is not 16 lower-case hex digits" % rng_text)
    g = GameState._blank(players, variant, explicit, seed)
    g._rng = int(rng_text, 16)
    g._round = _int_field(fields, "round", 1, MAX_ROUNDS)
    if fields["phase"] not in PHASE_NAMES:
        raise StateFormatError("field phase: unknown phase %r" % fields["phase"])
    g._phase = PHASE_NAMES.index(fields["phase"])
    g._turn = _int_field(fields, "turn", -1, players - 1)
    g._start = _int_field(fields, "start", -1, players - 1)
    if fields["marker"] == "C":
        g._marker = -1
    else:
        g._marker = _int_field(fields, "marker", 0, players - 1)
    g._moves = _int_field(fields, "moves", 0, 10 ** 6)
    facs = fields["factories"].split(",")
    nf = _num_factories(players)
    if len(facs) != nf:
        raise StateFormatError("field factories: %d players have %d factories, not %d"
                               % (players, nf, len(facs)))
    for i, f in enumerate(facs):
        g._factories[i] = _parse_tiles(f, "field factories, factory %d" % (i + 1))
        if sum(g._factories[i]) > 4:
            raise StateFormatError("field factories: factory %d holds more than 4 tiles"
                                   % (i + 1))
    g._centre = _parse_tiles(fields["center"], "field center")
    if max(g._centre) > TILES_PER_COLOUR:
        raise StateFormatError("field center: more than %d tiles of a colour" % TILES_PER_COLOUR)
    g._bag = _count_list(fields["bag"], "bag")
    g._lid = _count_list(fields["lid"], "lid")
    pre = fields["prefill"].split("/")
    if len(pre) != 2:
        raise StateFormatError("field prefill: %r is not bag counts/lid counts"
                               % fields["prefill"])
    g._prefill_bag = _count_list(pre[0], "prefill")
    g._prefill_lid = _count_list(pre[1], "prefill")
    for p in range(players):
        key = "p%d" % p
        if key not in fields:
            raise StateFormatError("field %s is missing" % key)
        _read_player(g, p, fields[key])
    history_keys = _pycommon.history_keys(order)
    known = set(_FIELDS) | {"p%d" % p for p in range(players)} | set(history_keys)
    for key in order:
        if key not in known:
            raise StateFormatError("unknown field %s" % _pycommon.field_name(key))
    _check_consistency(g)
    if "history" in fields:
        _read_history(g, fields, history_keys)
    else:
        _pycommon.refuse_rounds_without_history(history_keys)
        g._h_complete = g._round == 1 and g._moves == 0 and g._phase in (FIRST_PLAYER, FILL,
                                                                          OFFER)
        g._h_seed = None
        g._h_first = g._start
        if g._phase == OFFER and g._h_complete:
            g._h_rounds = [[g.factories, [], None]]
    return g


def _read_player(g, p, value):
    key = "p%d" % p
    parts = value.split(":")
    if len(parts) != 4:
        raise StateFormatError("field %s: %r is not score:lines:wall:floor" % (key, value))
    score_text, lines_text, wall_text, floor_text = parts
    if not _is_uint(score_text) or len(score_text) > 6:
        raise StateFormatError("field %s: score %r is not a whole number of 0 or more"
                               % (key, score_text))
    g._score[p] = int(score_text)
    lines = lines_text.split("/")
    if len(lines) != 5:
        raise StateFormatError("field %s: %r is not 5 pattern lines" % (key, lines_text))
    for r, line in enumerate(lines):
        counts = _parse_tiles(line, "field %s, pattern line %d" % (key, r + 1))
        colours = [c for c in range(5) if counts[c]]
        if len(colours) > 1:
            raise StateFormatError("field %s: pattern line %d mixes colours" % (key, r + 1))
        if colours:
            c = colours[0]
            if counts[c] > r + 1:
                raise StateFormatError("field %s: pattern line %d holds %d tiles, more than "
                                       "its %d spaces" % (key, r + 1, counts[c], r + 1))
            g._line_colour[p][r] = c
            g._line_count[p][r] = counts[c]
    rows = wall_text.split("/")
    if len(rows) != 5 or any(len(x) != 5 for x in rows):
        raise StateFormatError("field %s: wall %r is not 5 rows of 5 cells" % (key, wall_text))
    wall = g._wall[p] = _parse_wall(rows, g._variant == 0, "field %s" % key)
    g._row_colours[p] = [sum(1 << x for x in wall[r * 5:r * 5 + 5] if x >= 0) for r in range(5)]
    for r in range(5):
        c = g._line_colour[p][r]
        if c >= 0 and _colour_in_row(wall, r, c):
            raise StateFormatError("field %s: pattern line %d holds %s, which wall row %d "
                                   "already has" % (key, r + 1, COLOUR_NAMES[c], r + 1))
    if floor_text.startswith("M"):
        if g._marker != p:
            raise StateFormatError("field %s: the floor holds the marker, but marker=%s"
                                   % (key, "C" if g._marker < 0 else g._marker))
        g._marker_floor = True
        floor_text = floor_text[1:] or "-"
    g._floor[p] = _parse_tiles(floor_text, "field %s, floor" % key)
    if sum(g._floor[p]) + (1 if g._marker == p and g._marker_floor else 0) > FLOOR_SPACES:
        raise StateFormatError("field %s: the floor holds more than 7 items" % key)


def _parse_wall(rows, classic, what):
    """Five rows of five cells (colour letters, '.') as 25 cells; checks that no colour repeats
    in a row or column and, on the coloured wall, that every tile sits in its colour's cell."""
    wall = [-1] * 25
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                continue
            if ch not in COLOURS:
                raise StateFormatError("%s: wall row %d has %r, not a colour or '.'"
                                       % (what, r + 1, ch))
            colour = COLOURS.index(ch)
            if classic and _wall_column(colour, r) != c:
                raise StateFormatError("%s: impossible wall: %s cannot be in row %d, column %d "
                                       "of the coloured wall"
                                       % (what, COLOUR_NAMES[colour], r + 1, c + 1))
            wall[r * 5 + c] = colour
    for r in range(5):
        row = [wall[r * 5 + c] for c in range(5) if wall[r * 5 + c] >= 0]
        if len(set(row)) != len(row):
            raise StateFormatError("%s: impossible wall: row %d repeats a colour" % (what, r + 1))
        col = [wall[rr * 5 + r] for rr in range(5) if wall[rr * 5 + r] >= 0]
        if len(set(col)) != len(col):
            raise StateFormatError("%s: impossible wall: column %d repeats a colour"
                                   % (what, r + 1))
    return wall


def _colour_in_row(wall, row, colour):
    return colour in wall[row * 5:row * 5 + 5]


def _check_consistency(g):
    for c in range(5):
        total = (sum(f[c] for f in g._factories) + g._centre[c] + g._bag[c] + g._lid[c]
                 + sum(w.count(c) for w in g._wall) + sum(fl[c] for fl in g._floor)
                 + sum(g._line_count[p][r] for p in range(g._players) for r in range(5)
                       if g._line_colour[p][r] == c))
        if total != TILES_PER_COLOUR:
            raise StateFormatError("wrong tile total: %d %s tiles in play, not %d"
                                   % (total, COLOUR_NAMES[c], TILES_PER_COLOUR))
    if sum(g._prefill_bag) + sum(g._prefill_lid) > 5 * TILES_PER_COLOUR:
        raise StateFormatError("field prefill: more than 100 tiles")
    if g._phase in (FIRST_PLAYER, FILL) or (g._phase == OFFER and g._moves == 0):
        # deal() takes its tiles from the prefill bag and lid: they must be this round's tiles.
        for c in range(5):
            before = g._prefill_bag[c] + g._prefill_lid[c]
            now = g._bag[c] + g._lid[c] + sum(f[c] for f in g._factories)
            if before != now:
                raise StateFormatError("field prefill: %d %s tiles in bag and lid before the fill, "
                                       "but %d in bag, lid and factories" % (before, COLOUR_NAMES[c], now))
    phase = g._phase
    name = PHASE_NAMES[phase]
    if phase in (FIRST_PLAYER, FILL, OVER):
        if g._turn != CHANCE:
            raise StateFormatError("field turn: must be -1 in phase %s" % name)
    elif g._turn < 0:
        raise StateFormatError("field turn: phase %s needs a player to move" % name)
    if phase in (FIRST_PLAYER, FILL) and not g._explicit:
        raise StateFormatError("field phase: %s happens only with chance=explicit" % name)
    if phase == FIRST_PLAYER:
        if g._start != -1 or g._round != 1:
            raise StateFormatError("field phase: first-player is round 1 with start=-1")
    elif g._start < 0:
        raise StateFormatError("field start: phase %s needs the round's starting player" % name)
    if phase == FILL:
        sizes = [sum(f) for f in g._factories]
        if any(sizes[i] < 4 and sizes[i + 1] > 0 for i in range(len(sizes) - 1)):
            raise StateFormatError("field factories: factories fill in order, 4 tiles each")
        if all(s == 4 for s in sizes) or not (any(g._bag) or any(g._lid)):
            raise StateFormatError("field phase: fill, but the factories cannot take a tile")
        if any(g._centre) or g._marker >= 0:
            raise StateFormatError("field phase: fill, but the round is under way")
    if phase == TILING:
        if g._variant != 1:
            raise StateFormatError("field phase: tiling decisions happen only on the grey wall")
        p = g._turn
        r = g._pending_row(p)
        if r < 0 or not g._allowed_columns(p, r, g._line_colour[p][r]):
            raise StateFormatError("field phase: tiling, but player %d has no pattern line "
                                   "waiting for a wall column" % p)
        if any(g._centre) or any(any(f) for f in g._factories):
            raise StateFormatError("field phase: tiling, but tiles are still on offer")
    if phase == OFFER and not (any(g._centre) or any(any(f) for f in g._factories)):
        raise StateFormatError("field phase: offer, but no tile is on offer")
    if g._marker >= 0 and phase not in (OFFER, TILING, OVER):
        raise StateFormatError("field marker: the marker is taken only during the offer")
    if (phase == OFFER and g._marker >= 0 and not g._marker_floor
            and sum(g._floor[g._marker]) < FLOOR_SPACES):
        raise StateFormatError("field marker: player %d keeps the marker aside, which happens "
                               "only on a full floor" % g._marker)


def _read_history(g, fields, keys):
    g._h_seed, g._h_first, g._h_complete, _ = _pycommon.read_history_head(
        fields["history"], g._players, 3, "seed:first:complete")
    g._h_rounds = _pycommon.read_rounds(
        fields, keys, g._players, _parse_tiles, _parse_move,
        "history rounds must be r1, r2, ... in order")


# ---------------------------------------------------------------------------------------------
# The readable board (native/src/text.cpp, BoardText)
# ---------------------------------------------------------------------------------------------

def _board_text(g):
    lines = []
    phase = g._phase
    head = "Azul (%s wall), %d players, round %d, " % (
        "coloured" if g._variant == 0 else "grey", g._players, g._round)
    if phase == OVER:
        head += "game over, winners: %s" % ", ".join("player %d" % p for p in g.winners)
    elif phase == FIRST_PLAYER:
        head += "chance: the first player is drawn"
    elif phase == FILL:
        head += "chance: a tile is drawn from the bag"
    elif phase == TILING:
        head += "wall tiling: player %d places pattern line %d" % (
            g._turn, g._pending_row(g._turn) + 1)
    else:
        head += "player %d to move" % g._turn
    lines.append(head)
    lines.append("Factories: " + "  ".join("%d:%s" % (i + 1, _tiles_to_str(f) or "-")
                                            for i, f in enumerate(g._factories)))
    lines.append("Centre: %s%s" % ("M " if g._marker < 0 and phase == OFFER else "",
                                   _tiles_to_str(g._centre) or "-"))
    lines.append("Bag: %d  Lid: %d" % (sum(g._bag), sum(g._lid)))
    walls, pattern = g.walls, g.pattern_lines
    for p in range(g._players):
        tags = []
        if p == g._start:
            tags.append("started the round")
        if p == g._turn:
            tags.append("to move")
        lines.append("Player %d: score %d%s" % (p, g._score[p],
                                                 " (" + ", ".join(tags) + ")" if tags else ""))
        for r in range(5):
            line = pattern[p][r]
            shown = "." * (r + 1 - len(line)) + line
            row = walls[p][r]
            if g._variant == 0:  # show the colour each empty cell takes, in lower case
                row = "".join(ch if ch != "." else COLOURS[(c - r) % 5].lower()
                              for c, ch in enumerate(row))
            lines.append("  %5s > %s" % (shown, " ".join(row)))
        floor = g.floors[p]
        items = len(floor)
        lines.append("  floor: %s (-%d)" % (" ".join(floor) or "-",
                                            FLOOR_PENALTY[min(items, FLOOR_SPACES)]))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Random playouts and vectors of games (native/src/playout.cpp, native/src/vector.cpp)
# ---------------------------------------------------------------------------------------------

_GAMMA = 0x9E3779B97F4A7C15


def _splitmix_output(seed, k):
    """The k-th output (k >= 1) of SplitMix64 seeded with ``seed``."""
    return _splitmix_next((seed + (k - 1) * _GAMMA) & _MASK64)[1]


def _play_random(g, policy, light=False):
    if type(g) is PavilionState:
        return _pypavilion.play_random(g, policy, light)
    return _play_random_wall(g, policy, light)


def _play_random_wall(g, policy, light=False):
    """Play ``g`` to its end choosing ``legal_actions()[below(count)]`` with the generator state
    ``policy``; chance nodes of an explicit-chance state are drawn as in sampled mode.  Returns
    the number of moves played.  ``light`` (README "Rollout policies"): a draft is chosen among
    the legal drafts to a pattern line, the floor only when there is none."""
    if g._explicit:
        g._explicit = False
        if g._phase == FIRST_PLAYER:
            g._start = g._below(g._players)
            g._start_round()
        elif g._phase == FILL:
            g._continue_fill()
    plies = 0
    legal_actions, draft, play = g._legal_actions, g._draft, g._play
    while True:
        phase = g._phase
        if phase == OVER:
            return plies
        legal = legal_actions()
        if light and phase == OFFER:
            lines = [a for a in legal if a % 6 != FLOOR]
            if lines:
                legal = lines
        # splitmix_next, inlined: rules section 5.
        policy = (policy + 0x9E3779B97F4A7C15) & _MASK64
        z = ((policy ^ (policy >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        action = legal[(((z ^ (z >> 31)) >> 32) * len(legal)) >> 32]
        if phase == OFFER:
            draft(action)  # a playout keeps no history of its moves
        else:
            play(action)
        plies += 1


def _check_playouts(n, threads):
    _pycommon.check_count(n, "n", _pycommon.MAX_PLAYOUTS, "2**30")
    _pycommon.check_count(threads, "threads", _pycommon.MAX_THREADS, "1024")


def random_playouts(n, players=2, variant="classic", seed=0, threads=0, with_plies=False,
                    policy="uniform"):
    """Final scores of ``n`` games of random legal moves: an int32 array (n, players).

    Game i is ``new_game(players, variant, seed=s1)`` played with move choices
    ``legal_actions()[below(count)]`` from a SplitMix64 generator seeded ``s2``, where s1 and
    s2 are outputs 2i+1 and 2i+2 of SplitMix64(seed): the result depends only on the
    arguments, never on ``threads`` (0: every core; the pure engine always uses one).  With
    ``with_plies=True`` returns ``(scores, moves played)``.  Limits, checked before any work:
    ``n`` at most 2**30, ``threads`` at most 1024 (ValueError).  ``policy``: ``"uniform"``
    (``legal_actions()[below(count)]``, as above) or ``"light"`` (README "Rollout policies":
    drafts to a pattern line before the floor; in Summer Pavilion placements before passes).
    """
    import numpy as np

    _check_playouts(n, threads)
    seed = _check_seed(seed)
    new_game(players, variant, 0)  # checks players and variant before any work
    light = _pycommon.check_policy(policy)
    out = np.zeros((n, players), dtype=np.int32)
    plies = 0
    for i in range(n):
        g = new_game(players, variant, _splitmix_output(seed, 2 * i + 1))
        plies += _play_random(g, _splitmix_output(seed, 2 * i + 2), light)
        out[i] = g._score
    return (out, plies) if with_plies else out


def playouts_from(state, n, seed=0, threads=0, with_plies=False, policy="uniform"):
    """Final scores (int32 array, n x players) of ``n`` random continuations of ``state`` (an
    MCTS rollout): continuation i replaces the game's generator with output 2i+1 of
    SplitMix64(seed) and chooses moves with output 2i+2, as :func:`random_playouts` does.
    The same limits: ``n`` at most 2**30, ``threads`` at most 1024; the same ``policy``."""
    import numpy as np

    if not isinstance(state, (GameState, PavilionState)):
        raise TypeError("state must be a GameState or PavilionState of this engine, not %s"
                        % type(state).__name__)
    _check_playouts(n, threads)
    seed = _check_seed(seed)
    light = _pycommon.check_policy(policy)
    out = np.zeros((n, state._players), dtype=np.int32)
    plies = 0
    for i in range(n):
        g = state.clone()
        g._rng = _splitmix_output(seed, 2 * i + 1)
        plies += _play_random(g, _splitmix_output(seed, 2 * i + 2), light)
        out[i] = g._score
    return (out, plies) if with_plies else out


class VectorGame:
    """``n`` games stepped together, for learning code: one call applies one action per game.

    The arrays are updated in place by :meth:`step` and :meth:`reset` (in the C++ engine they
    share memory with it): ``legal_mask`` (bool, n x NUM_ACTIONS; SP_NUM_ACTIONS for Summer
    Pavilion), ``legal_actions`` (int16, n x the same, each row's legal ids ascending then -1),
    ``num_legal`` (int16, n),
    ``current_player`` (int8, n; -1 once over), ``scores`` (int32, n x players) and ``done``
    (bool, n).  New games take seeds from a counter: the j-th game this vector starts (from 0)
    is ``new_game(players, variant, seed=output j+1 of SplitMix64(seed))``.  ``n`` is at most
    2**18 (262,144 games: the arrays stay under about 2 GiB).  A VectorGame pickles with every
    protocol (its games' positions and generators, the seed counter and ``auto_reset``).

    With ``auto_reset=True`` (README "VectorGame"), a game that ends in a step starts again
    right after its move, in index order, as the vector's next game (the same seed counter as
    :meth:`reset`); ``done[i]`` then says that game i ended in that step (the other arrays
    already show the new game), and ``final_scores`` (int32) and ``final_returns`` (float32,
    +1 a sole winner, 0 each of several winners, -1 everyone else), n x players, hold each
    slot's last game that ended (zero before any; None without auto_reset).
    """

    def __new__(cls, *args, **kwargs):
        # VectorGame(n, players=2, variant="classic", seed=0, auto_reset=False).  The whole
        # object is built here (as in the C++ engine): VectorGame.__new__(VectorGame, ...) alone
        # is never half made, and __init__ has nothing left to do.
        if not (isinstance(cls, type) and issubclass(cls, VectorGame)):
            raise TypeError("VectorGame.__new__(X): X is not a subtype of VectorGame")
        n, players, variant, seed, auto_reset = _pycommon.bind_arguments(
            "VectorGame", ("n", "players", "variant", "seed", "auto_reset"),
            (2, "classic", 0, False), args, kwargs)
        self = object.__new__(cls)
        self._build(n, players, variant, seed, auto_reset)
        return self

    def __init__(self, *args, **kwargs):
        pass

    def _build(self, n, players, variant, seed, auto_reset):
        import numpy as np

        n = _pycommon.check_count(n, "n", _pycommon.MAX_VECTOR_GAMES, "2**18 games")
        seed = _check_seed(seed)
        new_game(players, variant, 0)  # checks players and variant
        if type(auto_reset) is not bool:
            raise TypeError("auto_reset must be True or False, not %s" % type(auto_reset).__name__)
        self.auto_reset = auto_reset
        self.n, self.players, self.variant, self._seed, self._started = n, players, variant, seed, 0
        self._pavilion = variant == "summer-pavilion"
        num_actions = SP_NUM_ACTIONS if self._pavilion else NUM_ACTIONS
        # Written here, seen by the caller through read-only views, as in the C++ engine.
        self._mask = np.zeros((n, num_actions), dtype=np.bool_)
        self._actions = np.full((n, num_actions), -1, dtype=np.int16)
        self._counts = np.zeros(n, dtype=np.int16)
        self._player = np.full(n, -1, dtype=np.int8)
        self._scores = np.zeros((n, players), dtype=np.int32)
        self._done = np.zeros(n, dtype=np.bool_)
        for name in ("legal_mask", "legal_actions", "num_legal", "current_player", "scores",
                     "done"):
            view = getattr(self, "_" + {"legal_mask": "mask", "legal_actions": "actions",
                                        "num_legal": "counts", "current_player": "player",
                                        "scores": "scores", "done": "done"}[name]).view()
            view.flags.writeable = False
            setattr(self, name, view)
        self.final_scores = self.final_returns = None
        if auto_reset:
            self._final_scores = np.zeros((n, players), dtype=np.int32)
            self._final_returns = np.zeros((n, players), dtype=np.float32)
            self.final_scores = self._final_scores.view()
            self.final_returns = self._final_returns.view()
            self.final_scores.flags.writeable = self.final_returns.flags.writeable = False
        self._games = [None] * n
        self._busy = False
        self.stepped = 0
        self.reset()

    def _refresh(self, i):
        g = self._games[i]
        legal = g.legal_actions()
        self._mask[i] = False
        self._mask[i, legal] = True
        self._actions[i] = -1
        self._actions[i, :len(legal)] = legal
        self._counts[i] = len(legal)
        self._player[i] = g._turn
        self._scores[i] = g._score
        self._done[i] = g.is_over

    def _acquire(self):
        # One step or reset at a time, as in the C++ engine (Python threads may switch inside).
        if self._busy:
            raise ValueError("VectorGame is busy: another thread is stepping or resetting it")
        self._busy = True

    def reset(self, indices=None):
        """Start new games in the given slots (default: all), in the order given."""
        self._acquire()
        try:
            self._reset(indices)
        finally:
            self._busy = False

    def _reset(self, indices):
        slots = range(self.n) if indices is None else [int(i) for i in indices]
        for i in slots:
            _pycommon.game_index(i, self.n)
        for i in slots:
            self._start(i)

    def _start(self, i):
        self._started += 1
        self._games[i] = new_game(self.players, self.variant,
                                  _splitmix_output(self._seed, self._started))
        self._refresh(i)

    def _finish(self, i):
        """Game i is over (auto_reset): its scores and returns go to the final arrays."""
        g = self._games[i]
        winners = g.winners
        self._final_scores[i] = g._score
        self._final_returns[i] = [(1.0 if len(winners) == 1 else 0.0) if p in winners else -1.0
                                  for p in range(self.players)]

    def step(self, actions):
        """Apply ``actions[i]`` to game i, for every game not yet over (finished games ignore
        theirs).  Checks every action first: IllegalMoveError names the game and the rule, and
        then no game has moved.  Returns (legal_mask, current_player, scores, done).

        The games move in index order, each one's arrays refreshed right after its move.  A
        Ctrl-C (SIGINT's Python handler) runs between two games, within about 25 ms in the C++
        engine; if it raises (KeyboardInterrupt), the step stops there: games 0..k-1 have taken
        their actions, games k..n-1 have not, every array matches its game, ``stepped`` is k and
        the exception carries a note saying so.  ``stepped`` is n after a step that ran to the
        end, 0 after one refused by IllegalMoveError."""
        import numpy as np

        actions = np.asarray(actions)
        if actions.shape != (self.n,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError("actions must be %d integers, got shape %s of %s"
                             % (self.n, actions.shape, actions.dtype))
        self._acquire()
        try:
            self.stepped = 0
            todo = []
            auto_reset = self.auto_reset
            for i in range(self.n):
                if self.done[i] and not auto_reset:
                    continue
                a = int(actions[i])
                try:
                    _pycommon.check_action(a, self._mask.shape[1])
                    self._games[i]._check_legal(a)
                except IllegalMoveError as e:
                    raise IllegalMoveError("game %d: %s" % (i, e)) from None
                todo.append((i, a))
            with _pycommon.HeldInterrupt() as held:
                for i, a in todo:
                    try:
                        held.poll()
                    except BaseException as exc:
                        self.stepped = i
                        _pycommon.note_interrupted_step(exc, i, self.n)
                        raise
                    self._games[i]._play(a)
                    self._refresh(i)
                    if auto_reset and self._done[i]:
                        self._finish(i)
                        self._start(i)
                        self._done[i] = True
                self.stepped = self.n
        finally:
            self._busy = False
        return self.legal_mask, self.current_player, self.scores, self.done

    def observation_tensors(self):
        """Each game seen by its player to move (seat 0 once over): float32 (n, observation
        size), a new array."""
        import numpy as np

        self._acquire()
        try:
            size = observation_shape(self.players, self.variant)[0]
            if self._pavilion:
                return np.array([g.observation_tensor() for g in self._games],
                                dtype=np.float32).reshape(self.n, size)
            out = [0.0] * (size * self.n)
            for i, g in enumerate(self._games):
                g._observation(g._turn if g._turn >= 0 else 0, out, i * size)
        finally:
            self._busy = False
        return np.array(out, dtype=np.float32).reshape(self.n, size)

    def state(self, i):
        """A copy of game i as a GameState or PavilionState (position and generator; no
        history)."""
        self._acquire()
        try:
            i = _pycommon.game_index(i, self.n)
            return _from_text(self._games[i].to_text())
        finally:
            self._busy = False

    def __reduce__(self):
        # Every protocol: the games' positions and generators (no history, as state(i)).
        self._acquire()
        try:
            games = [g.to_text() for g in self._games]
        finally:
            self._busy = False
        return (_vector_game, (self.n, self.players, self.variant, self._seed, self._started,
                               games, self.auto_reset))


def _vector_game(n, players, variant, seed, started, games, auto_reset=False):
    """Unpickles a VectorGame (its __reduce__): the games of ``games`` (state text) in their
    slots."""
    self = VectorGame(n, players, variant, seed, auto_reset)
    count = _check_seed(started)
    texts = list(games)
    if len(texts) != self.n:
        raise ValueError("VectorGame pickle: %d games for a vector of %d" % (len(texts), self.n))
    for i, text in enumerate(texts):
        g = _from_text(text)
        if self._pavilion:
            fits = isinstance(g, PavilionState) and g._players == self.players
        else:
            fits = (isinstance(g, GameState) and g._players == self.players
                    and VARIANTS[g._variant] == self.variant)
        if not fits:
            raise ValueError("VectorGame pickle: game %d is not a %d-player %s game"
                             % (i, self.players, self.variant))
        self._games[i] = g
        self._refresh(i)
    self._started = count
    return self



def from_text(text):
    """Read a state written by ``to_text``: a :class:`GameState` or, for variant
    summer-pavilion, a :class:`PavilionState`.  Raises :class:`StateFormatError` naming the
    field."""
    return _from_text(text)


# Summer Pavilion (native/src/pavilion.cpp) lives in its own module; its names are this engine's.
from . import _pypavilion  # noqa: E402
from ._pypavilion import (  # noqa: E402
    PavilionState, SP_COLOURS, SP_STARS, SP_KEEP_SETS, SP_NUM_ACTIONS, SP_PLACE_ACTION_BASE,
    SP_BONUS_ACTION_BASE, SP_PASS_ACTION_BASE, SP_DRAW_ACTION_BASE, SP_FIRST_PLAYER_ACTION_BASE,
)
