"""Classic and grey-wall Azul, pure-Python engine: the game state, GameState, composed here: its class body binds, by
name, the methods written in the module of each job (notation, movegen, apply, scoring, round, observation, text,
record, undo, key); those modules never import this one.  new_game, from_text and _from_text, which make states,
are here too; playout.py and ../vector.py use the finished class.

C++ twin: native/include/azul/classic/state.h.
"""


import os


from ..._errors import StateFormatError
from .. import common as _common
from ..common import check_seed as _check_seed, new_lock as _new_lock, splitmix_next as _splitmix_next
from ..pavilion.state import new_game as _pavilion_new_game
from . import (
    apply as _apply_py,
    key as _key_py,
    movegen as _movegen_py,
    notation as _notation_py,
    observation as _observation_py,
    record as _record_py,
    round as _round_py,
    scoring as _scoring_py,
    text as _text_py,
    undo as _undo_py,
)
from .notation import _tiles_to_str
from .types import (
    CHANCE,
    COLOURS,
    FILL,
    FIRST_PLAYER,
    OVER,
    PHASE_NAMES,
    TILES_PER_COLOUR,
    TILING,
    VARIANTS,
    _num_factories,
    check_players_and_variant,
)


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
        # held by every call that is not atomic as it is (_common.make_atomic)
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

    is_over = property(lambda self: self._phase == OVER, doc="Whether the game has ended (phase 'over').")

    is_chance_node = property(lambda self: self._phase in (FIRST_PLAYER, FILL),
                              doc="Whether the state waits for a draw (chance='explicit': see chance_outcomes).")

    scores = property(lambda self: list(self._score),
                      doc="Scores; once the game is over they include the end bonuses.")

    factories = property(lambda self: [_tiles_to_str(f) for f in self._factories],
                         doc="Per factory, its tiles as colour letters in colour order ('' when empty).")

    centre = property(lambda self: _tiles_to_str(self._centre),
                      doc="Tiles in the centre, colour letters in colour order.")

    # The API spells it "centre", as the rules do; "center" stays as an alias (older code, the state text's field).
    center = property(lambda self: _tiles_to_str(self._centre),
                      doc="Alias of centre (the state text's field is spelled center).")

    bag = property(lambda self: _tiles_to_str(self._bag), doc="Tiles in the bag, colour letters in colour order.")

    lid = property(lambda self: _tiles_to_str(self._lid),
                   doc="Discarded tiles in the box lid (poured into an empty bag), in colour order.")

    first_player_marker = property(
        lambda self: self._marker,
        doc="-1 while the marker is in the centre, else the seat that took it this round.")

    moves_this_round = property(lambda self: self._moves, doc="Moves played since this round's deal.")

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

    def returns(self):
        """Each seat's return: 0.0 for every seat until the game is over, then +1.0 for a sole
        winner, 0.0 for each of several winners and -1.0 for the others (the adapters' returns)."""
        return _common.returns_of(self.winners, self._players)

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
        other._h_rounds = _common.copy_rounds(self._h_rounds)
        other._sheet = None
        other._undo = self._undo[:]  # entries are never changed: _restore copies out of them
        other._lock = _new_lock()
        return other

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

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

    @classmethod
    def from_text(cls, text):
        """Read a state written by :meth:`to_text`.

        Raises :class:`StateFormatError` naming the field for malformed or inconsistent text:
        a missing or unknown field, wrong tile totals, an impossible wall or pattern line, a
        phase that does not fit the rest.
        """
        return _from_text(text)

    def __str__(self):
        return _text_py._board_text(self)

    # The methods of each job, written in its module (_movegen_py: movegen.py; each module's banner names its
    # C++ twin).

    action_to_string = _notation_py.action_to_string
    string_to_action = _notation_py.string_to_action

    legal_actions = _movegen_py.legal_actions
    _legal_actions = _movegen_py._legal_actions
    legal_moves = _movegen_py.legal_moves
    legal_action_mask = _movegen_py.legal_action_mask
    chance_outcomes = _movegen_py.chance_outcomes
    _pending_row = _movegen_py._pending_row
    _allowed_columns = _movegen_py._allowed_columns
    _row_has = _movegen_py._row_has

    apply = _apply_py.apply
    _check_legal = _apply_py._check_legal
    _play = _apply_py._play
    _draft = _apply_py._draft
    _to_floor = _apply_py._to_floor

    _tile_line = _scoring_py._tile_line
    _best_column = _scoring_py._best_column
    _tile_walls = _scoring_py._tile_walls
    _continue_tiling = _scoring_py._continue_tiling
    _floor_penalty = _scoring_py._floor_penalty
    _complete_rows = _scoring_py._complete_rows
    _is_stuck = _scoring_py._is_stuck
    _end_round = _scoring_py._end_round
    score_if_round_ended = _scoring_py.score_if_round_ended

    _start_round = _round_py._start_round
    _put_drawn = _round_py._put_drawn
    _continue_fill = _round_py._continue_fill
    _begin_offer = _round_py._begin_offer
    deal = _round_py.deal

    observation_tensor = _observation_py.observation_tensor
    _observation = _observation_py._observation
    _observer = _observation_py._observer

    to_text = _text_py.to_text

    record = _record_py.record
    record_json = _record_py.record_json
    score_sheet = _record_py.score_sheet

    undo = _undo_py.undo
    _undo_entry = _undo_py._undo_entry
    _restore = _undo_py._restore

    key = _key_py.key
    _key_words = _key_py.key_words
    __hash__ = _key_py.__hash__


