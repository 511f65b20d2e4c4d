"""What the two pure-Python rule sets share: the generator, argument checks and the parts of
the state text both variants write alike (key=value tokens, the history's rounds).

The C++ twins are native/include/azul/rng.h and native/src/textutil.cpp.
"""

import operator
import signal
import threading

from ._errors import IllegalMoveError, StateFormatError

MASK64 = (1 << 64) - 1


def splitmix_next(s):
    """Advance SplitMix64 state ``s`` (rules section 5); return (new_state, output)."""
    s = (s + 0x9E3779B97F4A7C15) & MASK64
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return s, z ^ (z >> 31)


def check_seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError("seed must be an int, not %s" % type(seed).__name__)
    if not 0 <= seed <= MASK64:
        raise ValueError("seed must be in 0..2**64-1, got %d" % seed)
    return seed


def check_action(action, num_actions):
    """An action id in 0..num_actions-1 from an int-like (numpy integers too; not bools)."""
    if isinstance(action, bool) or not hasattr(type(action), "__index__"):
        raise TypeError("a move is an action id (int) or a notation string, not %s"
                        % type(action).__name__)
    action = operator.index(action)
    if not 0 <= action < num_actions:
        raise IllegalMoveError("action %d is out of range 0-%d" % (action, num_actions - 1))
    return action


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


def key_values(tokens):
    """The ``key=value`` tokens after the header: (fields dict, keys in order)."""
    fields, order = {}, []
    for tok in tokens:
        key, sep, value = tok.partition("=")
        if not sep:
            raise StateFormatError("token %r is not key=value" % tok)
        if key in fields:
            raise StateFormatError("field %s appears twice" % key)
        fields[key] = value
        order.append(key)
    return fields, order


def history_keys(order):
    """The history's keys among the text's: 'history' and r1, r2, ..."""
    return [k for k in order if k == "history" or (k[:1] == "r" and is_uint(k[1:]))]


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
    C++ engine's)."""
    if hasattr(exc, "add_note"):
        exc.add_note("VectorGame.step stopped before game %d: the %d games before it took their "
                     "actions, the other %d did not (VectorGame.stepped)" % (k, k, n - k))
