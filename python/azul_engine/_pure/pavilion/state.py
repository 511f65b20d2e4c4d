"""Azul: Summer Pavilion, pure-Python engine: the game state, PavilionState, composed here: its class body binds,
by name, the methods written in the module of each job (notation, movegen, apply, scoring, round, observation,
text, record, undo, key); those modules never import this one.  new_game and _from_text, which make states, are
here too.

C++ twin: native/include/azul/pavilion/state.h (sp::State).
"""


from .. import common as _common
from ..common import check_seed as _check_seed, new_lock as _new_lock, splitmix_next as _splitmix_next
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
from .notation import _tiles
from .tables import (
    CHANCE,
    FILL,
    FIRST_PLAYER,
    NO_FILL,
    OVER,
    PHASE_NAMES,
    ROUNDS,
    SP_COLOURS,
    START_SCORE,
    TILES_PER_COLOUR,
    _num_factories,
)


class PavilionState:
    """One game of Azul: Summer Pavilion: the position, its generator and the game's history.

    Made by ``new_game(players, variant="summer-pavilion", seed=...)`` or ``from_text``; the
    methods are those of the classic ``GameState`` (queries, ``legal_actions``, ``apply``,
    ``clone``, ``to_text``, ``record``, explicit chance) plus the queries of this game
    (``supply``, ``wild``, ``hands``, ``boards``, ``passed``, ``bonus_owed``).

    >>> g = new_game(2, variant="summer-pavilion", seed=7)
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
        # held by every call that is not atomic as it is (_common.make_atomic)
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

    def _below(self, n):
        self._rng, z = _splitmix_next(self._rng)
        return ((z >> 32) * n) >> 32

    def reseed(self, seed):
        """Replace the generator's state with ``seed``; the record's seed becomes null."""
        self._rng = _check_seed(seed)
        self._h_seed = None
        self._undo = []

    players = property(lambda self: self._players, doc="Number of players (2-4).")

    variant = property(lambda self: "summer-pavilion", doc="'summer-pavilion'.")

    seed = property(lambda self: self._seed, doc="The seed the game was made from.")

    round = property(lambda self: self._round, doc="Round number, 1-6.")

    chance_mode = property(lambda self: "explicit" if self._explicit else "sampled",
                           doc="'sampled' (the generator draws) or 'explicit' (chance nodes).")

    phase = property(lambda self: PHASE_NAMES[self._phase],
                     doc="'first-player', 'fill' (chance nodes), 'acquire' (phase 1), 'play' "
                         "(phase 2), 'bonus' (taking bonus tiles) or 'over'.")

    current_player = property(lambda self: self._turn,
                              doc="Seat to move; -1 at a chance node and once the game is over.")

    starting_player = property(lambda self: self._start,
                               doc="Seat that started this round's phase 1 (-1 before it is drawn).")

    is_over = property(lambda self: self._phase == OVER, doc="Whether the game has ended (phase 'over').")

    is_chance_node = property(lambda self: self._phase in (FIRST_PLAYER, FILL),
                              doc="Whether the state waits for a draw (chance='explicit': see chance_outcomes).")

    scores = property(lambda self: list(self._score),
                      doc="Scores; once the game is over they include the end bonuses.")

    factories = property(lambda self: [_tiles(f) for f in self._factories],
                         doc="Per factory, its tiles as colour letters in colour order ('' when empty).")

    centre = property(lambda self: _tiles(self._centre), doc="Tiles in the centre.")

    center = property(lambda self: _tiles(self._centre), doc="Alias of centre.")

    supply = property(lambda self: _tiles(self._supply), doc="The supply's tiles (at most 10).")

    bag = property(lambda self: _tiles(self._bag), doc="Tiles in the bag, colour letters in colour order.")

    tower = property(lambda self: _tiles(self._tower), doc="Discarded tiles, poured into an "
                                                            "empty bag.")

    lid = tower

    wild = property(lambda self: SP_COLOURS[min(self._round, ROUNDS) - 1],
                    doc="This round's wild colour.")

    first_player_marker = property(
        lambda self: self._marker,
        doc="-1 while the start token is in the centre, else the seat that took it this round.")

    moves_this_round = property(lambda self: self._moves, doc="Moves played since this round's deal.")

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

    def returns(self):
        """Each seat's return: 0.0 for every seat until the game is over, then +1.0 for a sole
        winner, 0.0 for each of several winners and -1.0 for the others (the adapters' returns)."""
        return _common.returns_of(self.winners, self._players)

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
        other._h_rounds = _common.copy_rounds(self._h_rounds)
        other._sheet = None
        other._undo = self._undo[:]  # entries are never changed: _restore copies out of them
        other._lock = _new_lock()
        return other

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

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

    @staticmethod
    def from_text(text):
        """Read a Summer Pavilion state written by :meth:`to_text` (StateFormatError naming the field)."""
        return _from_text(text)

    # The methods of each job, written in its module (_movegen_py: movegen.py; each module's banner names its
    # C++ twin).

    action_to_string = _notation_py.action_to_string
    string_to_action = _notation_py.string_to_action

    legal_actions = _movegen_py.legal_actions
    _legal_actions = _movegen_py._legal_actions
    _placements = _movegen_py._placements
    _passes = _movegen_py._passes
    legal_moves = _movegen_py.legal_moves
    legal_action_mask = _movegen_py.legal_action_mask
    chance_outcomes = _movegen_py.chance_outcomes

    apply = _apply_py.apply
    _check_legal = _apply_py._check_legal
    _check_acquire = _apply_py._check_acquire
    _check_place = _apply_py._check_place
    _play = _apply_py._play
    _acquire = _apply_py._acquire
    _place = _apply_py._place
    _pass = _apply_py._pass
    _end_turn = _apply_py._end_turn

    _finish = _scoring_py._finish

    _begin_setup = _round_py._begin_setup
    _start_round = _round_py._start_round
    _put_drawn = _round_py._put_drawn
    _continue_fill = _round_py._continue_fill
    _fill_done = _round_py._fill_done
    deal = _round_py.deal
    deal_supply = _round_py.deal_supply
    _deal_supply = _round_py._deal_supply

    observation_tensor = _observation_py.observation_tensor
    _observer = _observation_py._observer

    to_text = _text_py.to_text
    __str__ = _text_py.__str__

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
_common.make_atomic(PavilionState, unlocked=(
    "apply", "legal_actions", "players", "variant", "seed", "chance_mode", "is_over"))


def new_game(players, seed, explicit):
    """A new Summer Pavilion game (arguments checked by the caller: the engine's new_game)."""
    g = PavilionState._blank(players, explicit, seed)
    if not explicit:
        g._start = g._below(players)
        g._h_first = g._start
        g._begin_setup()
    return g


def _from_text(text):
    """Read a Summer Pavilion state written by ``to_text`` (text.py reads it): ``from_text``, and what unpickling
    calls (``__reduce__``)."""
    return _text_py.read_state(PavilionState, text)