# Every call is atomic across threads.  Left alone: apply and legal_actions (they lock for
# themselves), the properties that never change, and is_over (the end is written last).
_common.make_atomic(GameState, unlocked=(
    "apply", "legal_actions", "players", "variant", "seed", "chance_mode", "is_over"))


def new_game(players=2, variant="classic", seed=None, chance="sampled"):
    """Start a game of Azul.

    ``players`` 2-4; ``variant`` "classic" (coloured wall), "grey" (free placement) or
    "summer-pavilion" (Azul: Summer Pavilion, a :class:`PavilionState`);
    ``seed`` an int in 0..2**64-1, or None to draw one from the OS (kept in ``state.seed``);
    ``chance`` "sampled" (the game's generator draws the first player and every tile) or
    "explicit" (the state stops at each draw as a chance node, see ``chance_outcomes``).
    """
    check_players_and_variant(players, variant)
    if chance not in ("sampled", "explicit"):
        raise ValueError("chance must be 'sampled' or 'explicit', got %r" % (chance,))
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    seed = _check_seed(seed)
    explicit = chance == "explicit"
    if variant == "summer-pavilion":
        return _pavilion_new_game(players, seed, explicit)
    g = GameState._blank(players, VARIANTS.index(variant), explicit, seed)
    if not explicit:
        g._start = g._below(players)
        g._h_first = g._start
        g._start_round()
    return g


def from_text(text, *, variant=None):
    """Read a state written by ``to_text``: a :class:`GameState` or, for variant
    summer-pavilion, a :class:`PavilionState`.  Raises :class:`StateFormatError` naming the
    field.  ``variant`` (one of VARIANTS), when given, is the variant the text must be: another
    is a :class:`StateFormatError`, and type checkers know the class of the result.

    >>> from_text(new_game(2, "grey", seed=1).to_text(), variant="classic")
    Traceback (most recent call last):
        ...
    azul_engine.StateFormatError: field variant: 'grey', expected 'classic'
    """
    if variant is not None and (not isinstance(variant, str) or variant not in VARIANTS):
        raise ValueError("unknown variant %r (variants: %s)" % (variant, ", ".join(VARIANTS)))
    state = _from_text(text)
    if variant is not None and state.variant != variant:
        raise StateFormatError("field variant: %r, expected %r" % (state.variant, variant))
    return state


def _from_text(text):
    """Read a state written by ``to_text`` (text.py reads it): ``from_text``, ``GameState.from_text``, and what
    unpickling calls (``__reduce__``)."""
    return _text_py.read_state(GameState, text)

