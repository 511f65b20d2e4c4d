"""Pictures of positions as SVG 1.1, for notebooks, HTML replays and documentation.

``board(state)`` draws any state of either engine (classic, grey wall, Summer Pavilion) from its public
queries only, so both engines give the same bytes for the same position.  Jupyter shows a state as this
picture: every state class has ``_repr_svg_`` (added when the engine module is loaded).

Every tile carries its colour letter as well as its colour (``B Y R K W``; Summer Pavilion ``P G O Y B R``),
so the picture reads without telling colours apart.  A proposed move is outlined in magenta with solid lines,
the last move played in teal with dashed lines.

>>> import azul_engine
>>> from azul_engine import svg
>>> state = azul_engine.new_game(players=2, seed=7)
>>> picture = svg.board(state, size=400, highlight="5K3")
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
>>> "proposed 5K3" in picture and state._repr_svg_() == svg.board(state)
True
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union, cast

from ._markup import escape
from ._types import Move, State

if TYPE_CHECKING:
    from ._types import GameState, PavilionState

# The last move to outline: (its notation, the seat that played it).
LastMove = Tuple[str, int]

__all__ = ["board", "COLOURS", "PAVILION_COLOURS"]

# Fill colour and letter colour of each tile.  Chosen from the Okabe-Ito palette where it fits, and always with
# the letter on top: the picture never depends on seeing a colour.
COLOURS = {
    "B": ("#1f63b5", "#ffffff"),
    "Y": ("#f0c419", "#000000"),
    "R": ("#c8372d", "#ffffff"),
    "K": ("#262626", "#ffffff"),
    "W": ("#f5f1e6", "#1f63b5"),
}
PAVILION_COLOURS = {
    "P": ("#7e3f98", "#ffffff"),
    "G": ("#2b8a3e", "#ffffff"),
    "O": ("#e67e22", "#000000"),
    "Y": ("#f0c419", "#000000"),
    "B": ("#1f63b5", "#ffffff"),
    "R": ("#c8372d", "#ffffff"),
}
MAX_SIZE = 100000  # the widest picture board() draws, in pixels
_NAMES = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white"}
_SP_NAMES = {"P": "purple", "G": "green", "O": "orange", "Y": "yellow", "B": "blue", "R": "red"}
# The game's facts, from the first engine loaded (install: this module is imported while the package loads
# its engine, before azul_engine.game_info exists): colour orders, the classic wall's pattern, the stars, the
# floor's penalties.
# (Any: None until _take_facts fills them, then a string or a tuple.)
_CLASSIC: Any = None
_WALL: Any = None
_SP: Any = None
_SP_STARS: Any = None
_FLOOR_PENALTIES: Any = None
_ORNAMENTS = ()
_STAR_COLOUR: Dict[str, str] = {}


def _take_facts(engine):
    global _CLASSIC, _WALL, _SP, _SP_STARS, _FLOOR_PENALTIES, _STAR_COLOUR, _ORNAMENTS
    if _CLASSIC is not None:
        return
    classic, sp = engine.game_info("classic"), engine.game_info("summer-pavilion")
    _WALL, _SP, _SP_STARS, _FLOOR_PENALTIES = classic.wall_pattern, sp.colours, sp.stars, classic.floor_penalties
    _STAR_COLOUR = {star: star for star in _SP_STARS if star in _SP}  # an outer star takes its own colour
    _ORNAMENTS = _ornaments()
    _CLASSIC = classic.colours

_HIGHLIGHT = "#d1007a"  # a proposed move: magenta, solid
_LAST = "#007f7f"  # the last move: teal, dashed
_PENDING = "#c46a00"  # grey wall: the line whose tile is being placed, orange, dotted
_T = 20  # tile side
_P = 22  # tile pitch
_FONT = 'font-family="DejaVu Sans, Arial, Helvetica, sans-serif"'


def _n(x: float) -> str:
    """A coordinate as short, deterministic text: at most 1 decimal."""
    v = round(float(x), 1)
    if v == int(v):
        return "%d" % int(v)
    return "%.1f" % v


def _text(x, y, text, size=11, anchor="start", weight=None, fill="#222222", cls=None):
    extra = ' font-weight="%s"' % weight if weight else ""
    if cls:
        extra += ' class="%s"' % cls
    return '<text x="%s" y="%s" font-size="%s" text-anchor="%s" fill="%s"%s>%s</text>' % (
        _n(x), _n(y), size, anchor, fill, extra, escape(text))


def _defs(palette):
    """One symbol per tile colour, the first-player marker, and the faint wall patterns."""
    out = ["<defs>"]
    for letter, (fill, ink) in palette.items():
        out.append('<symbol id="t-%s" viewBox="0 0 20 20"><rect x="0.5" y="0.5" width="19" height="19" rx="3" '
                   'fill="%s" stroke="#333333" stroke-width="1"/><text x="10" y="14.5" font-size="12" '
                   'font-weight="bold" text-anchor="middle" fill="%s" %s>%s</text></symbol>'
                   % (letter, fill, ink, _FONT, letter))
        out.append('<symbol id="e-%s" viewBox="0 0 20 20"><rect x="0.5" y="0.5" width="19" height="19" rx="3" '
                   'fill="%s" fill-opacity="0.28" stroke="#999999" stroke-width="1"/><text x="10" y="14" '
                   'font-size="10" text-anchor="middle" fill="#555555" %s>%s</text></symbol>'
                   % (letter, fill, _FONT, letter.lower()))
    out.append('<symbol id="t-M" viewBox="0 0 20 20"><rect x="0.5" y="0.5" width="19" height="19" rx="3" '
               'fill="#ffffff" stroke="#000000" stroke-width="1.5"/><text x="10" y="14.5" font-size="12" '
               'font-weight="bold" text-anchor="middle" fill="#000000" %s>1</text></symbol>' % _FONT)
    out.append('<symbol id="slot" viewBox="0 0 20 20"><rect x="0.5" y="0.5" width="19" height="19" rx="3" '
               'fill="#ffffff" fill-opacity="0.6" stroke="#b5b5b5" stroke-width="1"/></symbol>')
    out.append("</defs>")
    return "".join(out)


def _tile(x, y, letter, size=_T):
    return '<use xlink:href="#t-%s" x="%s" y="%s" width="%s" height="%s"/>' % (letter, _n(x), _n(y), size, size)


def _slot(x, y, kind="slot", size=_T):
    return '<use xlink:href="#%s" x="%s" y="%s" width="%s" height="%s"/>' % (kind, _n(x), _n(y), size, size)


def _mark(x, y, w, h, style, rx=4):
    """An outline around a region: style 'hint' (a proposed move) or 'last' (the last move)."""
    colour, dash = {"hint": (_HIGHLIGHT, ""), "last": (_LAST, ' stroke-dasharray="5,3"'),
                    "pending": (_PENDING, ' stroke-dasharray="2,2"')}[style]
    return ('<rect class="%s" x="%s" y="%s" width="%s" height="%s" rx="%s" fill="none" stroke="%s" '
            'stroke-width="3"%s/>' % (style, _n(x), _n(y), _n(w), _n(h), rx, colour, dash))


def _ring(cx, cy, r, style):
    colour, dash = (_HIGHLIGHT, "") if style == "hint" else (_LAST, ' stroke-dasharray="5,3"')
    return ('<circle class="%s" cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="3"%s/>'
            % (style, _n(cx), _n(cy), _n(r), colour, dash))


# -- moves ----------------------------------------------------------------------------------------------------

def _parse(state, move):
    """What a move touches, for outlining: a dict with 'source' (factory index, 'C' for the centre, or None),
    'colour', and per variant 'line' (0-4, 5 the floor), 'cell' (row, column), 'space' (star, number) or
    'hand' / 'supply' / 'pass'.  None for a move it cannot read (chance moves included)."""
    if move is None:
        return None
    if not isinstance(move, str):
        move = state.action_to_string(move)
    if not move or move[0] == "~":
        return None
    pavilion = state.variant == "summer-pavilion"
    if pavilion:
        if len(move) == 2 and move[0] in "123456789C":
            return {"source": "C" if move[0] == "C" else int(move[0]) - 1, "colour": move[1], "hand": True}
        if len(move) == 4 and move[0] in _SP_STARS:
            return {"source": None, "colour": move[2], "space": (_SP_STARS.index(move[0]), int(move[1]))}
        if move[0] == "+":
            return {"source": None, "colour": move[1:2], "supply": True, "hand": True}
        if move[0] == "-":
            return {"source": None, "colour": None, "pass": True, "hand": True}
        return None
    if len(move) == 3 and move[0] == "W":
        return {"source": None, "colour": None, "cell": (int(move[1]) - 1, int(move[2]) - 1)}
    if len(move) == 3:
        line = 5 if move[2] == "F" else int(move[2]) - 1
        return {"source": "C" if move[0] == "C" else int(move[0]) - 1, "colour": move[1], "line": line}
    return None


def _history(state):
    """The decisions of the game so far as (round index, move index, move), or [] when the state has none."""
    try:
        record = state.record()
    except Exception:  # a state read from text without its history
        return []
    out = []
    for i, rnd in enumerate(record.get("rounds") or []):
        for j, move in enumerate(rnd.get("moves") or []):
            out.append((i, j, move))
    return out


def _replay_prefix(state, record, stop):
    """The state of ``record`` just before its decision number ``stop`` (counted over all rounds, chance
    moves included), replayed in explicit-chance mode in the engine of ``state``."""
    from . import records
    from ._backends import engine_of

    game = None
    for step in records.walk(record, engine_of(state), stop=stop):
        game = step.state
    return game


def last_move(state: State) -> Optional[LastMove]:
    """``(move, player)`` of the last decision played in ``state`` (chance moves skipped), or None."""
    found = _last(state)
    return None if found is None else (found[0], found[1])


def _last(state: State) -> Optional[Tuple[str, int, State]]:
    history = _history(state)
    index = len(history) - 1
    while index >= 0 and history[index][2][:1] == "~":
        index -= 1
    if index < 0:
        return None
    move = history[index][2]
    try:
        before = cast(State, _replay_prefix(state, state.record(), index))
    except Exception:  # a record this picture cannot replay: show no last move
        return None
    return move, before.current_player, before


# -- classic and grey ----------------------------------------------------------------------------------------

_BOARD_W, _BOARD_H = 262, 200
_FACTORY_R = 29
_FACTORY_PITCH = 66


def _classic_board(state, p, x0, y0, marks):
    """One player's board: pattern lines, wall, floor, score.  ``marks``: (style, info) outlines for this
    player."""
    grey = state.variant == "grey"
    out = ['<g id="player-%d" class="board">' % p]
    to_move = state.current_player == p and not state.is_over
    out.append('<rect x="%s" y="%s" width="%s" height="%s" rx="8" fill="%s" stroke="%s" stroke-width="%s"/>'
               % (_n(x0), _n(y0), _BOARD_W - 8, _BOARD_H - 8, "#f3ece0", "#333333" if to_move else "#a89f91",
                  2 if to_move else 1))
    title = "Player %d" % p
    if to_move:
        title += " (to move)"
    if p in (state.winners or []):
        title += " - winner"
    out.append(_text(x0 + 8, y0 + 16, title, size=12, weight="bold"))
    out.append(_text(x0 + _BOARD_W - 16, y0 + 16, "score %d" % state.scores[p], size=12, anchor="end",
                     weight="bold", cls="score"))
    lines = state.pattern_lines[p]
    wall = state.walls[p]
    top = y0 + 34
    lx = x0 + 8  # pattern lines area: 5 pitches wide, right aligned
    wx = lx + 5 * _P + 10
    # line numbers (the destination of a draft) and wall columns (the W move of the grey wall)
    out.append('<g class="labels">')
    for r in range(5):
        out.append(_text(lx + (4 - r) * _P - 3, top + r * _P + 14, str(r + 1), size=8, anchor="end",
                         fill="#8c8271"))
    for c in range(5):
        out.append(_text(wx + c * _P + _T / 2, top - 3, str(c + 1), size=8, anchor="middle", fill="#8c8271"))
    out.append("</g>")
    out.append('<g class="pattern-lines">')
    for r in range(5):
        y = top + r * _P
        tiles = lines[r]
        for k in range(r + 1):
            x = lx + (4 - k) * _P
            out.append(_tile(x, y, tiles[0]) if k < len(tiles) else _slot(x, y))
    out.append("</g>")
    out.append('<g class="wall">')
    for r in range(5):
        y = top + r * _P
        for c in range(5):
            x = wx + c * _P
            cell = wall[r][c]
            if cell != ".":
                out.append(_tile(x, y, cell))
            elif grey:
                out.append(_slot(x, y))
            else:
                out.append('<use xlink:href="#e-%s" x="%s" y="%s" width="%s" height="%s"/>'
                           % (_WALL[r][c], _n(x), _n(y), _T, _T))
    out.append("</g>")
    if state.variant == "grey" and state.phase == "tiling" and state.current_player == p \
            and state.pending_row >= 0:
        r = state.pending_row
        out.append(_mark(lx - 2, top + r * _P - 2, 5 * _P + 2, _P + 2, "pending"))
    fy = top + 5 * _P + 8
    out.append('<g class="floor">')
    floor = state.floors[p]
    for k in range(7):
        x = lx + k * _P
        out.append(_tile(x, fy, floor[k]) if k < len(floor) else _slot(x, fy))
        out.append(_text(x + _T / 2, fy + _T + 10, "-%d" % _FLOOR_PENALTIES[k], size=9, anchor="middle",
                         fill="#7a2020"))
    if len(floor) > 7:
        out.append(_text(lx + 7 * _P + 2, fy + 14, "+%d" % (len(floor) - 7), size=10))
    out.append("</g>")
    for style, info in marks:
        if "line" in info:
            line = info["line"]
            if line == 5:
                out.append(_mark(lx - 2, fy - 2, 7 * _P, _P + 2, style))
            else:
                out.append(_mark(lx + (4 - line) * _P - 2, top + line * _P - 2, (line + 1) * _P, _P + 2, style))
        if "cell" in info:
            r, c = info["cell"]
            out.append(_mark(wx + c * _P - 2, top + r * _P - 2, _P + 2, _P + 2, style))
    out.append("</g>")
    return "".join(out)


def _table_classic(state, x0, y0, width, marks):
    """Factories and the centre (with the first-player marker while it lies there)."""
    out = ['<g id="table">']
    factories = state.factories
    n = len(factories)
    per_row = max(1, min(n, int((width - 16) // _FACTORY_PITCH)))
    rows = (n + per_row - 1) // per_row
    for i, tiles in enumerate(factories):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        cx = x0 + width / 2 + (col - (in_row - 1) / 2) * _FACTORY_PITCH
        cy = y0 + _FACTORY_R + 4 + row * (2 * _FACTORY_R + 10)
        out.append('<g id="factory-%d" class="factory">' % (i + 1))
        out.append('<circle cx="%s" cy="%s" r="%d" fill="#e9e4f5" stroke="#6b5b95" stroke-width="1.5"/>'
                   % (_n(cx), _n(cy), _FACTORY_R))
        for k in range(4):
            x = cx - _P + (k % 2) * _P + 1
            y = cy - _P + (k // 2) * _P + 1
            out.append(_tile(x, y, tiles[k]) if k < len(tiles) else "")
        out.append(_text(cx - _FACTORY_R + 1, cy - _FACTORY_R + 8, str(i + 1), size=10, weight="bold",
                         fill="#6b5b95"))
        for style, info in marks:
            if info.get("source") == i:
                out.append(_ring(cx, cy, _FACTORY_R + 3, style))
                if style == "hint":
                    for k in range(len(tiles)):
                        if tiles[k] == info["colour"]:
                            out.append(_mark(cx - _P + (k % 2) * _P - 1, cy - _P + (k // 2) * _P - 1, _T + 4,
                                             _T + 4, style, rx=5))
        out.append("</g>")
    cy0 = y0 + rows * (2 * _FACTORY_R + 10) + 4
    centre = state.center
    marker = state.first_player_marker == -1 and not state.is_over
    items = (["M"] if marker else []) + list(centre)
    per = max(1, int((width - 90) // _P))
    lines = max(1, (len(items) + per - 1) // per)
    h = lines * _P + 10
    out.append('<g id="centre">')
    out.append('<rect x="%s" y="%s" width="%s" height="%s" rx="8" fill="#efe9d9" stroke="#a89f91"/>'
               % (_n(x0 + 8), _n(cy0), _n(width - 16), _n(h)))
    out.append(_text(x0 + 16, cy0 + 18, "centre", size=11, weight="bold", fill="#6d6353"))
    for k, letter in enumerate(items):
        row, col = divmod(k, per)
        x = x0 + 70 + col * _P
        y = cy0 + 5 + row * _P
        out.append(_tile(x, y, letter))
        for style, info in marks:
            if style == "hint" and info.get("source") == "C" and letter == info["colour"]:
                out.append(_mark(x - 2, y - 2, _T + 4, _T + 4, style, rx=5))
    for style, info in marks:
        if info.get("source") == "C":
            out.append(_mark(x0 + 5, cy0 - 3, width - 10, h + 6, style, rx=10))
    out.append("</g></g>")
    return "".join(out), cy0 + h - y0


# -- Summer Pavilion ------------------------------------------------------------------------------------------

_SP_D = 96  # board centre to an outer star's centre
_SP_R = 30  # star centre to a space's centre
_SP_BOARD = 2 * (_SP_D + _SP_R + 16)


def _star_centre(s):
    """Outer stars clockwise from the upper left (screen angles, y down); the centre star in the middle."""
    if s == 6:
        return 0.0, 0.0
    a = math.radians(-120 + 60 * s)
    return _SP_D * math.cos(a), _SP_D * math.sin(a)


def _space_angle(s, n):
    """Outer star s: spaces 2 and 3 face the centre, 1 (with 2) the next star clockwise, 4 (with 3) the one
    before, 5 and 6 face out: the ornaments' spaces are neighbours.  Centre star: spaces n and n+1 flank the
    direction of outer star n (mod 6), where that star's pillar stands."""
    if s == 6:
        return math.radians(-90 + 60 * (n - 1))
    return math.radians(-120 + 60 * s + 90 + 60 * (n - 1))


