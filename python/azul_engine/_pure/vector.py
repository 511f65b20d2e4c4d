"""Both variants, pure-Python engine: VectorGame, n games stepped together.

C++ twin: native/src/common/vector.cpp.
"""



from . import common as _common
from .._errors import IllegalMoveError
from .common import check_seed as _check_seed
from .classic.observation import observation_shape
from .classic.playout import _splitmix_output
from .classic.state import GameState, _from_text, new_game
from .classic.types import NUM_ACTIONS, VARIANTS
from .pavilion.state import PavilionState
from .pavilion.tables import SP_NUM_ACTIONS

# What a caller's buffer that is not aligned for float32 is told (the C++ engine writes through float*: kUnaligned).
_UNALIGNED = (" must be aligned for float32 (its address a multiple of 4, as numpy's own arrays are): "
              "np.require(..., requirements='A') gives an aligned copy")


def _check_buffer(out, what, dtype, shape):
    """A caller's output buffer for the step or observation_tensors (``what`` names it in the errors): a writable
    C-contiguous aligned numpy array of ``dtype`` and ``shape`` (the C++ engine: CheckBuffer, the same words)."""
    import numpy as np

    name = np.dtype(dtype).name
    if not isinstance(out, np.ndarray):
        raise TypeError("%s must be a numpy %s array of shape %s, not %s" % (what, name, shape, type(out).__name__))
    if out.dtype != dtype or out.shape != shape:
        raise ValueError("%s must be a %s array of shape %s, not shape %s of %s" % (what, name, shape, out.shape,
                                                                                  out.dtype))
    if not out.flags.c_contiguous:
        raise ValueError("%s must be C-contiguous (np.ascontiguousarray)" % what)
    if not out.flags.aligned:  # never for bool, of one byte
        raise ValueError(what + _UNALIGNED)
    if not out.flags.writeable:
        raise ValueError("%s is read-only" % what)


class _ReadOnly(property):
    # A read-only property of VectorGame that takes no name (a property in a class body takes its attribute's):
    # assigning one then says what the C++ engine's attributes say, "property of 'VectorGame' object has no setter".

    # Each one's own docstring (a subclass's class docstring, even None, would hide it before Python 3.12).
    __doc__ = property.__dict__["__doc__"]

    def __set_name__(self, owner, name):
        pass


