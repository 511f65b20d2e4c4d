"""Azul: Summer Pavilion in the pure-Python engine (rules section 3).

The readable twin of ``native/src/pavilion.cpp`` and ``native/src/pavilion_text.cpp``: the same
board model, action ids, notation, state text, history and messages, section by section.
:func:`azul_engine._pyengine.new_game` hands ``variant="summer-pavilion"`` to :func:`new_game`
here; the state it returns is a :class:`PavilionState`, with the same methods as a classic
``GameState`` wherever the two games share an idea.

Board model.  Colours (frozen order) ``P G O Y B R``: purple, green, orange, yellow, blue, red.
Stars ``O R B Y G P`` (the outer stars clockwise from the upper left, each taking only its own
colour) and ``C`` (the centre star, six different colours).  Space ``n`` (1-6) of a star costs
``n`` tiles.  Spaces are numbered 0-41 inside the engine: ``star * 6 + n - 1`` with stars in the
order ``O R B Y G P C``.  The round's wild colour is colour ``round - 1``.

Action ids (``SP_NUM_ACTIONS`` = 1798):

- 0-59, acquire: ``source * 6 + colour`` (source 0-8 factory, 9 the centre);
- 60-1571, place: ``60 + (space * 6 + colour) * 6 + wilds`` (space 0-41 as above, the colour
  paid and placed, 0-5 wild tiles standing in for it);
- 1572-1577, bonus tile: ``1572 + colour``, one tile of that colour from the supply;
- 1578-1787, pass: ``1578 + k`` keeping ``SP_KEEP_SETS[k]`` (the 210 multisets of at most 4
  tiles, by size and then in colour order: '', 'P', 'G', ..., 'RRRR');
- 1788-1793, chance: a tile of colour 0-5 is drawn from the bag;
- 1794-1797, chance: seat 0-3 starts round 1.
"""

import itertools
import json

from ._errors import IllegalMoveError, StateFormatError
from ._pycommon import MASK64 as _MASK64
from ._pycommon import new_lock as _new_lock
from ._pycommon import check_seed as _check_seed
from ._pycommon import is_uint as _is_uint
from ._pycommon import splitmix_next as _splitmix_next
from . import _pycommon

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


# ---------------------------------------------------------------------------------------------
# Notation (records.md, Summer Pavilion)
# ---------------------------------------------------------------------------------------------

def _tiles(counts):
    text = _TILE_TEXT.get(tuple(counts))
    if text is None:
        text = "".join(SP_COLOURS[c] * counts[c] for c in range(6))
    return text


# The text of every tile multiset of at most 4 tiles (a factory's), precomputed.
_TILE_TEXT = {k: "".join(SP_COLOURS[c] * k[c] for c in range(6)) for k in _KEEPS}


def _action_text(action):
    """Notation of an action id (ids checked by the caller)."""
    if action < SP_PLACE_ACTION_BASE:
        source, colour = divmod(action, 6)
        return ("C" if source == CENTRE else str(source + 1)) + SP_COLOURS[colour]
    if action < SP_BONUS_ACTION_BASE:
        a = action - SP_PLACE_ACTION_BASE
        space, rest = divmod(a, 36)
        colour, wilds = divmod(rest, 6)
        star, k = divmod(space, 6)
        return "%s%d%s%d" % (SP_STARS[star], k + 1, SP_COLOURS[colour], wilds)
    if action < SP_PASS_ACTION_BASE:
        return "+" + SP_COLOURS[action - SP_BONUS_ACTION_BASE]
    if action < SP_DRAW_ACTION_BASE:
        return "-" + SP_KEEP_SETS[action - SP_PASS_ACTION_BASE]
    if action < SP_FIRST_PLAYER_ACTION_BASE:
        return "~" + SP_COLOURS[action - SP_DRAW_ACTION_BASE]
    return "~%d" % (action - SP_FIRST_PLAYER_ACTION_BASE)