def _space_xy(s, n):
    cx, cy = _star_centre(s)
    a = _space_angle(s, n)
    return cx + _SP_R * math.cos(a), cy + _SP_R * math.sin(a), a


def _ornaments():
    """(kind, name, spaces as (star, number) pairs): 6 windows, 6 statues, 6 pillars, as the rules list them."""
    out = []
    for s in range(6):
        out.append(("window", "window %s" % _SP_STARS[s], ((s, 5), (s, 6))))
    for s in range(6):
        b = (s + 1) % 6
        out.append(("statue", "statue %s-%s" % (_SP_STARS[s], _SP_STARS[b]), ((s, 1), (s, 2), (b, 3), (b, 4))))
    for s in range(6):
        out.append(("pillar", "pillar %s" % _SP_STARS[s], ((s, 2), (s, 3), (6, (s + 5) % 6 + 1), (6, s + 1))))
    return out




def _diamond(cx, cy, a, length=25, width=19):
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -uy, ux
    pts = [(cx - ux * length / 2, cy - uy * length / 2), (cx + vx * width / 2, cy + vy * width / 2),
           (cx + ux * length / 2, cy + uy * length / 2), (cx - vx * width / 2, cy - vy * width / 2)]
    return " ".join("%s,%s" % (_n(x), _n(y)) for x, y in pts)