def _read_only(name, doc):
    """The read-only property of the attribute ``_v_NAME``."""
    attr = "_v_" + name

    def get(self):
        return getattr(self, attr)

    # Python 3.13 names a property after its getter in this message; the C++ engine's getters are named "".
    get.__name__ = get.__qualname__ = ""
    return _ReadOnly(get, None, None, doc + " (read-only)")


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

    ``final_scores`` (int32) and ``final_returns`` (float32, +1 a sole winner, 0 each of several
    winners, -1 everyone else), n x players, hold each slot's last game that ended in a step (zero
    before any).  ``auto_reset`` says what becomes of a game that ends in a step (docs/playouts.md,
    "Auto-reset"): False, it stays over until :meth:`reset`; True, it starts again right after its
    move, in index order, as the vector's next game (the same seed counter as :meth:`reset`), and
    ``done[i]`` says that game i ended in that step (the other arrays already show the new game);
    ``"next_step"``, it stays over (``done``) until the next step, which starts the vector's next
    game there, in index order, instead of applying that slot's action (which is not checked):
    Gymnasium's next-step autoreset.
    """


    def __new__(cls, *args, **kwargs):
        # VectorGame(n, players=2, variant="classic", seed=0, auto_reset=False).  The whole
        # object is built here (as in the C++ engine): VectorGame.__new__(VectorGame, ...) alone
        # is never half made, and __init__ has nothing left to do.
        if not (isinstance(cls, type) and issubclass(cls, VectorGame)):
            raise TypeError("VectorGame.__new__(X): X is not a subtype of VectorGame")
        n, players, variant, seed, auto_reset = _common.bind_arguments(
            "VectorGame", ("n", "players", "variant", "seed", "auto_reset"),
            (2, "classic", 0, False), args, kwargs)
        self = object.__new__(cls)
        self._build(n, players, variant, seed, auto_reset)
        return self

    def __init__(self, *args, **kwargs):
        pass

    def __repr__(self):
        # Its constructor's call, as the C++ engine writes it (src/bind_vector.cpp).
        return "VectorGame(%d, players=%d, variant=%r, seed=%d, auto_reset=%r)" % (
            self._v_n, self._v_players, self._v_variant, self._seed, self._v_auto_reset)

    def _build(self, n, players, variant, seed, auto_reset):
        import numpy as np

        n = _common.check_count(n, "n", _common.MAX_VECTOR_GAMES, "2**18 games")
        seed = _check_seed(seed)
        new_game(players, variant, 0)  # checks players and variant
        self._v_auto_reset = check_auto_reset(auto_reset)
        self._same_step = auto_reset is True
        self._next_step = auto_reset == "next_step"
        self._v_n, self._v_players, self._v_variant, self._seed, self._started = n, players, variant, seed, 0
        self._pavilion = variant == "summer-pavilion"
        num_actions = SP_NUM_ACTIONS if self._pavilion else NUM_ACTIONS
        # Written here, seen by the caller through read-only views, as in the C++ engine: views of a read-only
        # buffer, so that no caller can set their WRITEABLE flag back (they would write into the games' arrays).
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
                                        "scores": "scores", "done": "done"}[name])
            setattr(self, "_v_" + name, _read_only_view(view))
        self._final_scores = np.zeros((n, players), dtype=np.int32)
        self._final_returns = np.zeros((n, players), dtype=np.float32)
        self._v_final_scores = _read_only_view(self._final_scores)
        self._v_final_returns = _read_only_view(self._final_returns)
        self._games = [None] * n
        self._busy = False
        self._v_stepped = 0
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
        """Start new games in the given slots (default: all), in the order given: game indices, or a
        numpy bool array of n entries, a mask (``reset(vec.done)``)."""
        self._acquire()
        try:
            self._reset(indices)
        finally:
            self._busy = False

    def _reset(self, indices):
        slots = range(self.n) if indices is None else _common.reset_slots(indices, self.n)
        for i in slots:
            self._start(i)

    def _start(self, i):
        self._started += 1
        self._games[i] = new_game(self.players, self.variant,
                                  _splitmix_output(self._seed, self._started))
        self._refresh(i)

    def _finish(self, i):
        """Game i ended in a step: its scores and returns go to the final arrays."""
        g = self._games[i]
        winners = g.winners
        self._final_scores[i] = g._score
        self._final_returns[i] = [(1.0 if len(winners) == 1 else 0.0) if p in winners else -1.0
                                  for p in range(self.players)]

    def step(self, actions, *, threads=1, observations=None, rewards=None, masks=None):
        """Apply ``actions[i]`` to game i, for every game not yet over (finished games ignore
        theirs).  Checks every action first: IllegalMoveError names the game and the rule, and
        then no game has moved.  Returns (legal_mask, current_player, scores, done).

        ``threads`` (0: every core; at most 1024): the C++ engine moves the games on that many
        threads at once, then finishes (and with ``auto_reset`` starts again) the games that
        ended in index order, which gives the one-thread step's games; a threaded step is not
        stopped by Ctrl-C before its end.  The pure engine takes the argument and moves the
        games one after another.  ``observations``: a writable C-contiguous aligned float32 array
        of n x the observation size, into which the step writes every game's row right after the
        game's move (the rows ``observation_tensors`` would write after the step), while the game
        is in the cache: cheaper than a second pass.  ``rewards``: a writable C-contiguous aligned
        float32 array of n, into which the step writes each game's reward: the return of the seat that
        moved (+1, 0 or -1, as ``final_returns``) when its move ended the game, else 0.  ``masks``: a
        writable C-contiguous bool array of n x the number of actions, into which the step copies each
        game's row of ``legal_mask`` as it writes its observation (a copy of the masks to keep, made on
        the step's threads).

        The games move in index order, each one's arrays refreshed right after its move.  A
        Ctrl-C (SIGINT's Python handler) runs between two games, within about 25 ms in the C++
        engine; if it raises (KeyboardInterrupt), the step stops there: games 0..k-1 have taken
        their actions, games k..n-1 have not, every array matches its game, ``stepped`` is k and
        the exception carries a note saying so.  ``stepped`` is n after a step that ran to the
        end, 0 after one refused by IllegalMoveError."""
        import numpy as np

        threads = _common.check_count(threads, "threads", _common.MAX_THREADS, "1024")
        if observations is not None:
            self._check_observations(observations, "step: observations")
        if rewards is not None:
            self._check_rewards(rewards)
        if masks is not None:
            self._check_masks(masks)
        actions = np.asarray(actions)
        if actions.shape != (self.n,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError("actions must be %d integers, got shape %s of %s"
                             % (self.n, actions.shape, actions.dtype))
        self._acquire()
        try:
            self._v_stepped = 0
            todo = []
            for i in range(self.n):
                if self._waiting(i):
                    continue
                a = int(actions[i])
                try:
                    _common.check_action(a, self._mask.shape[1])
                    self._games[i]._check_legal(a)
                except IllegalMoveError as e:
                    raise IllegalMoveError("game %d: %s" % (i, e)) from None
                todo.append((i, a))
            moves = dict(todo)
            with _common.HeldInterrupt() as held:
                for i in range(self.n):
                    try:
                        held.poll()
                    except BaseException as exc:
                        self._v_stepped = i
                        _common.note_interrupted_step(exc, i, self.n)
                        raise
                    reward = 0.0
                    if i in moves:
                        g = self._games[i]
                        mover = g._turn
                        g._play(moves[i])
                        self._refresh(i)
                        if self._done[i]:
                            self._finish(i)
                            reward = float(self._final_returns[i, mover])
                            if self._same_step:
                                self._start(i)
                                self._done[i] = True
                    elif self._next_step and self._done[i]:
                        self._start(i)
                    if rewards is not None:
                        rewards[i] = reward
                    if observations is not None:
                        self._observe(i, observations)
                    if masks is not None:
                        masks[i] = self._mask[i]
                self._v_stepped = self.n
        finally:
            self._busy = False
        return self.legal_mask, self.current_player, self.scores, self.done

    def observation_tensors(self, out=None, *, games=None, threads=1):
        """Each game seen by its player to move (seat 0 once over): float32 (n, observation
        size), row i for game i; a new array, or written into ``out`` (a writable C-contiguous
        aligned float32 array of that shape, which is returned).  ``games``: a numpy bool array of n
        entries; only the rows of the games it flags are written (in a new array the others are
        zeros; in ``out`` they are left as they were).  ``threads`` (0: every core; at most 1024):
        the C++ engine writes the rows on that many threads, without the GIL."""
        import numpy as np

        threads = _common.check_count(threads, "threads", _common.MAX_THREADS, "1024")
        if out is None:
            out = (np.empty if games is None else np.zeros)((self.n, self._observation_size()), dtype=np.float32)
        else:
            self._check_observations(out, "observation_tensors: out")
        if games is not None:
            if not isinstance(games, np.ndarray) or games.dtype.kind != "b":
                raise TypeError("observation_tensors: games must be a numpy bool array of shape (%d,), not %s"
                                % (self.n, type(games).__name__))
            if games.shape != (self.n,):
                raise ValueError("observation_tensors: games must be a numpy bool array of shape (%d,), not "
                                 "shape %s" % (self.n, games.shape))
        self._acquire()
        try:
            for i in (range(self.n) if games is None else np.flatnonzero(games).tolist()):
                self._observe(i, out)
        finally:
            self._busy = False
        return out

    def _waiting(self, i):
        """Game i is over and waits (for a reset, or with "next_step" for the next step): a step neither
        checks nor applies its action."""
        return self._done[i] and not self._same_step

    def _check_rewards(self, out):
        """step's rewards buffer: a writable C-contiguous aligned float32 array of n (the C++ engine:
        CheckRewards)."""
        import numpy as np

        _check_buffer(out, "step: rewards", np.float32, (self.n,))

    def _check_masks(self, out):
        """step's masks buffer: a writable C-contiguous bool array of n x the number of actions (the C++
        engine: CheckMasks)."""
        import numpy as np

        _check_buffer(out, "step: masks", np.bool_, self._mask.shape)

    def _observation_size(self):
        return observation_shape(self.players, self.variant)[0]

    def _check_observations(self, out, what):
        """A caller's buffer of observations (``what``: "observation_tensors: out", "step: observations"): a
        writable C-contiguous aligned float32 array of n x observation size (the C++ engine: CheckObservations;
        it writes through float*, and refuses an unaligned buffer, so this engine does too)."""
        import numpy as np

        _check_buffer(out, what, np.float32, (self.n, self._observation_size()))

    def _observe(self, i, out):
        """Row i of ``out``: game i seen by its player to move (seat 0 once over)."""
        g = self._games[i]
        if self._pavilion:
            out[i] = g.observation_tensor()
            return
        row = [0.0] * out.shape[1]
        g._observation(g._turn if g._turn >= 0 else 0, row, 0)
        out[i] = row

    def state(self, i):
        """A copy of game i as a GameState or PavilionState (position and generator; no
        history)."""
        self._acquire()
        try:
            i = _common.game_index(i, self.n)
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

    # The public attributes: read-only properties, as the C++ engine's.
    n = _read_only("n", "the number of games")
    players = _read_only("players", "players a game")
    variant = _read_only("variant", "the games' variant")
    auto_reset = _read_only("auto_reset", "what becomes of a game that ends in a step: False, True (it starts again "
                                          "at once) or 'next_step'")
    final_scores = _read_only("final_scores", "n x players, each slot's last finished game's scores")
    final_returns = _read_only("final_returns", "n x players, each slot's last finished game's returns")
    legal_mask = _read_only("legal_mask", "n x actions, True where the action is legal")
    legal_actions = _read_only("legal_actions", "n x actions, legal ids then -1")
    num_legal = _read_only("num_legal", "n, the legal actions of each game")
    current_player = _read_only("current_player", "n, the player to move (-1 once over)")
    scores = _read_only("scores", "n x players, the games' scores")
    done = _read_only("done", "n, whether each game is over (auto_reset: ended in the step)")
    stepped = _read_only("stepped", "the games the last step moved (index order; n after a whole step)")


def check_auto_reset(value):
    """VectorGame's auto_reset: False, True or "next_step" (the C++ engine: ToAutoReset)."""
    if type(value) is bool or (isinstance(value, str) and value == "next_step"):
        return value
    if isinstance(value, str):
        raise ValueError("auto_reset must be True, False or 'next_step', not %r" % (value,))
    raise TypeError("auto_reset must be True, False or 'next_step', not %s" % type(value).__name__)


def _read_only_view(array):
    """A view of ``array`` that nobody can make writable (its buffer is read-only)."""
    import numpy as np

    return np.asarray(memoryview(array).toreadonly())


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