_ACTION_TEXT = tuple(_action_text(_a) for _a in range(SP_NUM_ACTIONS))
# (space, colour, wild tiles, cost) of each placement, by id - SP_PLACE_ACTION_BASE.
_PLACE_PARTS = tuple((_a // 36, _a % 36 // 6, _a % 6, _a // 36 % 6 + 1)
                     for _a in range(SP_BONUS_ACTION_BASE - SP_PLACE_ACTION_BASE))


def _parse_tiles(text, what, error=StateFormatError):
    """Colour letters in colour order ('' or '-' for none) as 6 counts."""
    counts = [0] * 6
    if text in ("", "-"):
        return counts
    last = 0
    for ch in text:
        c = SP_COLOURS.find(ch)
        if c < 0:
            raise error("%s: unknown colour %r in %r (colours are P G O Y B R)" % (what, ch, text))
        if c < last:
            raise error("%s: tiles %r are not in colour order (P G O Y B R)" % (what, text))
        last = c
        counts[c] += 1
    return counts


def _parse_move(text):
    """Notation to an action id; a supply refill of several tiles ('~BR') returns
    ``(-1, counts)``, every other move ``(action, None)``."""
    if not isinstance(text, str):
        raise TypeError("a move is an action id (int) or a notation string, not %s"
                        % type(text).__name__)
    bad = "%r is not a move: " % text
    if not text.isascii():
        raise IllegalMoveError(bad + "move notation is ASCII")
    if text[:1] == "~":
        body = text[1:]
        if len(body) == 1 and body in "0123":
            return SP_FIRST_PLAYER_ACTION_BASE + int(body), None
        if not body or body == "-":  # '~-' draws nothing, like a bare '~'
            raise IllegalMoveError(bad + "a chance outcome is ~ and the tiles drawn (colour "
                                   "letters P G O Y B R) or ~ and a seat (0-3)")
        counts = _parse_tiles(body, bad + "tiles drawn", IllegalMoveError)
        if len(body) == 1:
            return SP_DRAW_ACTION_BASE + SP_COLOURS.index(body), None
        return -1, counts
    if text[:1] == "+":
        if len(text) != 2 or text[1] not in SP_COLOURS:
            raise IllegalMoveError(bad + "a bonus tile is + and a colour letter (P G O Y B R)")
        return SP_BONUS_ACTION_BASE + SP_COLOURS.index(text[1]), None
    if text[:1] == "-":
        if text == "--":
            raise IllegalMoveError(bad + "a pass keeping nothing is written -")
        counts = _parse_tiles(text[1:], bad + "kept tiles", IllegalMoveError)
        if sum(counts) > 4:
            raise IllegalMoveError(bad + "a pass keeps at most 4 tiles")
        return SP_PASS_ACTION_BASE + _KEEP_INDEX[tuple(counts)], None
    if len(text) == 2:
        s, c = text
        if s == "C":
            source = CENTRE
        elif s in "123456789":
            source = int(s) - 1
        else:
            raise IllegalMoveError(bad + "unknown source %r (factories 1-9, C for the centre)" % s)
        if c not in SP_COLOURS:
            raise IllegalMoveError(bad + "unknown colour %r (colours are P G O Y B R)" % c)
        return source * 6 + SP_COLOURS.index(c), None
    if len(text) == 4:
        star, k, c, w = text
        if star not in SP_STARS:
            raise IllegalMoveError(bad + "unknown star %r (stars O R B Y G P, C for the centre)"
                                   % star)
        if k not in "123456":
            raise IllegalMoveError(bad + "unknown space %r (spaces 1-6)" % k)
        if c not in SP_COLOURS:
            raise IllegalMoveError(bad + "unknown colour %r (colours are P G O Y B R)" % c)
        if w not in "012345":
            raise IllegalMoveError(bad + "the number of wild tiles is 0-5, not %r" % w)
        space = SP_STARS.index(star) * 6 + int(k) - 1
        return (SP_PLACE_ACTION_BASE + (space * 6 + SP_COLOURS.index(c)) * 6 + int(w)), None
    raise IllegalMoveError(bad + "Summer Pavilion moves are an acquire (3R, CG), a placement "
                           "(R3R1), a bonus tile (+G), a pass (-GRR) or a chance outcome (~BR)")


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
_STAR_PLACES = {}


def _star_places(key):
    rest, hand_key = divmod(key, 84)
    star, covered = divmod(rest, 64)
    ids = ()
    for k in range(6):
        if not covered >> k & 1:
            ids += _space_places(star * 6 + k, STAR_COLOUR[star], hand_key)
    _STAR_PLACES[key] = ids
    return ids


def _run_length(filled, space):
    """Length of the run of covered spaces through ``space`` in its star's ring of six."""
    base = space - space % 6
    k = space - base
    n = 1
    while n < 6 and filled >> (base + (k + n) % 6) & 1:
        n += 1
    if n == 6:
        return 6
    back = 1
    while filled >> (base + (k - back) % 6) & 1:
        back += 1
    return n + back - 1


# ---------------------------------------------------------------------------------------------
# The game state (native/include/azul/pavilion.h)
# ---------------------------------------------------------------------------------------------

class PavilionState:
    """One game of Azul: Summer Pavilion: the position, its generator and the game's history.

    Made by ``new_game(players, variant="summer-pavilion", seed=...)`` or ``from_text``; the
    methods are those of the classic ``GameState`` (queries, ``legal_actions``, ``apply``,
    ``clone``, ``to_text``, ``record``, explicit chance) plus the queries of this game
    (``supply``, ``wild``, ``hands``, ``boards``, ``passed``, ``bonus_owed``).

    >>> from azul_engine import _pyengine
    >>> g = _pyengine.new_game(2, variant="summer-pavilion", seed=7)
    >>> g.wild, g.supply
    ('P', 'PPPGGOOOYR')
    """

    __slots__ = (
        "_players", "_explicit", "_seed", "_rng", "_round", "_phase", "_fill", "_turn",
        "_start", "_marker", "_moves", "_next", "_owed", "_factories", "_centre", "_supply",
        "_refill", "_bag", "_tower", "_prefill_bag", "_prefill_tower", "_score", "_hand",
        "_board", "_filled", "_passed",
        # history (not part of the position)
        "_h_complete", "_h_seed", "_h_first", "_h_supply", "_h_rounds",
        # score sheet events, per round; None except while score_sheet() replays the history
        "_sheet",
        # what undo() takes back: one entry per apply() (_undo_entry), newest last
        "_undo",
        # held by every call that is not atomic as it is (_pycommon.make_atomic)
        "_lock",
    )

    def __new__(cls, *args, **kwargs):
        # Only the engine makes states (object.__new__): no half-made object can exist.
        raise TypeError("use azul_engine.new_game(..., variant='summer-pavilion') or "
                        "from_text(text)")

    def __init__(self, *args, **kwargs):
        raise TypeError("use azul_engine.new_game(..., variant='summer-pavilion') or "
                        "from_text(text)")

    @classmethod
    def _blank(cls, players, explicit, seed):
        self = object.__new__(cls)
        self._players = players
        self._explicit = explicit
        self._seed = seed
        self._rng = seed
        self._round = 1
        self._phase = FIRST_PLAYER
        self._fill = NO_FILL
        self._turn = CHANCE
        self._start = -1
        self._marker = -1
        self._moves = 0
        self._next = -1
        self._owed = 0
        self._factories = [[0] * 6 for _ in range(_num_factories(players))]
        self._centre = [0] * 6
        self._supply = [0] * 6
        self._refill = [0] * 6
        self._bag = [TILES_PER_COLOUR] * 6
        self._tower = [0] * 6
        self._prefill_bag = [TILES_PER_COLOUR] * 6
        self._prefill_tower = [0] * 6
        self._score = [START_SCORE] * players
        self._hand = [[0] * 6 for _ in range(players)]
        self._board = [[-1] * 42 for _ in range(players)]
        self._filled = [0] * players
        self._passed = [False] * players
        self._h_complete = True
        self._h_seed = None if explicit else seed
        self._h_first = -1
        self._h_supply = None
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
        """Replace the generator's state with ``seed``; the record's seed becomes null."""
        self._rng = _check_seed(seed)
        self._h_seed = None
        self._undo = []

    # -- read-only queries --------------------------------------------------------------------

    players = property(lambda self: self._players, doc="Number of players (2-4).")
    variant = property(lambda self: "summer-pavilion")
    seed = property(lambda self: self._seed, doc="The seed the game was made from.")
    round = property(lambda self: self._round, doc="Round number, 1-6.")
    chance_mode = property(lambda self: "explicit" if self._explicit else "sampled")
    phase = property(lambda self: PHASE_NAMES[self._phase],
                     doc="'first-player', 'fill' (chance nodes), 'acquire' (phase 1), 'play' "
                         "(phase 2), 'bonus' (taking bonus tiles) or 'over'.")
    current_player = property(lambda self: self._turn,
                              doc="Seat to move; -1 at a chance node and once the game is over.")
    starting_player = property(lambda self: self._start,
                               doc="Seat that started this round's phase 1 (-1 before it is drawn).")
    is_over = property(lambda self: self._phase == OVER)
    is_chance_node = property(lambda self: self._phase in (FIRST_PLAYER, FILL))
    scores = property(lambda self: list(self._score))
    factories = property(lambda self: [_tiles(f) for f in self._factories])
    center = property(lambda self: _tiles(self._centre), doc="Tiles in the centre.")
    supply = property(lambda self: _tiles(self._supply), doc="The supply's tiles (at most 10).")
    bag = property(lambda self: _tiles(self._bag))
    tower = property(lambda self: _tiles(self._tower), doc="Discarded tiles, poured into an "
                                                            "empty bag.")
    lid = tower
    wild = property(lambda self: SP_COLOURS[min(self._round, ROUNDS) - 1],
                    doc="This round's wild colour.")
    first_player_marker = property(
        lambda self: self._marker,
        doc="-1 while the start token is in the centre, else the seat that took it this round.")
    moves_this_round = property(lambda self: self._moves)
    hands = property(lambda self: [_tiles(h) for h in self._hand],
                     doc="Per player, the tiles beside the board (colour order).")
    passed = property(lambda self: list(self._passed), doc="Per player, passed in this phase 2.")
    bonus_owed = property(lambda self: self._owed,
                          doc="Bonus tiles the current player may still take (phase 'bonus').")

    @property
    def boards(self):
        """Per player, 7 strings of 6 characters (stars O R B Y G P C, spaces 1-6): a colour
        letter or '.' for an empty space."""
        return [["".join("." if b[s * 6 + k] < 0 else SP_COLOURS[b[s * 6 + k]] for k in range(6))
                 for s in range(7)] for b in self._board]

    @property
    def winners(self):
        """Seats sharing the win (the highest score; ties are shared), ascending; empty until
        the game is over."""
        if self._phase != OVER:
            return []
        best = max(self._score)
        return [p for p in range(self._players) if self._score[p] == best]

    # -- copying and comparison ---------------------------------------------------------------

    def clone(self):
        """An independent copy: position, generator and history."""
        other = object.__new__(PavilionState)
        other._players = self._players
        other._explicit = self._explicit
        other._seed = self._seed
        other._rng = self._rng
        other._round = self._round
        other._phase = self._phase
        other._fill = self._fill
        other._turn = self._turn
        other._start = self._start
        other._marker = self._marker
        other._moves = self._moves
        other._next = self._next
        other._owed = self._owed
        other._h_complete = self._h_complete
        other._h_seed = self._h_seed
        other._h_first = self._h_first
        other._h_supply = self._h_supply
        copies = list.copy
        other._factories = list(map(copies, self._factories))
        other._hand = list(map(copies, self._hand))
        other._board = list(map(copies, self._board))
        other._centre = self._centre[:]
        other._supply = self._supply[:]
        other._refill = self._refill[:]
        other._bag = self._bag[:]
        other._tower = self._tower[:]
        other._prefill_bag = self._prefill_bag[:]
        other._prefill_tower = self._prefill_tower[:]
        other._score = self._score[:]
        other._filled = self._filled[:]
        other._passed = self._passed[:]
        other._h_rounds = _pycommon.copy_rounds(self._h_rounds)
        other._sheet = None
        other._undo = self._undo[:]  # entries are never changed: _restore copies out of them
        other._lock = _new_lock()
        return other

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    # -- undo and position keys (native/include/azul/common/undo.h, pavilion/key.h) -----------

    def _undo_entry(self, action):
        """What undo() restores before ``action``: the position and the history's end."""
        copies = list.copy
        return (action, _pycommon.history_mark(self._h_rounds), self._h_first, self._h_supply,
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
        _pycommon.restore_history(self._h_rounds, mark)

    def undo(self):
        """Take back the last :meth:`apply` (a move or a chance outcome): the position, the
        generator and the history become exactly what they were before it.  Raises
        :class:`IllegalMoveError` when there is nothing to take back: no move applied since the
        state was made, read from text (or unpickled), or since the last :meth:`deal`,
        :meth:`deal_supply` (also applied as a '~' refill) or :meth:`reseed`, which start a new
        undo history.  :meth:`clone` keeps the undo history."""
        _pycommon.undo(self)

    def key(self):
        """A 64-bit key of the position (README "Position keys"), the same in both engines:
        what decides the rest of the game apart from chance, and the player to move; not the
        history, the moves-this-round count, the seed or the generator."""
        words = [2, self._players, int(self._explicit), self._round, self._phase, self._fill,
                 self._turn, self._start, self._marker, self._next, self._owed]
        for f in self._factories:
            words += f
        words += self._centre
        words += self._supply
        words += self._refill
        words += self._bag
        words += self._tower
        for p in range(self._players):
            words.append(self._score[p])
            words += self._hand[p]
            words += self._board[p]
            words.append(int(self._passed[p]))
        return _pycommon.position_key(words)

    def __hash__(self):
        return hash(self.key())

    def _key(self):
        return (self._players, self._explicit, self._seed, self._rng, self._round, self._phase,
                self._fill, self._turn, self._start, self._marker, self._moves, self._next,
                self._owed, self._factories, self._centre, self._supply, self._refill,
                self._bag, self._tower, self._prefill_bag, self._prefill_tower, self._score,
                self._hand, self._board, self._passed)

    def __eq__(self, other):
        if not isinstance(other, PavilionState):
            return NotImplemented
        return self._key() == other._key()


    def __reduce__(self):
        return (_from_text, (self.to_text(history=True),))

    def __repr__(self):
        return "from_text(%r)" % self.to_text()

    # -- move generation ----------------------------------------------------------------------

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
        if phase == FILL:
            return [SP_DRAW_ACTION_BASE + c for c in range(6) if self._bag[c]]
        if phase == FIRST_PLAYER:
            return [SP_FIRST_PLAYER_ACTION_BASE + p for p in range(self._players)]
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

    def observation_tensor(self, player=None):
        """The state as seen by ``player`` (default: the player to move; seat 0 at a chance node or
        after the end): a float32 numpy array of shape ``observation_shape(players,
        "summer-pavilion")`` = ``(87 * players + 97,)``.

        Perspective-relative: block k describes seat ``(player + k) % players``, the observer first.
        Each seat block has 87 values: space s (``star * 6 + number - 1``, stars O R B Y G P C)
        covered at s (42), centre space k holding colour c at ``42 + 6k + c`` (36), tiles in hand of
        colour c at 78 + c (/ 22), score / 100 at 84, passed at 85, holds the start token at 86.
        Then 97 shared values: factory f colour c at ``6f + c`` (/ 4; 9 factories), centre colour c
        at 54 + c (/ 22), the start token still in the centre at 60, supply colour c at 61 + c
        (/ 10), bag and tower colour c at 67 + c and 73 + c (/ 22), round / 6 at 79, the wild
        colour one-hot at 80-85, the phase one-hot at 86-91 (first-player, fill, acquire, play,
        bonus, over), bonus tiles owed / 18 at 92, and the round's starting seat relative to the
        observer one-hot at 93-96.
        """
        import numpy as np

        player = self._observer(player)
        n = self._players
        out = np.zeros(SEAT_FEATURES * n + SHARED_FEATURES, dtype=np.float32)
        for k in range(n):
            seat = (player + k) % n
            base = SEAT_FEATURES * k
            board = self._board[seat]
            for s in range(42):
                if board[s] >= 0:
                    out[base + s] = 1.0
                    if s >= 36:
                        out[base + 42 + 6 * (s - 36) + board[s]] = 1.0
            for c in range(6):
                out[base + 78 + c] = self._hand[seat][c] / 22
            out[base + 84] = self._score[seat] / 100
            out[base + 85] = 1.0 if self._passed[seat] else 0.0
            out[base + 86] = 1.0 if self._marker == seat else 0.0
        base = SEAT_FEATURES * n
        for f, tiles in enumerate(self._factories):
            for c in range(6):
                out[base + 6 * f + c] = tiles[c] / 4
        for c in range(6):
            out[base + 54 + c] = self._centre[c] / 22
            out[base + 61 + c] = self._supply[c] / 10
            out[base + 67 + c] = self._bag[c] / 22
            out[base + 73 + c] = self._tower[c] / 22
        out[base + 60] = 1.0 if self._marker < 0 and self._phase == ACQUIRE else 0.0
        out[base + 79] = self._round / 6
        out[base + 80 + self._round - 1] = 1.0
        out[base + 86 + self._phase] = 1.0
        out[base + 92] = self._owed / 18
        if self._start >= 0:
            out[base + 93 + (self._start - player) % n] = 1.0
        return out

    def _observer(self, player):
        return _pycommon.observer(player, self._turn, self._players)

    def chance_outcomes(self):
        """At a chance node, ``(action, probability)`` pairs in action order."""
        if self._phase == FILL:
            total = sum(self._bag)
            return [(SP_DRAW_ACTION_BASE + c, self._bag[c] / total)
                    for c in range(6) if self._bag[c]]
        if self._phase == FIRST_PLAYER:
            return [(SP_FIRST_PLAYER_ACTION_BASE + p, 1.0 / self._players)
                    for p in range(self._players)]
        raise IllegalMoveError("not a chance node (phase %s)" % PHASE_NAMES[self._phase])

    def action_to_string(self, action):
        """Notation of an action id."""
        return _action_text(_pycommon.check_action(action, SP_NUM_ACTIONS))

    def string_to_action(self, text):
        """Action id of a notation string (a refill of several tiles, '~BR', has none: pass it
        to :meth:`apply` or :meth:`deal_supply`)."""
        action, counts = _parse_move(text)
        if counts is not None:
            raise IllegalMoveError("%r draws several tiles, which no single action id does; "
                                   "apply it as a move or use deal_supply" % text)
        return action

    # -- moves --------------------------------------------------------------------------------

    def apply(self, move):
        """Play a move: an action id or a notation string (a several-tile refill '~BR' at a
        supply chance node is :meth:`deal_supply`).  Raises :class:`IllegalMoveError` naming
        the rule broken, and then leaves the state unchanged."""
        with self._lock:
            if type(move) is int and 0 <= move < SP_NUM_ACTIONS:
                action = move
            elif isinstance(move, str):
                action, counts = _parse_move(move)
                if counts is not None:
                    self._deal_supply(counts)
                    return
            else:
                action = _pycommon.check_action(move, SP_NUM_ACTIONS)
            self._check_legal(action)
            undo = self._undo
            if len(undo) & 15:  # _pycommon.UNDO_EVERY - 1
                undo.append(action)
            else:
                undo.append(self._undo_entry(action))
            self._play(action)

    def _check_legal(self, action):
        phase = self._phase
        # The common cases first: an acquire or a placement that is legal (anything else goes on
        # to the checks below, which name the rule).
        if phase == ACQUIRE and action < SP_PLACE_ACTION_BASE:
            source, c = divmod(action, 6)
            if source == CENTRE:
                tiles = self._centre
            elif source < len(self._factories):
                tiles = self._factories[source]
            else:
                tiles = None
            if tiles is not None and tiles[c]:
                wild = self._round - 1
                if c != wild or sum(tiles) == tiles[c]:
                    return
        elif phase == PLAY and SP_PLACE_ACTION_BASE <= action < SP_BONUS_ACTION_BASE:
            space, c, w, cost = _PLACE_PARTS[action - SP_PLACE_ACTION_BASE]
            p = self._turn
            board, hand = self._board[p], self._hand[p]
            if board[space] < 0 and (c == STAR_COLOUR[space // 6] if space < 36
                                     else c not in board[36:42]):
                wild = self._round - 1
                if c == wild:
                    if not w and hand[c] >= cost:
                        return
                elif w < cost and hand[c] >= cost - w and hand[wild] >= w:
                    return
        if phase == OVER:
            raise IllegalMoveError("game is over")
        if phase in (FIRST_PLAYER, FILL):
            if phase == FILL and SP_DRAW_ACTION_BASE <= action < SP_FIRST_PLAYER_ACTION_BASE:
                c = action - SP_DRAW_ACTION_BASE
                if not self._bag[c]:
                    raise IllegalMoveError("the bag has no %s" % SP_COLOUR_NAMES[c])
                return
            if phase == FIRST_PLAYER and action >= SP_FIRST_PLAYER_ACTION_BASE:
                seat = action - SP_FIRST_PLAYER_ACTION_BASE
                if seat >= self._players:
                    raise IllegalMoveError("seat %d does not exist with %d players"
                                           % (seat, self._players))
                return
            what = "the first player" if phase == FIRST_PLAYER else "a tile from the bag"
            raise IllegalMoveError("this is a chance node (%s is drawn); apply one of its "
                                   "outcomes" % what)
        if action >= SP_DRAW_ACTION_BASE:
            raise IllegalMoveError("action %d is a chance outcome, and this is not a chance "
                                   "node" % action)
        p = self._turn
        if phase == ACQUIRE:
            if action >= SP_PLACE_ACTION_BASE:
                raise IllegalMoveError("phase 1 (acquire): take tiles from a factory or the "
                                       "centre, as in 3R or CG")
            self._check_acquire(action)
        elif phase == BONUS:
            if not SP_BONUS_ACTION_BASE <= action < SP_PASS_ACTION_BASE:
                raise IllegalMoveError("player %d takes %d more bonus tile%s from the supply "
                                       "first (+ and a colour)"
                                       % (p, self._owed, "" if self._owed == 1 else "s"))
            c = action - SP_BONUS_ACTION_BASE
            if not self._supply[c]:
                raise IllegalMoveError("the supply has no %s" % SP_COLOUR_NAMES[c])
        else:  # PLAY
            if action < SP_PLACE_ACTION_BASE:
                raise IllegalMoveError("phase 2 (play): phase 1 is over; place a tile or pass")
            if action < SP_BONUS_ACTION_BASE:
                self._check_place(action)
            elif action < SP_PASS_ACTION_BASE:
                raise IllegalMoveError("no bonus tile is owed: bonus tiles are taken right "
                                       "after a placement completes an ornament")
            else:
                keep = _KEEPS[action - SP_PASS_ACTION_BASE]
                hand = self._hand[p]
                for c in range(6):
                    if keep[c] > hand[c]:
                        raise IllegalMoveError("player %d cannot keep %d %s: they have %d"
                                               % (p, keep[c], SP_COLOUR_NAMES[c], hand[c]))

    def _check_acquire(self, action):
        source, c = divmod(action, 6)
        wild = self._round - 1
        if source == CENTRE:
            tiles, where = self._centre, "the centre"
        else:
            nf = len(self._factories)
            if source >= nf:
                raise IllegalMoveError("factory %d does not exist with %d players (factories "
                                       "1-%d)" % (source + 1, self._players, nf))
            tiles, where = self._factories[source], "factory %d" % (source + 1)
            if not any(tiles):
                raise IllegalMoveError("factory %d is empty" % (source + 1))
        if not tiles[c]:
            raise IllegalMoveError("%s has no %s" % (where, SP_COLOUR_NAMES[c]))
        if c == wild and any(tiles[x] for x in range(6) if x != wild):
            raise IllegalMoveError("%s is this round's wild colour: it cannot be chosen while "
                                   "%s holds other colours (one wild tile comes with them)"
                                   % (SP_COLOUR_NAMES[c], where))

    def _check_place(self, action):
        p = self._turn
        a = action - SP_PLACE_ACTION_BASE
        space, rest = divmod(a, 36)
        c, w = divmod(rest, 6)
        star, k = divmod(space, 6)
        cost = k + 1
        where = "%s star space %d" % (SP_STAR_NAMES[star], cost)
        board, hand = self._board[p], self._hand[p]
        wild = self._round - 1
        name = SP_COLOUR_NAMES[c]
        if board[space] >= 0:
            raise IllegalMoveError("%s is already covered" % where)
        if star < 6:
            if c != STAR_COLOUR[star]:
                raise IllegalMoveError("the %s star takes only %s tiles"
                                       % (SP_STAR_NAMES[star], SP_COLOUR_NAMES[STAR_COLOUR[star]]))
        elif c in board[36:42]:
            raise IllegalMoveError("the centre star already holds %s: its six tiles must all "
                                   "differ" % name)
        if c == wild:
            if w:
                raise IllegalMoveError("%s is this round's wild colour: placing it pays all %d "
                                       "tiles in %s, written with 0 wild tiles" % (name, cost, name))
            if hand[c] < cost:
                raise IllegalMoveError("%s costs %d %s; player %d has %d" % (where, cost, name,
                                                                          p, hand[c]))
            return
        if w >= cost:
            raise IllegalMoveError("%s costs %d tiles: at most %d of them wild, since one real %s "
                                   "tile is placed" % (where, cost, cost - 1, name))
        if hand[c] < cost - w:
            raise IllegalMoveError("%s with %d wild tile%s needs %d %s; player %d has %d"
                                   % (where, w, "" if w == 1 else "s", cost - w, name, p, hand[c]))
        if hand[wild] < w:
            raise IllegalMoveError("player %d has %d wild tile%s (%s), not %d"
                                   % (p, hand[wild], "" if hand[wild] == 1 else "s",
                                      SP_COLOUR_NAMES[wild], w))

    def _play(self, action):
        """Apply a legal action (unchecked), writing it to the history."""
        phase = self._phase
        if phase == FILL:
            self._put_drawn(action - SP_DRAW_ACTION_BASE)
            self._continue_fill()
            return
        if phase == FIRST_PLAYER:
            self._start = action - SP_FIRST_PLAYER_ACTION_BASE
            self._h_first = self._start
            self._begin_setup()
            return
        if self._h_complete:
            self._h_rounds[-1][1].append(_ACTION_TEXT[action])
        self._moves += 1
        if phase == ACQUIRE:
            self._acquire(action)
        elif phase == PLAY:
            if action < SP_BONUS_ACTION_BASE:
                self._place(action)
            else:
                self._pass(_KEEPS[action - SP_PASS_ACTION_BASE])
        else:  # BONUS
            p = self._turn
            c = action - SP_BONUS_ACTION_BASE
            self._supply[c] -= 1
            self._hand[p][c] += 1
            self._owed -= 1
            if self._sheet is not None:
                self._sheet[-1].append({"event": "bonus-tile", "player": p,
                                        "colour": SP_COLOURS[c]})
            if not self._owed or not any(self._supply):
                self._owed = 0  # what the supply cannot give is lost
                self._end_turn(p)

    def _acquire(self, action):
        source, c = divmod(action, 6)
        p = self._turn
        wild = self._round - 1
        tiles = self._centre if source == CENTRE else self._factories[source]
        hand = self._hand[p]
        taken_wild = 1 if tiles[wild] else 0
        taken = 0 if c == wild else tiles[c]
        if c != wild:
            hand[c] += taken
            tiles[c] = 0
        hand[wild] += taken_wild
        tiles[wild] -= taken_wild
        taken += taken_wild
        if source == CENTRE:
            if self._marker < 0:
                self._marker = p
                before = self._score[p]
                after = before - taken if before - taken > MIN_SCORE else MIN_SCORE
                self._score[p] = after
                if self._sheet is not None:
                    self._sheet[-1].append({"event": "start-token", "player": p, "tiles": taken,
                                            "before": before, "after": after})
        else:
            for x in range(6):
                self._centre[x] += tiles[x]
                tiles[x] = 0
        if any(self._centre) or any(map(any, self._factories)):
            self._turn = (p + 1) % self._players
        else:
            self._phase = PLAY
            self._turn = self._marker if self._marker >= 0 else self._start

    def _place(self, action):
        p = self._turn
        a = action - SP_PLACE_ACTION_BASE
        space, rest = divmod(a, 36)
        c, w = divmod(rest, 6)
        cost = space % 6 + 1
        wild = self._round - 1
        hand = self._hand[p]
        hand[c] -= cost - w
        hand[wild] -= w
        self._tower[c] += cost - w - 1
        self._tower[wild] += w
        self._board[p][space] = c
        filled = self._filled[p] | 1 << space
        self._filled[p] = filled
        run = _run_length(filled, space)
        before = self._score[p]
        self._score[p] = before + run
        owed = 0
        done = []
        for i in _ORNAMENTS_OF[space]:
            m = _ORNAMENT_MASK[i]
            if filled & m == m:
                owed += ORNAMENTS[i][3]
                done.append(i)
        if self._sheet is not None:
            self._sheet[-1].append({
                "event": "place", "player": p, "star": SP_STARS[space // 6],
                "space": cost, "colour": SP_COLOURS[c], "wilds": w, "run": run, "points": run,
                "before": before, "after": before + run,
                "ornaments": [ornament_name(i) for i in done], "bonus_tiles": owed})
        if owed and any(self._supply):
            self._owed = owed
            self._phase = BONUS
            return
        self._end_turn(p)

    def _pass(self, keep):
        p = self._turn
        hand = self._hand[p]
        discarded = 0
        for c in range(6):
            d = hand[c] - keep[c]
            discarded += d
            self._tower[c] += d
            hand[c] = keep[c]
        before = self._score[p]
        after = before - discarded if before - discarded > MIN_SCORE else MIN_SCORE
        self._score[p] = after
        self._passed[p] = True
        if self._sheet is not None:
            self._sheet[-1].append({"event": "pass", "player": p, "kept": _tiles(keep),
                                    "discarded": discarded, "before": before, "after": after})
        self._end_turn(p)

    def _end_turn(self, p):
        """After a phase-2 turn: the next player who has not passed, then the supply refill
        (except after the game's very last turn)."""
        self._phase = PLAY
        n = self._players
        nxt = -1
        for i in range(1, n + 1):
            q = (p + i) % n
            if not self._passed[q]:
                nxt = q
                break
        if nxt < 0:
            if self._h_complete:
                self._h_rounds[-1][2] = self._score[:]
            if self._round == ROUNDS:
                self._finish()
                return
        self._next = nxt
        self._phase = FILL
        self._fill = FILL_REFILL
        self._turn = CHANCE
        self._continue_fill()

    def _finish(self):
        """End of round 6: star and number bonuses, then -1 per tile still kept."""
        for p in range(self._players):
            filled = self._filled[p]
            stars = [s for s in range(7) if filled & _STAR_MASK[s] == _STAR_MASK[s]]
            numbers = [n for n in range(4) if filled & _NUMBER_MASK[n] == _NUMBER_MASK[n]]
            gain = sum(STAR_BONUS[s] for s in stars) + sum(NUMBER_BONUS[n] for n in numbers)
            before = self._score[p]
            kept = sum(self._hand[p])
            after = before + gain - kept if before + gain - kept > MIN_SCORE else MIN_SCORE
            self._score[p] = after
            if self._sheet is not None:
                self._sheet[-1].append({
                    "event": "end", "player": p, "stars": "".join(SP_STARS[s] for s in stars),
                    "star_points": sum(STAR_BONUS[s] for s in stars),
                    "numbers": [n + 1 for n in numbers],
                    "number_points": sum(NUMBER_BONUS[n] for n in numbers),
                    "kept": kept, "before": before, "after": after})
        self._phase = OVER
        self._turn = CHANCE
        self._next = -1

    # -- filling the supply and the factories -------------------------------------------------

    def _begin_setup(self):
        self._phase = FILL
        self._fill = FILL_SETUP
        self._turn = CHANCE
        self._continue_fill()

    def _start_round(self):
        self._prefill_bag = self._bag[:]
        self._prefill_tower = self._tower[:]
        self._marker = -1
        self._moves = 0
        self._passed = [False] * self._players
        self._phase = FILL
        self._fill = FILL_FACTORIES
        self._turn = CHANCE
        self._continue_fill()

    def _put_drawn(self, c):
        self._bag[c] -= 1
        if self._fill == FILL_FACTORIES:
            for f in self._factories:
                if sum(f) < 4:
                    f[c] += 1
                    return
        else:
            self._supply[c] += 1
            if self._fill == FILL_REFILL:
                self._refill[c] += 1

    def _continue_fill(self):
        """Draw until the supply (or every factory) is full, pouring the tower into the bag
        only when the bag is empty; with both empty, go on with what was drawn.  In explicit
        chance mode, stop at each draw."""
        bag = self._bag
        total = sum(bag)
        factories = self._fill == FILL_FACTORIES
        if factories:
            need = 4 * len(self._factories) - sum(map(sum, self._factories))
        else:
            need = SUPPLY_SIZE - sum(self._supply)
        explicit = self._explicit
        rng = self._rng
        # Where the drawn tiles go (cf. _put_drawn): the first factory not yet full, or the supply.
        facs, supply = self._factories, self._supply
        refill = self._refill if self._fill == FILL_REFILL else None
        f = 0
        while need:
            if not total:
                for c in range(6):
                    bag[c] += self._tower[c]
                    self._tower[c] = 0
                total = sum(bag)
                if not total:
                    break
            if explicit:
                return
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
            if factories:
                while sum(facs[f]) >= 4:
                    f += 1
                facs[f][c] += 1
            else:
                supply[c] += 1
                if refill is not None:
                    refill[c] += 1
            total -= 1
            need -= 1
        self._rng = rng
        self._fill_done()

    def _fill_done(self):
        fill = self._fill
        self._fill = NO_FILL
        if fill == FILL_SETUP:
            if self._h_complete:
                self._h_supply = _tiles(self._supply)
            self._start_round()
        elif fill == FILL_FACTORIES:
            self._phase = ACQUIRE
            self._turn = self._start
            if self._h_complete:
                self._h_rounds.append([[_tiles(f) for f in self._factories], [], None])
            if self._sheet is not None:
                self._sheet.append([])
            if not any(map(any, self._factories)):
                # Bag and tower were both empty: nothing to acquire, phase 2 starts at once.
                self._phase = PLAY
        else:  # FILL_REFILL
            if any(self._refill):
                if self._h_complete:
                    self._h_rounds[-1][1].append("~" + _tiles(self._refill))
                self._refill = [0] * 6
            if self._next >= 0:
                self._phase = PLAY
                self._turn = self._next
                self._next = -1
            else:
                if self._marker >= 0:
                    self._start = self._marker
                self._round += 1
                self._start_round()

    # -- explicit chance outcomes -------------------------------------------------------------

    def deal(self, factories):
        """Set this round's factory contents (a replay, a physical game): one string per
        factory, colour letters in colour order.  Allowed before the round's first move; the
        tiles come from the bag as it was before this round's fill, the tower poured in only if
        the bag ran out.  Raises IllegalMoveError when impossible, leaving the state unchanged.
        """
        if not ((self._phase == FILL and self._fill == FILL_FACTORIES)
                or (self._phase == ACQUIRE and not self._moves)):
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
            f = _parse_tiles(text, "deal: factory %d" % (i + 1), IllegalMoveError)
            if sum(f) > 4:
                raise IllegalMoveError("deal: factory %d holds %d tiles; a factory holds 4"
                                       % (i + 1, sum(f)))
            counts.append(f)
        bag, tower = self._prefill_bag, self._prefill_tower
        available = sum(bag) + sum(tower)
        for i, f in enumerate(counts):
            want = min(4, max(0, available - 4 * i))
            if sum(f) != want:
                raise IllegalMoveError(
                    "deal: factory %d holds %d tiles, but with %d tiles in bag and tower it "
                    "must hold %d" % (i + 1, sum(f), available, want))
        need = [sum(f[c] for f in counts) for c in range(6)]
        new_bag, new_tower = _draw_multiset(bag, tower, need, "deal")
        self._bag, self._tower = new_bag, new_tower
        self._factories = counts
        self._h_seed = None
        self._undo = []
        if self._phase == ACQUIRE and self._h_complete:
            self._h_rounds.pop()
            if self._sheet is not None:
                self._sheet.pop()
        self._fill = FILL_FACTORIES
        self._fill_done()

    def deal_supply(self, tiles):
        """Fill the supply explicitly: the 10 setup tiles, or a refill after a phase-2 turn
        (the same as applying '~' and the tiles).  ``tiles`` are colour letters in colour
        order; they must be what the bag (and the tower, once the bag ran out) can give, as
        many as the supply has empty spaces unless bag and tower hold fewer.  Allowed at a
        supply chance node before any of its tiles is drawn."""
        if not isinstance(tiles, str):
            raise IllegalMoveError("deal_supply: tiles are a string of colour letters, not %s"
                                   % type(tiles).__name__)
        self._deal_supply(_parse_tiles(tiles, "deal_supply", IllegalMoveError))

    def _deal_supply(self, counts):
        if self._phase != FILL or self._fill == FILL_FACTORIES or any(self._refill) or (
                self._fill == FILL_SETUP and any(self._supply)):
            raise IllegalMoveError("deal_supply: the supply is not waiting to be filled (or "
                                   "some of its tiles are already drawn)")
        room = SUPPLY_SIZE - sum(self._supply)
        available = sum(self._bag) + sum(self._tower)
        want = min(room, available)
        if sum(counts) != want:
            raise IllegalMoveError("deal_supply: %d tiles drawn, but the supply has %d empty "
                                   "spaces and bag and tower hold %d, so %d are drawn"
                                   % (sum(counts), room, available, want))
        new_bag, new_tower = _draw_multiset(self._bag, self._tower, counts, "deal_supply")
        self._bag, self._tower = new_bag, new_tower
        for c in range(6):
            self._supply[c] += counts[c]
            if self._fill == FILL_REFILL:
                self._refill[c] += counts[c]
        self._h_seed = None
        self._undo = []
        self._fill_done()

    # -- state text ---------------------------------------------------------------------------

    def to_text(self, history=False):
        """The position and generator as one versioned line; see :func:`from_text`.  With
        ``history=True`` the game's history follows."""
        out = ["azul-state/1", "variant=summer-pavilion",
               "players=%d" % self._players,
               "chance=" + ("explicit" if self._explicit else "sampled"),
               "seed=%d" % self._seed,
               "rng=%016x" % self._rng,
               "round=%d" % self._round,
               "phase=" + PHASE_NAMES[self._phase],
               "fill=" + FILL_NAMES[self._fill],
               "turn=%d" % self._turn,
               "start=%d" % self._start,
               "marker=" + ("C" if self._marker < 0 else str(self._marker)),
               "moves=%d" % self._moves,
               "next=%d" % self._next,
               "owed=%d" % self._owed,
               "factories=" + ",".join(_tiles(f) or "-" for f in self._factories),
               "center=" + (_tiles(self._centre) or "-"),
               "supply=" + (_tiles(self._supply) or "-"),
               "refill=" + (_tiles(self._refill) or "-"),
               "bag=" + _counts(self._bag),
               "tower=" + _counts(self._tower),
               "prefill=" + _counts(self._prefill_bag) + "/" + _counts(self._prefill_tower)]
        boards = self.boards
        for p in range(self._players):
            out.append("p%d=%d:%s:%s:%d" % (p, self._score[p], _tiles(self._hand[p]) or "-",
                                            "/".join(boards[p]), 1 if self._passed[p] else 0))
        if history:
            out.append("history=%s:%d:%d:%s" % (
                "-" if self._h_seed is None else str(self._h_seed), self._h_first,
                1 if self._h_complete else 0,
                "*" if self._h_supply is None else (self._h_supply or "-")))
            out.extend(_pycommon.rounds_text(self._h_rounds))
        return " ".join(out)

    from_text = staticmethod(lambda text: _from_text(text))

    # -- history and records ------------------------------------------------------------------

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
            "rounds": _pycommon.record_rounds(self._h_rounds),
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
        g = PavilionState._blank(self._players, True, 0)
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

    # -- a readable board ---------------------------------------------------------------------

    def __str__(self):
        lines = ["Azul: Summer Pavilion, %d players, round %d (wild %s), phase %s, %s"
                 % (self._players, self._round, SP_COLOUR_NAMES[min(self._round, ROUNDS) - 1],
                    PHASE_NAMES[self._phase],
                    "game over" if self._phase == OVER else
                    ("chance" if self._turn < 0 else "player %d to move" % self._turn))]
        lines.append("factories: " + " ".join("%d:%s" % (i + 1, _tiles(f) or "-")
                                              for i, f in enumerate(self._factories)))
        lines.append("centre: %s%s   supply: %s   bag %d, tower %d"
                     % ("token " if self._marker < 0 and self._phase == ACQUIRE else "",
                        _tiles(self._centre) or "-", _tiles(self._supply) or "-",
                        sum(self._bag), sum(self._tower)))
        boards = self.boards
        for p in range(self._players):
            lines.append("player %d: score %d%s%s, tiles %s" % (
                p, self._score[p], ", start token" if self._marker == p else "",
                ", passed" if self._passed[p] else "", _tiles(self._hand[p]) or "-"))
            lines.append("  " + "  ".join("%s:%s" % (SP_STARS[s], boards[p][s]) for s in range(7)))
        return "\n".join(lines)


# Every call is atomic across threads.  Left alone: apply and legal_actions (they lock for
# themselves), the properties that never change, and is_over (the end is written last).
_pycommon.make_atomic(PavilionState, unlocked=(
    "apply", "legal_actions", "players", "variant", "seed", "chance_mode", "is_over"))


def _draw_multiset(bag, tower, need, what):
    """Bag and tower after drawing the multiset ``need``: from the bag alone, or (when it is not
    enough) the whole bag, the tower poured in, and the rest from there."""
    if all(need[c] <= bag[c] for c in range(6)):
        return [bag[c] - need[c] for c in range(6)], tower[:]
    for c in range(6):
        if need[c] < bag[c]:
            raise IllegalMoveError(
                "%s: the bag held %d %s, more than drawn, so the tower cannot have been poured "
                "in, yet the bag alone cannot give these tiles" % (what, bag[c], SP_COLOUR_NAMES[c]))
        if need[c] > bag[c] + tower[c]:
            raise IllegalMoveError("%s: %d %s drawn, but bag and tower hold only %d"
                                   % (what, need[c], SP_COLOUR_NAMES[c], bag[c] + tower[c]))
    return [bag[c] + tower[c] - need[c] for c in range(6)], [0] * 6


def _counts(counts):
    return ",".join(str(n) for n in counts)


def new_game(players, seed, explicit):
    """A new Summer Pavilion game (arguments checked by the caller)."""
    g = PavilionState._blank(players, explicit, seed)
    if not explicit:
        g._start = g._below(players)
        g._h_first = g._start
        g._begin_setup()
    return g


# ---------------------------------------------------------------------------------------------
# Reading state text (native/src/pavilion_text.cpp)
# ---------------------------------------------------------------------------------------------

_FIELDS = ("variant", "players", "chance", "seed", "rng", "round", "phase", "fill", "turn",
           "start", "marker", "moves", "next", "owed", "factories", "center", "supply", "refill",
           "bag", "tower", "prefill")


def _int_field(fields, key, lo, hi):
    value = fields[key]
    body = value[1:] if value[:1] == "-" else value
    if not _is_uint(body) or len(value) > 21 or not lo <= int(value) <= hi:
        raise StateFormatError("field %s: %r is not an integer in %d..%d" % (key, value, lo, hi))
    return int(value)


def _count_list(value, key):
    parts = value.split(",")
    if len(parts) != 6 or not all(_is_uint(x) and len(x) <= 3 for x in parts):
        raise StateFormatError("field %s: %r is not 6 tile counts" % (key, value))
    counts = [int(x) for x in parts]
    if any(n > TILES_PER_COLOUR for n in counts):
        raise StateFormatError("field %s: a count above %d" % (key, TILES_PER_COLOUR))
    return counts


def _tile_field(value, what, limit):
    counts = _parse_tiles(value, what)
    if sum(counts) > limit:
        raise StateFormatError("%s: more than %d tiles" % (what, limit))
    return counts


def _from_text(text):
    """Read a Summer Pavilion state written by ``to_text`` (the caller checked the header)."""
    if not isinstance(text, str):
        raise TypeError("state text must be a str, not %s" % type(text).__name__)
    tokens = text.split()
    if not tokens or tokens[0] != "azul-state/1":
        raise StateFormatError("not an Azul state: the text must start with azul-state/1")
    fields, order = _pycommon.key_values(tokens[1:])
    for key in _FIELDS:
        if key not in fields:
            raise StateFormatError("field %s is missing" % key)
    if fields["variant"] != "summer-pavilion":
        raise StateFormatError("field variant: %r is not summer-pavilion" % fields["variant"])
    players = _int_field(fields, "players", 2, 4)
    if fields["chance"] not in ("sampled", "explicit"):
        raise StateFormatError("field chance: %r is not sampled or explicit" % fields["chance"])
    seed = _int_field(fields, "seed", 0, _MASK64)
    rng_text = fields["rng"]
    if len(rng_text) != 16 or any(ch not in "0123456789abcdef" for ch in rng_text):
        raise StateFormatError("field rng: %r is not 16 lower-case hex digits" % rng_text)
    g = PavilionState._blank(players, fields["chance"] == "explicit", seed)
    g._rng = int(rng_text, 16)
    g._round = _int_field(fields, "round", 1, ROUNDS)
    if fields["phase"] not in PHASE_NAMES:
        raise StateFormatError("field phase: unknown phase %r" % fields["phase"])
    g._phase = PHASE_NAMES.index(fields["phase"])
    if fields["fill"] not in FILL_NAMES:
        raise StateFormatError("field fill: %r is not -, setup, factories or refill"
                               % fields["fill"])
    g._fill = FILL_NAMES.index(fields["fill"])
    g._turn = _int_field(fields, "turn", -1, players - 1)
    g._start = _int_field(fields, "start", -1, players - 1)
    g._marker = -1 if fields["marker"] == "C" else _int_field(fields, "marker", 0, players - 1)
    g._moves = _int_field(fields, "moves", 0, 10 ** 6)
    g._next = _int_field(fields, "next", -1, players - 1)
    g._owed = _int_field(fields, "owed", 0, 18)
    facs = fields["factories"].split(",")
    nf = _num_factories(players)
    if len(facs) != nf:
        raise StateFormatError("field factories: %d players have %d factories, not %d"
                               % (players, nf, len(facs)))
    for i, f in enumerate(facs):
        g._factories[i] = _tile_field(f, "field factories, factory %d" % (i + 1), 4)
    g._centre = _tile_field(fields["center"], "field center", 4 * nf)
    g._supply = _tile_field(fields["supply"], "field supply", SUPPLY_SIZE)
    g._refill = _tile_field(fields["refill"], "field refill", SUPPLY_SIZE)
    g._bag = _count_list(fields["bag"], "bag")
    g._tower = _count_list(fields["tower"], "tower")
    pre = fields["prefill"].split("/")
    if len(pre) != 2:
        raise StateFormatError("field prefill: %r is not bag counts/tower counts"
                               % fields["prefill"])
    g._prefill_bag = _count_list(pre[0], "prefill")
    g._prefill_tower = _count_list(pre[1], "prefill")
    for p in range(players):
        key = "p%d" % p
        if key not in fields:
            raise StateFormatError("field %s is missing" % key)
        _read_player(g, p, key, fields[key])
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
        g._h_complete = g._phase == FIRST_PLAYER
        g._h_seed = None
        g._h_first = g._start
    return g


def _read_player(g, p, key, value):
    parts = value.split(":")
    if len(parts) != 4:
        raise StateFormatError("field %s: %r is not score:tiles:board:passed" % (key, value))
    score_text, hand_text, board_text, passed_text = parts
    if not _is_uint(score_text) or len(score_text) > 6 or int(score_text) < MIN_SCORE:
        raise StateFormatError("field %s: score %r is not a whole number of 1 or more"
                               % (key, score_text))
    g._score[p] = int(score_text)
    g._hand[p] = _tile_field(hand_text, "field %s, tiles" % key, 6 * TILES_PER_COLOUR)
    stars = board_text.split("/")
    if len(stars) != 7 or any(len(s) != 6 for s in stars):
        raise StateFormatError("field %s: board %r is not 7 stars of 6 spaces" % (key, board_text))
    board = g._board[p]
    for s, text in enumerate(stars):
        for k, ch in enumerate(text):
            if ch == ".":
                continue
            c = SP_COLOURS.find(ch)
            if c < 0:
                raise StateFormatError("field %s: star %s space %d has %r, not a colour or '.'"
                                       % (key, SP_STARS[s], k + 1, ch))
            if s < 6 and c != STAR_COLOUR[s]:
                raise StateFormatError("field %s: the %s star cannot hold %s"
                                       % (key, SP_STAR_NAMES[s], SP_COLOUR_NAMES[c]))
            if s == CENTRE_STAR and c in board[36:42]:
                raise StateFormatError("field %s: the centre star holds %s twice"
                                       % (key, SP_COLOUR_NAMES[c]))
            board[s * 6 + k] = c
            g._filled[p] |= 1 << (s * 6 + k)
    if passed_text not in ("0", "1"):
        raise StateFormatError("field %s: passed %r is not 0 or 1" % (key, passed_text))
    g._passed[p] = passed_text == "1"


def _check_consistency(g):
    totals = [g._bag[c] + g._tower[c] + g._centre[c] + g._supply[c]
              + sum(f[c] for f in g._factories) + sum(h[c] for h in g._hand)
              + sum(1 for b in g._board for x in b if x == c) for c in range(6)]
    for c in range(6):
        if totals[c] != TILES_PER_COLOUR:
            raise StateFormatError("tile count: %d %s tiles in the game, not %d"
                                   % (totals[c], SP_COLOUR_NAMES[c], TILES_PER_COLOUR))
    phase, fill = g._phase, g._fill
    chance = phase in (FIRST_PLAYER, FILL, OVER)
    if chance and g._turn != CHANCE:
        raise StateFormatError("field turn: %d, but nobody moves in phase %s"
                               % (g._turn, PHASE_NAMES[phase]))
    if not chance and g._turn < 0:
        raise StateFormatError("field turn: a player moves in phase %s" % PHASE_NAMES[phase])
    if (phase == FILL) != (fill != NO_FILL):
        raise StateFormatError("field fill: %s does not fit phase %s"
                               % (FILL_NAMES[fill], PHASE_NAMES[phase]))
    if phase != FIRST_PLAYER and g._start < 0:
        raise StateFormatError("field start: no starting player in phase %s" % PHASE_NAMES[phase])
    if phase == FIRST_PLAYER and (g._start >= 0 or any(t != TILES_PER_COLOUR for t in g._bag)):
        raise StateFormatError("phase first-player: the game has not started, yet tiles or a "
                               "starting player are set")
    if (phase == BONUS) != (g._owed > 0):
        raise StateFormatError("field owed: %d bonus tiles owed in phase %s"
                               % (g._owed, PHASE_NAMES[phase]))
    if phase == BONUS and not any(g._supply):
        raise StateFormatError("phase bonus: the supply is empty")
    if phase in (PLAY, BONUS) and g._passed[g._turn]:
        raise StateFormatError("field turn: player %d has passed" % g._turn)
    on_offer = any(g._centre) or any(map(any, g._factories))
    if phase == ACQUIRE and not on_offer:
        raise StateFormatError("phase acquire: factories and centre are empty")
    if phase in (PLAY, BONUS) and on_offer:
        raise StateFormatError("phase %s: tiles are still on offer" % PHASE_NAMES[phase])
    if any(g._refill) and fill != FILL_REFILL:
        raise StateFormatError("field refill: tiles drawn by a refill, but fill is %s"
                               % FILL_NAMES[fill])
    if any(g._refill[c] > g._supply[c] for c in range(6)):
        raise StateFormatError("field refill: more tiles drawn than the supply holds")
    if fill == FILL_REFILL and g._next >= 0 and g._passed[g._next]:
        raise StateFormatError("field next: player %d has passed" % g._next)
    if fill != FILL_REFILL and g._next != -1:
        raise StateFormatError("field next: only a supply refill has a next player")
    if phase == FILL:
        if fill == FILL_FACTORIES:
            need = 4 * len(g._factories) - sum(map(sum, g._factories))
            if g._marker >= 0 or g._moves:
                raise StateFormatError("fill factories: the round has not started, yet marker "
                                       "or moves are set")
        else:
            need = SUPPLY_SIZE - sum(g._supply)
        if not need or not sum(g._bag):
            raise StateFormatError("phase fill: nothing to draw (the fill is complete or the bag "
                                   "is empty)")
        if fill == FILL_SETUP and (g._round != 1 or any(map(any, g._factories))):
            raise StateFormatError("fill setup: the supply is filled before round 1's factories")
    if phase == OVER and g._round != ROUNDS:
        raise StateFormatError("phase over: the game ends after round %d" % ROUNDS)
    if phase in (ACQUIRE, FILL) and fill != FILL_REFILL and any(g._passed):
        raise StateFormatError("phase %s: no player has passed before phase 2"
                               % PHASE_NAMES[phase])
    if phase == PLAY and all(g._passed):
        raise StateFormatError("phase play: every player has passed")
    if fill == FILL_REFILL and g._next < 0 and not all(g._passed):
        raise StateFormatError("field next: -1 ends the round, but not every player has passed")
    if fill == FILL_REFILL and g._next < 0 and g._round == ROUNDS:
        raise StateFormatError("field next: -1 ends the round, but round %d ends the game "
                               "without a refill" % ROUNDS)


def _read_history(g, fields, keys):
    g._h_seed, g._h_first, g._h_complete, (supply,) = _pycommon.read_history_head(
        fields["history"], g._players, 4, "seed:first:complete:supply")
    if supply == "*":
        g._h_supply = None
    else:
        _tile_field(supply, "field history, supply", SUPPLY_SIZE)
        g._h_supply = "" if supply == "-" else supply
    g._h_rounds = _pycommon.read_rounds(
        fields, keys, g._players, lambda f, what: _tile_field(f, what, 4), _parse_move,
        "history rounds must be r1 ... r6 in order", max_rounds=ROUNDS)
    if g._h_complete and len(g._h_rounds) != (g._round if g._phase not in (
            FIRST_PLAYER, FILL) or g._fill == FILL_REFILL else g._round - 1):
        raise StateFormatError("field history: %d rounds of history for a state in round %d"
                               % (len(g._h_rounds), g._round))


# ---------------------------------------------------------------------------------------------
# Random playouts (native/src/pavilion.cpp, PlayRandom)
# ---------------------------------------------------------------------------------------------

def play_random(g, policy, light=False):
    """Play ``g`` to its end with ``legal_actions()[below(count)]`` from generator state
    ``policy``; explicit chance is drawn from the game's generator.  Returns the moves played.
    ``light``: the light policy (README "Rollout policies") chooses play-phase moves instead."""
    if light:
        return _play_light(g, policy)
    g._h_complete = False  # a playout keeps no history
    if g._explicit:
        g._explicit = False
        if g._phase == FIRST_PLAYER:
            g._start = g._below(g._players)
            g._begin_setup()
        elif g._phase == FILL:
            g._continue_fill()
    plies = 0
    legal_actions, play = g._legal_actions, g._play
    while g._phase != OVER:
        legal = legal_actions()
        # splitmix_next, inlined: rules section 5.
        policy = (policy + 0x9E3779B97F4A7C15) & _MASK64
        z = ((policy ^ (policy >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        play(legal[(((z ^ (z >> 31)) >> 32) * len(legal)) >> 32])
        plies += 1
    return plies


# The light policy passes, while a placement is possible, when below(LIGHT_PASS_ODDS) is 0.
LIGHT_PASS_ODDS = 16
_KEEP_SIZE = tuple(len(k) for k in SP_KEEP_SETS)


def _play_light(g, policy):
    """play_random with the light policy: in the play phase, a placement (one draw: below(16);
    0 passes instead) chosen uniformly (a second draw), and a pass, when one is made, keeps as
    many tiles as possible (uniformly among those passes, one draw); other phases uniform."""
    g._h_complete = False  # a playout keeps no history
    if g._explicit:
        g._explicit = False
        if g._phase == FIRST_PLAYER:
            g._start = g._below(g._players)
            g._begin_setup()
        elif g._phase == FILL:
            g._continue_fill()
    plies = 0
    legal_actions, play = g._legal_actions, g._play
    sizes = _KEEP_SIZE
    while g._phase != OVER:
        if g._phase == PLAY:
            legal = g._placements()
            if legal:
                policy, z = _splitmix_next(policy)
                if (z >> 32) * LIGHT_PASS_ODDS >> 32 == 0:
                    legal = None
            if not legal:
                passes = g._passes()
                most = sizes[passes[-1] - SP_PASS_ACTION_BASE]
                legal = [a for a in passes if sizes[a - SP_PASS_ACTION_BASE] == most]
        else:
            legal = legal_actions()
        policy, z = _splitmix_next(policy)
        play(legal[((z >> 32) * len(legal)) >> 32])
        plies += 1
    return plies
