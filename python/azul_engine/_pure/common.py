"""What the two pure-Python rule sets share: the generator, argument checks and the parts of
the state text both variants write alike (key=value tokens, the history's rounds).

C++ twins: native/include/azul/common/rng.h, native/src/common/rng.cpp, native/include/azul/common/textutil.h,
native/src/common/textutil.cpp, native/include/azul/common/fields.h, native/src/common/fields.cpp and
native/include/azul/common/chance.h.
"""

import functools
import inspect
import operator
import re
import signal
import sys
import threading

from .._errors import IllegalMoveError, StateFormatError

MASK64 = (1 << 64) - 1


def splitmix_next(s):
    """Advance SplitMix64 state ``s`` (rules section 5); return (new_state, output)."""
    s = (s + 0x9E3779B97F4A7C15) & MASK64
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return s, z ^ (z >> 31)


class SplitMix64:
    """A SplitMix64 generator of its own (rules section 5), for code outside the games (bots): the games' own
    generator is ``splitmix_next``, inlined in their draws."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state: int = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state, out = splitmix_next(self.state)
        return out

    def below(self, n: int) -> int:
        """A number in ``range(n)``: ``((next() >> 32) * n) >> 32``."""
        return ((self.next() >> 32) * n) >> 32


def new_lock():
    """The lock of one state: re-entrant, so that a locked method may call another."""
    return threading.RLock()


def _locked(method):
    code = method.__code__
    if code.co_argcount == 1 and not code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        def locked(self):  # the common case (properties, clone), without packing arguments
            with self._lock:
                return method(self)
    else:
        def locked(self, *args, **kwargs):  # type: ignore[misc]  # another signature, on purpose
            with self._lock:
                return method(self, *args, **kwargs)
    return functools.wraps(method)(locked)


def make_atomic(cls, unlocked):
    """Make every call on a ``cls`` state atomic across threads, as every call into the C++
    engine is (it holds the GIL for the whole call): each public method and property defined in
    the class, and its comparison, copies and text, runs holding the state's lock ``_lock``.

    ``unlocked`` names those left alone: methods that take the lock themselves (the hot paths,
    without this wrapper's extra call), and properties that no move can show half made."""
    for name, value in list(vars(cls).items()):
        if name in unlocked or (name.startswith("_") and name not in (
                "__eq__", "__str__", "__repr__", "__reduce__", "__copy__", "__deepcopy__")):
            continue
        if isinstance(value, property):
            setattr(cls, name, property(_locked(value.fget), doc=value.__doc__))
        elif callable(value) and not isinstance(value, (classmethod, staticmethod)):
            setattr(cls, name, _locked(value))


# The module of each engine's state classes -> the engine, as the errors name it.
_ENGINE_OF_MODULE = {"azul_engine._cppengine": "the C++ engine (azul_engine._cppengine)",
                     "azul_engine._pure.classic.state": "the pure-Python engine (azul_engine._pyengine)",
                     "azul_engine._pure.pavilion.state": "the pure-Python engine (azul_engine._pyengine)"}


def state_type_error(prefix, state, state_types):
    """The TypeError for a ``state`` that is not one of ``state_types`` (an engine's GameState and
    PavilionState): it names the engine asked and, for the other engine's state, that engine (the C++ engine's
    playouts_from words it the same way)."""
    mine = _ENGINE_OF_MODULE.get(state_types[0].__module__, "this engine")
    kind = type(state)
    theirs = _ENGINE_OF_MODULE.get(getattr(kind, "__module__", None)) if kind.__name__ in (
        "GameState", "PavilionState") else None
    what = "a %s of %s" % (kind.__name__, theirs) if theirs else kind.__name__
    return TypeError("%sstate must be a GameState or PavilionState of %s, not %s" % (prefix, mine, what))


def returns_of(winners, players):
    """The returns of a game won by ``winners`` (none: not over): every seat 0.0 until the end, then
    +1.0 a sole winner, 0.0 each of several, -1.0 the others (Game::Returns in game.h)."""
    if not winners:
        return [0.0] * players
    win = 1.0 if len(winners) == 1 else 0.0
    return [win if p in winners else -1.0 for p in range(players)]


def check_seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError("seed must be an int, not %s" % type(seed).__name__)
    if not 0 <= seed <= MASK64:
        raise ValueError("seed must be in 0..2**64-1, got %d" % seed)
    return seed


def check_id(action):
    """action_to_string's argument: a str is refused naming string_to_action (C++: IdToName)."""
    if isinstance(action, str):
        raise TypeError("action_to_string takes an action id (int), not str: string_to_action reads notation")
    return action


def as_index(value, words):
    """``operator.index(value)`` of an int-like (numpy integers too; not bools); otherwise TypeError, ``words``
    with the type's name (also for a type whose __index__ refuses this value: a numpy array of shape (1,)).
    C++: module.cpp AsIndex."""
    kind = type(value)
    numpy_bool = kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")  # numpy < 2.1 gives it __index__
    if not isinstance(value, bool) and not numpy_bool and hasattr(kind, "__index__"):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(words % type(value).__name__)


def check_action(action, num_actions):
    """An action id in 0..num_actions-1 from an int-like (numpy integers too; not bools)."""
    action = as_index(action, "a move is an action id (int) or a notation string, not %s")
    if not 0 <= action < num_actions:
        raise IllegalMoveError("action %d is out of range 0-%d" % (action, num_actions - 1))
    return action


# The documented limits (docs/game-api.md, "Limits"), checked before any allocation in both engines.
MAX_PLAYOUTS = 1 << 30  # games per random_playouts / playouts_from call
MAX_THREADS = 1024
MAX_VECTOR_GAMES = 1 << 18  # games in one VectorGame


def check_count(n, what, limit, limit_text):
    """A count argument: an int in 0..limit (TypeError, ValueError)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError("%s must be an int, not %s" % (what, type(n).__name__))
    if n < 0:
        raise ValueError("%s must be 0 or more, got %d" % (what, n))
    if n > limit:
        raise ValueError("%s is too large: %d (at most %s)" % (what, n, limit_text))
    return n


def bind_arguments(name, params, defaults, args, kwargs):
    """Bind ``args`` and ``kwargs`` to ``params`` (the last ``len(defaults)`` optional) as a call
    does, with messages of our own: the same in both engines and on every Python version."""
    if len(args) > len(params):
        raise TypeError("%s() takes at most %d arguments (%d given)"
                        % (name, len(params), len(args)))
    values = dict(zip(params, args))
    for key in kwargs:
        if key not in params:
            raise TypeError("%s() got an unexpected keyword argument %r" % (name, key))
        if key in values:
            raise TypeError("%s() got multiple values for argument %r" % (name, key))
        values[key] = kwargs[key]
    required = len(params) - len(defaults)
    for i, param in enumerate(params):
        if param not in values:
            if i < required:
                raise TypeError("%s() missing required argument %r" % (name, param))
            values[param] = defaults[i - required]
    return [values[param] for param in params]


def deal_counts(factories, players, num_factories, parse, available, refill):
    """deal()'s factory strings as tile counts, for either variant (C++: CheckDealShape): one string a
    factory (a str is no list of them; an object that cannot be iterated is refused), each read by
    ``parse(text, i)`` (raising IllegalMoveError "deal: ..."), at most 4 tiles, and 4 each while the
    ``available`` tiles of bag and ``refill`` (lid, tower) last."""
    if isinstance(factories, str):
        factories = []
    else:
        try:
            it = iter(factories)
        except TypeError:
            raise IllegalMoveError("deal: factories are a list of %d factory strings, not %s"
                                   % (num_factories, type(factories).__name__)) from None
        factories = list(it)  # (an error while iterating is the iterable's own, as in C++)
    if len(factories) != num_factories:
        raise IllegalMoveError("deal: %d players need %d factory strings" % (players, num_factories))
    for i, text in enumerate(factories):
        if not isinstance(text, str):
            raise IllegalMoveError("deal: factory %d is not a string" % (i + 1))
    counts = []
    for i, text in enumerate(factories):
        f = parse(text, i)
        if sum(f) > 4:
            raise IllegalMoveError("deal: factory %d holds %d tiles; a factory holds 4" % (i + 1, sum(f)))
        counts.append(f)
    for i, f in enumerate(counts):
        want = min(4, max(0, available - 4 * i))
        if sum(f) != want:
            raise IllegalMoveError(
                "deal: factory %d holds %d tiles, but with %d tiles in bag and %s it must hold %d"
                % (i + 1, sum(f), available, refill, want))
    return counts


def chance_actions(first_player, bag, players, draw_base, first_player_base):
    """A chance node's action ids in order, for either variant (C++: common/chance.h ListChanceActions): every
    seat for the first player, every colour left in ``bag`` for a draw."""
    if first_player:
        return [first_player_base + p for p in range(players)]
    return [draw_base + c for c, n in enumerate(bag) if n]


def chance_outcome_list(first_player, bag, players, draw_base, first_player_base):
    """``(action, probability)`` at a chance node, in action order (C++: ChanceOutcomeList): each seat alike
    for the first player, each colour by its share of ``bag`` for a draw."""
    if first_player:
        return [(first_player_base + p, 1.0 / players) for p in range(players)]
    total = sum(bag)
    return [(draw_base + c, n / total) for c, n in enumerate(bag) if n]


def game_index(i, n):
    """A game's slot in a VectorGame of n games (TypeError, IndexError)."""
    i = as_index(i, "a game index is an int, not %s")
    if not 0 <= i < n:
        raise IndexError("game %d is out of range 0-%d" % (i, n - 1))
    return i


def check_bool(value, name):
    """True or False, a numpy bool too (C++: module.cpp WithPlies)."""
    kind = type(value)
    if kind is not bool and not (kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")):
        raise TypeError("%s must be True or False, not %s" % (name, kind.__name__))
    return bool(value)


def reset_slots(indices, n):
    """The slots VectorGame.reset(indices) starts, in order: game indices (ints, as game_index checks them), or a
    numpy bool array of n entries, a mask (reset(vec.done) starts the finished games).  C++: bind_vector.cpp."""
    np = sys.modules.get("numpy")  # (an array means numpy is loaded)
    if np is not None and isinstance(indices, np.ndarray) and indices.dtype.kind == "b":
        if indices.shape != (n,):
            raise ValueError("a mask of the games to reset is %d bools (shape (%d,)), not shape %s"
                             % (n, n, indices.shape))
        return [i for i, flag in enumerate(indices.tolist()) if flag]
    return [game_index(i, n) for i in indices]


def refuse_rounds_without_history(keys):
    """History rounds (r1=...) mean nothing without the history field: refuse them."""
    for key in keys:
        if key != "history":
            raise StateFormatError("field %s: a history round needs the history field" % key)


def observer(player, turn, players):
    """The seat an observation is for: ``player``, or (None) the player to move, seat 0 at a
    chance node or once over."""
    if player is None:
        return turn if turn >= 0 else 0
    if isinstance(player, bool) or not isinstance(player, int):
        raise TypeError("player must be an int, not %s" % type(player).__name__)
    if not 0 <= player < players:
        raise ValueError("player %d does not exist with %d players" % (player, players))
    return player


def is_uint(text):
    """ASCII digits only (str.isdigit also takes other scripts' digits)."""
    return bool(text) and all("0" <= ch <= "9" for ch in text)


def counts_text(counts):
    """Tile counts as a state text writes them: "3,0,12,..."."""
    return ",".join(str(n) for n in counts)


def int_field(fields, key, lo, hi):
    """Integer field ``key`` of a state text, in lo..hi (an optional "-", ASCII digits, 21 characters at most)."""
    value = fields[key]
    body = value[1:] if value[:1] == "-" else value
    if not is_uint(body) or len(value) > 21 or not lo <= int(value) <= hi:
        raise StateFormatError("field %s: %r is not an integer in %d..%d" % (key, value, lo, hi))
    return int(value)


def count_list(value, key, colours, limit):
    """A state text's field of ``colours`` tile counts (bag, lid, tower), each at most ``limit``."""
    parts = value.split(",")
    if len(parts) != colours or not all(is_uint(x) and len(x) <= 3 for x in parts):
        raise StateFormatError("field %s: %r is not %d tile counts" % (key, value, colours))
    counts = [int(x) for x in parts]
    if any(n > limit for n in counts):
        raise StateFormatError("field %s: a count above %d" % (key, limit))
    return counts


def field_name(key):
    """A field's name as a message shows it: as written when it is printable ASCII, else
    repr()."""
    return key if key and all(" " < ch < "\x7f" for ch in key) else repr(key)


_STATE_SPACE = re.compile("[ \t\n\r\x0b\x0c]+")


def state_tokens(text):
    """A state text's tokens: the runs between ASCII white space (not str.split()'s Unicode white space: a
    non-ASCII space, U+00A0 say, stays inside a token and is refused by name).  C++: StateTokens."""
    return [t for t in _STATE_SPACE.split(text) if t]


def check_ascii_token(tok):
    """State text is ASCII: refuse a token holding another character, naming its field and
    the first such character."""
    if tok.isascii():
        return
    bad = next(i for i, ch in enumerate(tok) if ch >= "\x80")
    eq = tok.find("=")
    if 0 <= eq < bad:
        raise StateFormatError("field %s: non-ASCII character %r in %r (state text is ASCII)"
                               % (field_name(tok[:eq]), tok[bad], tok[eq + 1:]))
    raise StateFormatError("token %r: non-ASCII character %r (state text is ASCII)"
                           % (tok, tok[bad]))


def key_values(tokens):
    """The ``key=value`` tokens after the header: (fields dict, keys in order)."""
    fields, order = {}, []
    for tok in tokens:
        check_ascii_token(tok)
        key, sep, value = tok.partition("=")
        if not sep:
            raise StateFormatError("token %r is not key=value" % tok)
        if key in fields:
            raise StateFormatError("field %s appears twice" % field_name(key))
        fields[key] = value
        order.append(key)
    return fields, order


def history_keys(order):
    """The history's keys among the text's: 'history' and r1, r2, ..."""
    return [k for k in order if k == "history" or (k[:1] == "r" and is_uint(k[1:]))]


def copy_rounds(rounds):
    """A copy of a history's rounds ``[factories, moves, scores or None]`` for a clone.  Only the
    last round ever changes (its moves are appended, its scores replaced, or it is dropped by a
    deal), so the earlier rounds and the last one's factories and scores lists are shared."""
    rounds = rounds[:]
    if rounds:
        factories, moves, scores = rounds[-1]
        rounds[-1] = [factories, moves[:], scores]
    return rounds


# -- undo and position keys (native/include/azul/common/undo.h, key.h) ------------------------

NOTHING_TO_UNDO = ("undo: no move to take back (none was applied since this state was made, "
                   "read from text, dealt or reseeded)")


# The pure engines keep the whole position (and the history's end) before every UNDO_EVERY-th
# apply() and only the action before the others; undo() restores the last kept position and plays
# the actions after it again (play is deterministic: the generator is part of the position).
UNDO_EVERY = 16


def undo(state):
    """``state.undo()`` of both pure engines: entries are ``state._undo_entry(action)`` at indices
    divisible by UNDO_EVERY (action first), bare actions between them."""
    entries = state._undo
    if not entries:
        raise IllegalMoveError(NOTHING_TO_UNDO)
    i = len(entries) - 1
    j = i - i % UNDO_EVERY
    base = entries[j]
    state._restore(base)
    if i > j:
        play = state._play
        play(base[0])
        for k in range(j + 1, i):
            play(entries[k])
    del entries[i]


# Rollout policies of random_playouts and playouts_from (docs/playouts.md "Rollout policies").
POLICIES = ("uniform", "light")


def check_policy(policy):
    """True for the light policy, False for uniform; ValueError naming the choices otherwise."""
    if type(policy) is not str or policy not in POLICIES:
        raise ValueError("unknown policy %r; expected one of: %s" % (policy, ", ".join(POLICIES)))
    return policy == "light"


def history_mark(rounds):
    """The history's end before a move, for undo: rounds, moves of the last one, its scores.
    Only the end of a history changes during play (undo.h), so these restore it exactly."""
    if rounds:
        last = rounds[-1]
        return len(rounds), len(last[1]), last[2]
    return 0, 0, None


def restore_history(rounds, mark):
    """Cut ``rounds`` back to ``mark``.  The last round becomes a list of its own: a clone shares
    its earlier rounds with the original, and appending to a shared round would change both."""
    n, moves, scores = mark
    del rounds[n:]
    if rounds:
        last = rounds[-1]
        rounds[-1] = [last[0], last[1][:moves], scores]


def position_key(words):
    """64-bit FNV-1a over ``words`` (each taken modulo 2**64), then SplitMix64's finalizer
    (key.h): docs/game-api.md "Position keys"."""
    h = 0xCBF29CE484222325
    for v in words:
        h = ((h ^ (v & MASK64)) * 0x100000001B3) & MASK64
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & MASK64
    return h ^ (h >> 31)


def rounds_text(rounds):
    """The history's rounds as state text tokens: ``rN=factories|moves|scores``."""
    return ["r%d=%s|%s|%s" % (i + 1, ",".join(f or "-" for f in facs), ",".join(moves),
                              "" if scores is None else ",".join(str(s) for s in scores))
            for i, (facs, moves, scores) in enumerate(rounds)]


def record_rounds(rounds):
    """The history's rounds as a record's ``rounds`` (records.md): fresh lists."""
    return [{"factories": list(f), "moves": list(m), "scores": None if s is None else list(s)}
            for f, m, s in rounds]


def read_rounds(fields, keys, players, check_tiles, parse_move, order_message, max_rounds=None):
    """The history rounds ``rN=factories|moves|scores`` as [factories, moves, scores or None];
    ``check_tiles(text, what)`` checks one factory, ``parse_move`` one move (IllegalMoveError
    when it is not one)."""
    rounds = []
    for i, key in enumerate(k for k in keys if k != "history"):
        if key != "r%d" % (i + 1) or (max_rounds is not None and i >= max_rounds):
            raise StateFormatError("field %s: %s" % (key, order_message))
        parts = fields[key].split("|")
        if len(parts) != 3:
            raise StateFormatError("field %s: %r is not factories|moves|scores"
                                   % (key, fields[key]))
        facs = []
        for f in parts[0].split(","):
            check_tiles(f, "field %s" % key)
            facs.append("" if f == "-" else f)
        moves = parts[1].split(",") if parts[1] else []
        for m in moves:
            try:
                parse_move(m)
            except IllegalMoveError:
                raise StateFormatError("field %s: %r is not a move" % (key, m)) from None
        if parts[2]:
            sc = parts[2].split(",")
            if len(sc) != players or not all(is_uint(x) and len(x) <= 6 for x in sc):
                raise StateFormatError("field %s: bad scores %r" % (key, parts[2]))
            scores = [int(x) for x in sc]
        else:
            scores = None
        rounds.append([facs, moves, scores])
    return rounds


def read_history_head(value, players, parts, what):
    """The history token's seed (None for '-'), first player and completeness flag, and its
    remaining parts; ``what`` names the parts in the message ('seed:first:complete')."""
    head = value.split(":")
    if len(head) != parts:
        raise StateFormatError("field history: %r is not %s" % (value, what))
    if head[0] == "-":
        seed = None
    else:
        if not is_uint(head[0]) or len(head[0]) > 20 or int(head[0]) > MASK64:
            raise StateFormatError("field history: bad seed %r" % head[0])
        seed = int(head[0])
    if head[1] not in [str(p) for p in range(-1, players)] or head[2] not in ("0", "1"):
        raise StateFormatError("field history: bad first player or completeness flag")
    return seed, int(head[1]), head[2] == "1", head[3:]


class HeldInterrupt:
    """Holds back SIGINT's Python handler while a VectorGame step moves its games, so that a
    Ctrl-C lands between two games, as the C++ engine's poll makes it: ``poll()`` runs the handler
    held back (which raises KeyboardInterrupt by default), and leaving the block restores the
    handler and runs it for a signal that came after the last poll.  Signals reach Python
    handlers in the main thread only: elsewhere, and when SIGINT has no Python handler, this does
    nothing."""

    def __enter__(self):
        self._handler, self._pending = None, False
        if threading.current_thread() is threading.main_thread():
            handler = signal.getsignal(signal.SIGINT)
            if callable(handler):
                signal.signal(signal.SIGINT, self._hold)
                self._handler = handler
        return self

    def _hold(self, signum, frame):
        self._pending = True

    def poll(self):
        if self._pending:
            self._pending = False
            self._handler(signal.SIGINT, None)

    def __exit__(self, *exc):
        if self._handler is not None:
            signal.signal(signal.SIGINT, self._handler)
            if exc[0] is None:
                self.poll()
        return False


def note_interrupted_step(exc, k, n):
    """The note on the exception that stopped a VectorGame step before game ``k`` of ``n`` (as the
    C++ engine's): PEP 678's add_note, or on Python 3.9 and 3.10, which have none, the same ``__notes__`` list."""
    note = ("VectorGame.step stopped before game %d: the %d games before it took their actions, the other %d "
            "did not (VectorGame.stepped)" % (k, k, n - k))
    if hasattr(exc, "add_note"):
        exc.add_note(note)
    else:
        exc.__notes__ = [*getattr(exc, "__notes__", ()), note]
