"""Classic and grey-wall Azul, pure-Python engine: wall tiling, scoring, the end of a round and of the game (rules
sections 1-2).

C++ twin: native/src/classic/scoring.cpp.
"""


from ..._errors import StateFormatError
from .types import (
    CHANCE,
    COLOURS,
    FLOOR_PENALTY,
    FLOOR_SPACES,
    MAX_ROUNDS,
    OFFER,
    OVER,
    TILING,
    WALL_VARIANTS,
)
from .notation import _NO_TILES
from .text import _parse_wall


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


def _tile_line(self, p, row, col):
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
                self._tile_line(p, r, (colour + r) % 5)  # _wall_column
            elif self._allowed_columns(p, r, colour):
                if not choose_best:
                    self._turn = p
                    return False  # the player chooses the column
                self._tile_line(p, r, self._best_column(p, r, colour))
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