def _ornament_xy(kind, spaces):
    xs = [_space_xy(s, n) for s, n in spaces]
    ox = sum(x for x, _, _ in xs) / len(xs)
    oy = sum(y for _, y, _ in xs) / len(xs)
    if kind == "window":  # beyond the two outward spaces
        sx, sy = _star_centre(spaces[0][0])
        d = math.hypot(ox - sx, oy - sy) or 1.0
        ox += (ox - sx) / d * 11
        oy += (oy - sy) / d * 11
    return ox, oy


def _pavilion_defs():
    """What every Summer Pavilion board shares, drawn once: the seven stars with their empty spaces, colours
    and costs (``sp-board``, centred on 0,0), and the ornament marks, open and done."""
    out = ['<g id="sp-board">']
    for s in range(7):
        star = _SP_STARS[s]
        sx, sy = _star_centre(s)
        colour = _STAR_COLOUR.get(star)
        out.append(_text(sx, sy + 4, star, size=11, anchor="middle", weight="bold",
                         fill=PAVILION_COLOURS[colour][0] if colour else "#6d6353"))
        fill = PAVILION_COLOURS[colour][0] if colour else "#bdb5a6"
        for n in range(1, 7):
            x, y, a = _space_xy(s, n)
            out.append('<polygon points="%s" fill="%s" fill-opacity="0.25" stroke="#8c8271"/>'
                       % (_diamond(x, y, a), fill))
            out.append(_text(x, y + 3.5, str(n), size=9, anchor="middle", fill="#333333"))
    out.append("</g>")
    for kind, label in (("window", "3"), ("statue", "2"), ("pillar", "1")):
        for done in (False, True):
            fill = "#8c7b5a" if done else "#ffffff"
            out.append('<symbol id="o-%s%s" viewBox="-7 -7 14 14">' % (kind, "-done" if done else ""))
            if kind == "window":
                out.append('<rect x="-5.5" y="-5.5" width="11" height="11" fill="%s" stroke="#6d6353"/>' % fill)
            elif kind == "statue":
                out.append('<circle cx="0" cy="0" r="6" fill="%s" stroke="#6d6353"/>' % fill)
            else:
                out.append('<polygon points="0,-6 5.5,4.5 -5.5,4.5" fill="%s" stroke="#6d6353"/>' % fill)
            out.append(_text(0, 3, label, size=7, anchor="middle", fill="#ffffff" if done else "#6d6353"))
            out.append("</symbol>")
    return "".join(out)


