"""Azul: Summer Pavilion, pure-Python engine: move notation (docs/records.md section 3) and tile strings.

C++ twin: native/src/pavilion/notation.cpp.
"""


from .. import common as _common
from ..._errors import IllegalMoveError, StateFormatError
from .tables import (
    CENTRE,
    SP_BONUS_ACTION_BASE,
    SP_COLOURS,
    SP_DRAW_ACTION_BASE,
    SP_FIRST_PLAYER_ACTION_BASE,
    SP_KEEP_SETS,
    SP_NUM_ACTIONS,
    SP_PASS_ACTION_BASE,
    SP_PLACE_ACTION_BASE,
    SP_STARS,
    _KEEPS,
    _KEEP_INDEX,
)


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


def action_to_string(self, action):
    """Notation of an action id."""
    return _action_text(_common.check_action(_common.check_id(action), SP_NUM_ACTIONS))


def string_to_action(self, text):
    """Action id of a notation string (a refill of several tiles, '~BR', has none: pass it
    to :meth:`apply` or :meth:`deal_supply`)."""
    action, counts = _parse_move(text)
    if counts is not None:
        raise IllegalMoveError("%r draws several tiles, which no single action id does; "
                               "apply it as a move or use deal_supply" % text)
    return action
