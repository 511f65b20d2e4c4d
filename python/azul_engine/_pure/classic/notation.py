"""Classic and grey-wall Azul, pure-Python engine: move notation (docs/records.md section 2) and tile strings.

C++ twin: native/src/classic/notation.cpp.
"""


import itertools


from ..._errors import IllegalMoveError, StateFormatError
from .. import common as _common
from .types import (
    CENTRE,
    COLOURS,
    DRAW_ACTION_BASE,
    FIRST_PLAYER_ACTION_BASE,
    FLOOR,
    NUM_ACTIONS,
    NUM_DRAFT_ACTIONS,
    OVER,
    TILE_ACTION_BASE,
    TILING,
)


def _check_action(action):
    # numpy integers and other int-likes are accepted through __index__; bools are not.
    return _common.check_action(action, NUM_ACTIONS)


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


def action_to_string(self, action):
    """Notation of an action id (a grey tiling id needs the pending row of this state)."""
    action = _check_action(_common.check_id(action))
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