def _pavilion_board(state, p, x0, y0, marks):
    out = ['<g id="player-%d" class="board">' % p]
    to_move = state.current_player == p and not state.is_over
    w, h = _SP_BOARD + 20, _SP_BOARD + 62
    out.append('<rect x="%s" y="%s" width="%s" height="%s" rx="8" fill="#f3ece0" stroke="%s" stroke-width="%s"/>'
               % (_n(x0), _n(y0), w - 8, h - 8, "#333333" if to_move else "#a89f91", 2 if to_move else 1))
    title = "Player %d" % p
    if to_move:
        title += " (to move)"
    if state.passed[p] and state.phase in ("play", "bonus"):
        title += " (passed)"
    if state.first_player_marker == p and not state.is_over:
        title += " (start token)"
    if p in (state.winners or []):
        title += " - winner"
    out.append(_text(x0 + 8, y0 + 16, title, size=12, weight="bold"))
    out.append(_text(x0 + w - 16, y0 + 16, "score %d" % state.scores[p], size=12, anchor="end", weight="bold",
                     cls="score"))
    cx0, cy0 = x0 + (w - 8) / 2, y0 + 22 + _SP_BOARD / 2
    out.append('<use xlink:href="#sp-board" x="%s" y="%s"/>' % (_n(cx0), _n(cy0)))
    board = state.boards[p]
    out.append('<g class="ornaments">')
    for kind, name, spaces in _ORNAMENTS:
        ox, oy = _ornament_xy(kind, spaces)
        done = all(board[s][n - 1] != "." for s, n in spaces)
        out.append('<use class="ornament %s%s" xlink:href="#o-%s%s" x="%s" y="%s" width="14" height="14"/>'
                   % (kind, " done" if done else "", kind, "-done" if done else "", _n(cx0 + ox - 7),
                      _n(cy0 + oy - 7)))
    out.append("</g>")
    for s in range(7):
        star = _SP_STARS[s]
        out.append('<g id="star-%d-%s" class="star">' % (p, star))
        for n in range(1, 7):
            tile = board[s][n - 1]
            x, y, a = _space_xy(s, n)
            x, y = cx0 + x, cy0 + y
            if tile != ".":
                fill, ink = PAVILION_COLOURS[tile]
                out.append('<polygon class="space covered %s n%d" points="%s" fill="%s" stroke="#333333"/>'
                           % (tile, n, _diamond(x, y, a), fill))
                out.append(_text(x, y + 4, tile, size=10, anchor="middle", weight="bold", fill=ink))
            for style, info in marks:
                if info.get("space") == (s, n):
                    out.append('<polygon class="%s" points="%s" fill="none" stroke="%s" stroke-width="3"%s/>'
                               % (style, _diamond(x, y, a, 31, 25), _HIGHLIGHT if style == "hint" else _LAST,
                                  "" if style == "hint" else ' stroke-dasharray="5,3"'))
        out.append("</g>")
    hy = y0 + 26 + _SP_BOARD
    hand = state.hands[p]
    out.append('<g class="hand">')
    out.append(_text(x0 + 8, hy + 14, "hand", size=10, fill="#6d6353"))
    pitch = min(_P, (w - 60 - _T) / max(1, len(hand) - 1))  # a large hand overlaps its tiles
    for k, letter in enumerate(hand):
        out.append(_tile(x0 + 40 + k * pitch, hy, letter))
    for style, info in marks:
        if info.get("hand"):
            out.append(_mark(x0 + 36, hy - 3, w - 52, _P + 4, style))
    out.append("</g></g>")
    return "".join(out)


def _table_pavilion(state, x0, y0, width, marks):
    out = ['<g id="table">']
    factories = state.factories
    n = len(factories)
    per_row = max(1, min(n, int((width - 16) // _FACTORY_PITCH)))
    rows = (n + per_row - 1) // per_row
    wild = state.wild
    for i, tiles in enumerate(factories):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        cx = x0 + width / 2 + (col - (in_row - 1) / 2) * _FACTORY_PITCH
        cy = y0 + _FACTORY_R + 4 + row * (2 * _FACTORY_R + 10)
        out.append('<g id="factory-%d" class="factory">' % (i + 1))
        out.append('<circle cx="%s" cy="%s" r="%d" fill="#e9e4f5" stroke="#6b5b95" stroke-width="1.5"/>'
                   % (_n(cx), _n(cy), _FACTORY_R))
        for k in range(min(4, len(tiles))):
            out.append(_tile(cx - _P + (k % 2) * _P + 1, cy - _P + (k // 2) * _P + 1, tiles[k]))
        out.append(_text(cx - _FACTORY_R + 1, cy - _FACTORY_R + 8, str(i + 1), size=10, weight="bold",
                         fill="#6b5b95"))
        for style, info in marks:
            if info.get("source") == i:
                out.append(_ring(cx, cy, _FACTORY_R + 3, style))
                if style == "hint":
                    for k in range(min(4, len(tiles))):
                        if tiles[k] == info["colour"] or (tiles[k] == wild and info["colour"] != wild):
                            out.append(_mark(cx - _P + (k % 2) * _P - 1, cy - _P + (k // 2) * _P - 1, _T + 4,
                                             _T + 4, style, rx=5))
                            if tiles[k] == wild:
                                wild = None  # only one wild tile comes along
                    wild = state.wild
        out.append("</g>")
    y = y0 + rows * (2 * _FACTORY_R + 10) + 4
    # centre with the start token
    items = (["M"] if state.first_player_marker == -1 and state.phase in ("acquire", "fill") else []) \
        + list(state.center)
    per = max(1, int((width - 90) // _P))
    lines = max(1, (len(items) + per - 1) // per)
    h = lines * _P + 10
    out.append('<g id="centre">')
    out.append('<rect x="%s" y="%s" width="%s" height="%s" rx="8" fill="#efe9d9" stroke="#a89f91"/>'
               % (_n(x0 + 8), _n(y), _n(width - 16), _n(h)))
    out.append(_text(x0 + 16, y + 18, "centre", size=11, weight="bold", fill="#6d6353"))
    for k, letter in enumerate(items):
        row, col = divmod(k, per)
        tx, ty = x0 + 70 + col * _P, y + 5 + row * _P
        out.append(_tile(tx, ty, letter))
        for style, info in marks:
            if style == "hint" and info.get("source") == "C" and letter == info["colour"]:
                out.append(_mark(tx - 2, ty - 2, _T + 4, _T + 4, style, rx=5))
    for style, info in marks:
        if info.get("source") == "C":
            out.append(_mark(x0 + 5, y - 3, width - 10, h + 6, style, rx=10))
    out.append("</g>")
    y += h + 6
    # supply (10 spaces) and the round's wild colour
    out.append('<g id="supply">')
    out.append('<rect x="%s" y="%s" width="%s" height="%s" rx="8" fill="#e3efe3" stroke="#7f9f7f"/>'
               % (_n(x0 + 8), _n(y), _n(width - 16), _P + 10))
    out.append(_text(x0 + 16, y + 18, "supply", size=11, weight="bold", fill="#4f6f4f"))
    supply = state.supply
    for k in range(10):
        tx = x0 + 70 + k * _P
        out.append(_tile(tx, y + 5, supply[k]) if k < len(supply) else _slot(tx, y + 5))
    for style, info in marks:
        if info.get("supply"):
            out.append(_mark(x0 + 66, y + 1, 10 * _P + 4, _P + 4, style))
    out.append("</g>")
    wx = x0 + 70 + 10 * _P + 14
    out.append('<g id="wild">')
    out.append(_text(wx, y + 19, "wild", size=11, weight="bold", fill="#6d6353"))
    if not state.is_over:
        out.append(_tile(wx + 30, y + 5, wild))
    out.append("</g></g>")
    return "".join(out), y + _P + 10 - y0


# -- the whole picture ----------------------------------------------------------------------------------------

_PHASES = {"offer": "drafting", "tiling": "wall tiling", "acquire": "phase 1, taking tiles",
           "play": "phase 2, placing tiles", "bonus": "taking bonus tiles", "fill": "dealing",
           "first-player": "drawing the first player", "over": "game over"}


def _variant_name(state: State) -> str:
    return {"classic": "Azul", "grey": "Azul (grey wall)", "summer-pavilion": "Azul: Summer Pavilion"}[
        state.variant]


def parts(state: State, seat: Optional[int] = None, highlight: Optional[Move] = None,
          last: Optional[LastMove] = None) -> Tuple[float, float, str, List[str]]:
    """The picture as (width, height, defs, [fragments]): fragment 0 the heading, 1 the table, then one board
    per player.  ``last``: (move, player) of the last move, or None.  ``board`` joins them; the HTML replay
    keeps each distinct fragment once."""
    if not all(hasattr(state, name) for name in ("variant", "players", "legal_actions", "to_text")):
        raise TypeError("a picture is of a game state (GameState or PavilionState), not %s" % type(state).__name__)
    pavilion = state.variant == "summer-pavilion"
    players = state.players
    seat = 0 if seat is None else seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError("seat must be a player of this game, 0-%d, not %r" % (players - 1, seat))
    hint = None
    if highlight is not None:
        action = state.string_to_action(highlight) if isinstance(highlight, str) else highlight
        if action not in state.legal_actions():
            raise ValueError("highlight %r is not a legal move of this position" % (highlight,))
        highlight = state.action_to_string(action)
        hint = _parse(state, highlight)
    last_info = _parse(state, last[0]) if last else None
    bw = (_SP_BOARD + 20) if pavilion else _BOARD_W
    bh = (_SP_BOARD + 62) if pavilion else _BOARD_H
    others = [(seat + k) % players for k in range(1, players)]
    turn = state.current_player
    status = "game over" if state.is_over else _PHASES.get(state.phase, state.phase)
    heading = "%s, %d players, round %d: %s" % (_variant_name(state), players, state.round, status)
    if not state.is_over and turn >= 0:
        heading += ", player %d to move" % turn
    # wide enough for the heading (13 px bold: at most about 7.5 px a character)
    width = max(bw * len(others), 5 * _FACTORY_PITCH + 30, 500, int(7.5 * len(heading))) + 16
    head_h = 56
    fragments = []
    lines = [heading, "", ""]
    if state.is_over:
        lines[1] = "final scores %s; winner%s %s" % (
            " ".join(str(x) for x in state.scores), "s" if len(state.winners) > 1 else "",
            " ".join(str(x) for x in state.winners))
    news = []
    if pavilion and state.phase == "bonus":
        owed = cast("PavilionState", state).bonus_owed
        news.append("player %d takes %d bonus tile%s" % (turn, owed, "" if owed == 1 else "s"))
    if not pavilion and state.phase == "tiling" and cast("GameState", state).pending_row >= 0:
        news.append("placing the tile of line %d" % (cast("GameState", state).pending_row + 1))
    if last:
        news.append("last move %s (player %d)" % last)
    if hint is not None:
        news.append("proposed %s (player %d)" % (highlight, turn))
    lines[1] = "; ".join(x for x in [lines[1]] + news if x)
    if pavilion:
        lines[2] = "bag %d, tower %d" % (len(state.bag), len(cast("PavilionState", state).tower))
    else:
        lines[2] = "bag %d, lid %d" % (len(state.bag), len(cast("GameState", state).lid))
    fragments.append('<g id="heading">%s%s%s</g>' % (
        _text(8, 17, lines[0], size=13, weight="bold", cls="heading"),
        _text(8, 33, lines[1], size=11, fill="#444444", cls="status"),
        _text(8, 48, lines[2], size=11, fill="#444444", cls="counts")))

    def board_marks(p):
        out = []
        if last_info is not None and last is not None and last[1] == p:
            out.append(("last", last_info))
        if hint is not None and turn == p:
            out.append(("hint", hint))
        return out

    table_marks = [m for m in ((("last", last_info) if last_info else None), (("hint", hint) if hint else None))
                   if m is not None]
    y = head_h
    boards = {}
    row_x = (width - bw * len(others)) / 2
    for k, p in enumerate(others):
        maker = _pavilion_board if pavilion else _classic_board
        boards[p] = maker(state, p, row_x + k * bw, y, board_marks(p))
    y += bh
    table, th = (_table_pavilion if pavilion else _table_classic)(state, 0, y, width, table_marks)
    y += th + 10
    boards[seat] = (_pavilion_board if pavilion else _classic_board)(state, seat, (width - bw) / 2, y,
                                                                      board_marks(seat))
    y += bh
    fragments.append(table)
    fragments.extend(boards[p] for p in range(players))
    defs = _defs(PAVILION_COLOURS if pavilion else COLOURS)
    if pavilion:
        defs = defs.replace("</defs>", _pavilion_defs() + "</defs>")
    return width, y, defs, fragments


def _open(width: float, height: float, size: Optional[float], title: str) -> str:
    if size is None:
        w, h = width, height
    else:
        if isinstance(size, bool) or not isinstance(size, (int, float)) or not 0 < size <= MAX_SIZE:
            raise ValueError("size must be a number of pixels above 0 and at most %d, not %r" % (MAX_SIZE, size))
        w, h = size, size * height / width
    return ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" '
            'width="%s" height="%s" viewBox="0 0 %s %s" %s><title>%s</title>'
            '<rect width="%s" height="%s" fill="#fbf8f1"/>' % (_n(w), _n(h), _n(width), _n(height), _FONT,
                                                                escape(title), _n(width), _n(height)))


def document(width: float, height: float, defs: str, fragments: List[str], title: str,
             size: Optional[float] = None) -> str:
    """An SVG document (a string) of what ``parts`` gives (``width``, ``height``, ``defs``, ``fragments``), with
    ``title`` and ``size`` pixels wide (None: its natural size)."""
    return _open(width, height, size, title) + defs + "".join(fragments) + "</svg>"


def board(state: State, size: Optional[float] = None, seat: Optional[int] = None, highlight: Optional[Move] = None,
          last_move: Union[bool, LastMove] = True, flipped: bool = False) -> str:
    """The position as an SVG 1.1 document (a string).

    ``size``: width in pixels (default: natural size, about 300-800 px); ``seat``: the player seen from below
    (default 0; the others sit across the table); ``flipped=True`` is the 2-player shorthand for seat 1;
    ``highlight``: a legal move (notation or action id) to outline, for a hint or a proposed move;
    ``last_move``: outline the last move played (taken from the state's history; a state read from text without
    it has none), or the ``(move, player)`` given (``records.walk`` knows it for a record's position).  Raises ValueError for a seat that is not a player, a highlight that is no legal move, or a
    size not above 0 and at most MAX_SIZE (100,000) pixels; TypeError for what is not a game state.
    """
    if flipped:
        seat = ((0 if seat is None else seat) + 1) % state.players
    last: Optional[LastMove]
    if isinstance(last_move, tuple):
        last = last_move
    else:
        found = _last(state) if last_move else None
        last = None if found is None else (found[0], found[1])
    width, height, defs, fragments = parts(state, seat, highlight, last)
    return document(width, height, defs, fragments, cast(str, fragments and _title(state)), size) + "\n"


def _title(state: State) -> str:
    return "%s, %d players, round %d" % (_variant_name(state), state.players, state.round)


def _repr_svg_(state: State) -> str:
    """Jupyter's picture of a state: ``board(state)``."""
    return board(state)


def install(engine: ModuleType) -> None:
    """Give the state classes of an engine module ``_repr_svg_``; called when the module is loaded."""
    _take_facts(engine)
    for name in ("GameState", "PavilionState"):
        cls = getattr(engine, name, None)
        if cls is not None and getattr(cls, "_repr_svg_", None) is not _repr_svg_:
            try:
                cls._repr_svg_ = _repr_svg_
            except (AttributeError, TypeError):  # a class that takes no attributes: no picture in notebooks
                pass
