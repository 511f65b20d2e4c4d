"""Classic and grey-wall Azul, pure-Python engine: state text, written and read back, and the readable board.

C++ twin: native/src/classic/text.cpp.
"""


from .. import common as _common
from ..._errors import StateFormatError
from ..pavilion.state import _from_text as _pavilion_from_text
from ..common import MASK64 as _MASK64
from .types import (
    CHANCE,
    COLOURS,
    COLOUR_NAMES,
    FILL,
    FIRST_PLAYER,
    FLOOR_PENALTY,
    FLOOR_SPACES,
    MAX_ROUNDS,
    OFFER,
    OVER,
    PHASE_NAMES,
    TEXT_VERSION,
    TILES_PER_COLOUR,
    TILING,
    VARIANTS,
    _num_factories,
    _wall_column,
)
from .notation import _parse_move, _parse_tiles, _tiles_to_str


_counts = _common.counts_text


_FIELDS = ("variant", "players", "chance", "seed", "rng", "round", "phase", "turn", "start",
           "marker", "moves", "factories", "center", "bag", "lid", "prefill")


_is_uint = _common.is_uint
_int_field = _common.int_field


def _count_list(value, key):
    return _common.count_list(value, key, 5, TILES_PER_COLOUR)


def read_state(cls, text):
    """The ``cls`` (GameState) of a state text written by ``to_text``, or the PavilionState of a Summer Pavilion
    one; state.py's ``_from_text`` calls it with the class."""
    if not isinstance(text, str):
        raise TypeError("state text must be a str, not %s" % type(text).__name__)
    tokens = _common.state_tokens(text)
    if not tokens or not tokens[0].startswith("azul-state/"):
        raise StateFormatError("not an Azul state: the text must start with azul-state/%d"
                               % TEXT_VERSION)
    if tokens[0] != "azul-state/%d" % TEXT_VERSION:
        if tokens[0].startswith("azul-state/%d" % TEXT_VERSION):
            _common.check_ascii_token(tokens[0])  # the header ran on: a non-ASCII space after it
        raise StateFormatError("unsupported state text version %r (this engine reads "
                               "azul-state/%d)" % (tokens[0], TEXT_VERSION))
    if "variant=summer-pavilion" in tokens:
        return _pavilion_from_text(text)
    fields, order = _common.key_values(tokens[1:])
    for key in _FIELDS:
        if key not in fields:
            raise StateFormatError("field %s is missing" % key)
    if fields["variant"] not in VARIANTS:
        raise StateFormatError("field variant: unknown variant %r" % fields["variant"])
    variant = VARIANTS.index(fields["variant"])
    players = _int_field(fields, "players", 2, 4)
    if fields["chance"] not in ("sampled", "explicit"):
        raise StateFormatError("field chance: %r is not sampled or explicit" % fields["chance"])
    explicit = fields["chance"] == "explicit"
    seed = _int_field(fields, "seed", 0, _MASK64)
    rng_text = fields["rng"]
    if len(rng_text) != 16 or any(ch not in "0123456789abcdef" for ch in rng_text):
        raise StateFormatError("field rng: %r is not 16 lower-case hex digits" % rng_text)
    g = cls._blank(players, variant, explicit, seed)
    g._rng = int(rng_text, 16)
    g._round = _int_field(fields, "round", 1, MAX_ROUNDS)
    if fields["phase"] not in PHASE_NAMES:
        raise StateFormatError("field phase: unknown phase %r" % fields["phase"])
    g._phase = PHASE_NAMES.index(fields["phase"])
    g._turn = _int_field(fields, "turn", -1, players - 1)
    g._start = _int_field(fields, "start", -1, players - 1)
    if fields["marker"] == "C":
        g._marker = -1
    else:
        g._marker = _int_field(fields, "marker", 0, players - 1)
    g._moves = _int_field(fields, "moves", 0, 10 ** 6)
    facs = fields["factories"].split(",")
    nf = _num_factories(players)
    if len(facs) != nf:
        raise StateFormatError("field factories: %d players have %d factories, not %d"
                               % (players, nf, len(facs)))
    for i, f in enumerate(facs):
        g._factories[i] = _parse_tiles(f, "field factories, factory %d" % (i + 1))
        if sum(g._factories[i]) > 4:
            raise StateFormatError("field factories: factory %d holds more than 4 tiles"
                                   % (i + 1))
    g._centre = _parse_tiles(fields["center"], "field center")
    if max(g._centre) > TILES_PER_COLOUR:
        raise StateFormatError("field center: more than %d tiles of a colour" % TILES_PER_COLOUR)
    g._bag = _count_list(fields["bag"], "bag")
    g._lid = _count_list(fields["lid"], "lid")
    pre = fields["prefill"].split("/")
    if len(pre) != 2:
        raise StateFormatError("field prefill: %r is not bag counts/lid counts"
                               % fields["prefill"])
    g._prefill_bag = _count_list(pre[0], "prefill")
    g._prefill_lid = _count_list(pre[1], "prefill")
    for p in range(players):
        key = "p%d" % p
        if key not in fields:
            raise StateFormatError("field %s is missing" % key)
        _read_player(g, p, fields[key])
    history_keys = _common.history_keys(order)
    known = set(_FIELDS) | {"p%d" % p for p in range(players)} | set(history_keys)
    for key in order:
        if key not in known:
            raise StateFormatError("unknown field %s" % _common.field_name(key))
    _check_consistency(g)
    if "history" in fields:
        _read_history(g, fields, history_keys)
    else:
        _common.refuse_rounds_without_history(history_keys)
        g._h_complete = g._round == 1 and g._moves == 0 and g._phase in (FIRST_PLAYER, FILL,
                                                                          OFFER)
        g._h_seed = None
        g._h_first = g._start
        if g._phase == OFFER and g._h_complete:
            g._h_rounds = [[g.factories, [], None]]
    return g


def _read_player(g, p, value):
    key = "p%d" % p
    parts = value.split(":")
    if len(parts) != 4:
        raise StateFormatError("field %s: %r is not score:lines:wall:floor" % (key, value))
    score_text, lines_text, wall_text, floor_text = parts
    if not _is_uint(score_text) or len(score_text) > 6:
        raise StateFormatError("field %s: score %r is not a whole number of 0 or more"
                               % (key, score_text))
    g._score[p] = int(score_text)
    lines = lines_text.split("/")
    if len(lines) != 5:
        raise StateFormatError("field %s: %r is not 5 pattern lines" % (key, lines_text))
    for r, line in enumerate(lines):
        counts = _parse_tiles(line, "field %s, pattern line %d" % (key, r + 1))
        colours = [c for c in range(5) if counts[c]]
        if len(colours) > 1:
            raise StateFormatError("field %s: pattern line %d mixes colours" % (key, r + 1))
        if colours:
            c = colours[0]
            if counts[c] > r + 1:
                raise StateFormatError("field %s: pattern line %d holds %d tiles, more than "
                                       "its %d spaces" % (key, r + 1, counts[c], r + 1))
            g._line_colour[p][r] = c
            g._line_count[p][r] = counts[c]
    rows = wall_text.split("/")
    if len(rows) != 5 or any(len(x) != 5 for x in rows):
        raise StateFormatError("field %s: wall %r is not 5 rows of 5 cells" % (key, wall_text))
    wall = g._wall[p] = _parse_wall(rows, g._variant == 0, "field %s" % key)
    g._row_colours[p] = [sum(1 << x for x in wall[r * 5:r * 5 + 5] if x >= 0) for r in range(5)]
    for r in range(5):
        c = g._line_colour[p][r]
        if c >= 0 and _colour_in_row(wall, r, c):
            raise StateFormatError("field %s: pattern line %d holds %s, which wall row %d "
                                   "already has" % (key, r + 1, COLOUR_NAMES[c], r + 1))
    if floor_text.startswith("M"):
        if g._marker != p:
            raise StateFormatError("field %s: the floor holds the marker, but marker=%s"
                                   % (key, "C" if g._marker < 0 else g._marker))
        g._marker_floor = True
        floor_text = floor_text[1:] or "-"
    g._floor[p] = _parse_tiles(floor_text, "field %s, floor" % key)
    if sum(g._floor[p]) + (1 if g._marker == p and g._marker_floor else 0) > FLOOR_SPACES:
        raise StateFormatError("field %s: the floor holds more than 7 items" % key)


def _parse_wall(rows, classic, what):
    """Five rows of five cells (colour letters, '.') as 25 cells; checks that no colour repeats
    in a row or column and, on the coloured wall, that every tile sits in its colour's cell."""
    wall = [-1] * 25
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                continue
            if ch not in COLOURS:
                raise StateFormatError("%s: wall row %d has %r, not a colour or '.'"
                                       % (what, r + 1, ch))
            colour = COLOURS.index(ch)
            if classic and _wall_column(colour, r) != c:
                raise StateFormatError("%s: impossible wall: %s cannot be in row %d, column %d "
                                       "of the coloured wall"
                                       % (what, COLOUR_NAMES[colour], r + 1, c + 1))
            wall[r * 5 + c] = colour
    for r in range(5):
        row = [wall[r * 5 + c] for c in range(5) if wall[r * 5 + c] >= 0]
        if len(set(row)) != len(row):
            raise StateFormatError("%s: impossible wall: row %d repeats a colour" % (what, r + 1))
        col = [wall[rr * 5 + r] for rr in range(5) if wall[rr * 5 + r] >= 0]
        if len(set(col)) != len(col):
            raise StateFormatError("%s: impossible wall: column %d repeats a colour"
                                   % (what, r + 1))
    return wall


def _colour_in_row(wall, row, colour):
    return colour in wall[row * 5:row * 5 + 5]


def _check_consistency(g):
    for c in range(5):
        total = (sum(f[c] for f in g._factories) + g._centre[c] + g._bag[c] + g._lid[c]
                 + sum(w.count(c) for w in g._wall) + sum(fl[c] for fl in g._floor)
                 + sum(g._line_count[p][r] for p in range(g._players) for r in range(5)
                       if g._line_colour[p][r] == c))
        if total != TILES_PER_COLOUR:
            raise StateFormatError("wrong tile total: %d %s tiles in play, not %d"
                                   % (total, COLOUR_NAMES[c], TILES_PER_COLOUR))
    if sum(g._prefill_bag) + sum(g._prefill_lid) > 5 * TILES_PER_COLOUR:
        raise StateFormatError("field prefill: more than 100 tiles")
    if g._phase in (FIRST_PLAYER, FILL) or (g._phase == OFFER and g._moves == 0):
        # deal() takes its tiles from the prefill bag and lid: they must be this round's tiles.
        for c in range(5):
            before = g._prefill_bag[c] + g._prefill_lid[c]
            now = g._bag[c] + g._lid[c] + sum(f[c] for f in g._factories)
            if before != now:
                raise StateFormatError("field prefill: %d %s tiles in bag and lid before the fill, "
                                       "but %d in bag, lid and factories" % (before, COLOUR_NAMES[c], now))
    phase = g._phase
    name = PHASE_NAMES[phase]
    if phase in (FIRST_PLAYER, FILL, OVER):
        if g._turn != CHANCE:
            raise StateFormatError("field turn: must be -1 in phase %s" % name)
    elif g._turn < 0:
        raise StateFormatError("field turn: phase %s needs a player to move" % name)
    if phase in (FIRST_PLAYER, FILL) and not g._explicit:
        raise StateFormatError("field phase: %s happens only with chance=explicit" % name)
    if phase == FIRST_PLAYER:
        if g._start != -1 or g._round != 1:
            raise StateFormatError("field phase: first-player is round 1 with start=-1")
    elif g._start < 0:
        raise StateFormatError("field start: phase %s needs the round's starting player" % name)
    if phase == FILL:
        sizes = [sum(f) for f in g._factories]
        if any(sizes[i] < 4 and sizes[i + 1] > 0 for i in range(len(sizes) - 1)):
            raise StateFormatError("field factories: factories fill in order, 4 tiles each")
        if all(s == 4 for s in sizes) or not (any(g._bag) or any(g._lid)):
            raise StateFormatError("field phase: fill, but the factories cannot take a tile")
        if any(g._centre) or g._marker >= 0:
            raise StateFormatError("field phase: fill, but the round is under way")
    if phase == TILING:
        if g._variant != 1:
            raise StateFormatError("field phase: tiling decisions happen only on the grey wall")
        p = g._turn
        r = g._pending_row(p)
        if r < 0 or not g._allowed_columns(p, r, g._line_colour[p][r]):
            raise StateFormatError("field phase: tiling, but player %d has no pattern line "
                                   "waiting for a wall column" % p)
        if any(g._centre) or any(any(f) for f in g._factories):
            raise StateFormatError("field phase: tiling, but tiles are still on offer")
    if phase == OFFER and not (any(g._centre) or any(any(f) for f in g._factories)):
        raise StateFormatError("field phase: offer, but no tile is on offer")
    if g._marker >= 0 and phase not in (OFFER, TILING, OVER):
        raise StateFormatError("field marker: the marker is taken only during the offer")
    if (phase == OFFER and g._marker >= 0 and not g._marker_floor
            and sum(g._floor[g._marker]) < FLOOR_SPACES):
        raise StateFormatError("field marker: player %d keeps the marker aside, which happens "
                               "only on a full floor" % g._marker)


def _read_history(g, fields, keys):
    g._h_seed, g._h_first, g._h_complete, _ = _common.read_history_head(
        fields["history"], g._players, 3, "seed:first:complete")
    g._h_rounds = _common.read_rounds(
        fields, keys, g._players, _parse_tiles, _parse_move,
        "history rounds must be r1, r2, ... in order")


def _board_text(g):
    lines = []
    phase = g._phase
    head = "Azul (%s wall), %d players, round %d, " % (
        "coloured" if g._variant == 0 else "grey", g._players, g._round)
    if phase == OVER:
        head += "game over, winners: %s" % ", ".join("player %d" % p for p in g.winners)
    elif phase == FIRST_PLAYER:
        head += "chance: the first player is drawn"
    elif phase == FILL:
        head += "chance: a tile is drawn from the bag"
    elif phase == TILING:
        head += "wall tiling: player %d places pattern line %d" % (
            g._turn, g._pending_row(g._turn) + 1)
    else:
        head += "player %d to move" % g._turn
    lines.append(head)
    lines.append("Factories: " + "  ".join("%d:%s" % (i + 1, _tiles_to_str(f) or "-")
                                            for i, f in enumerate(g._factories)))
    lines.append("Centre: %s%s" % ("M " if g._marker < 0 and phase == OFFER else "",
                                   _tiles_to_str(g._centre) or "-"))
    lines.append("Bag: %d  Lid: %d" % (sum(g._bag), sum(g._lid)))
    walls, pattern = g.walls, g.pattern_lines
    for p in range(g._players):
        tags = []
        if p == g._start:
            tags.append("started the round")
        if p == g._turn:
            tags.append("to move")
        lines.append("Player %d: score %d%s" % (p, g._score[p],
                                                 " (" + ", ".join(tags) + ")" if tags else ""))
        for r in range(5):
            line = pattern[p][r]
            shown = "." * (r + 1 - len(line)) + line
            row = walls[p][r]
            if g._variant == 0:  # show the colour each empty cell takes, in lower case
                row = "".join(ch if ch != "." else COLOURS[(c - r) % 5].lower()
                              for c, ch in enumerate(row))
            lines.append("  %5s > %s" % (shown, " ".join(row)))
        floor = g.floors[p]
        items = len(floor)
        lines.append("  floor: %s (-%d)" % (" ".join(floor) or "-",
                                            FLOOR_PENALTY[min(items, FLOOR_SPACES)]))
    return "\n".join(lines)


def to_text(self, history=False):
    """The position and generator as one versioned line; see :meth:`from_text`.

    With ``history=True`` the game's history follows, so that :meth:`record` still works
    on the state read back.
    """
    out = ["azul-state/%d" % TEXT_VERSION,
           "variant=" + VARIANTS[self._variant],
           "players=%d" % self._players,
           "chance=" + ("explicit" if self._explicit else "sampled"),
           "seed=%d" % self._seed,
           "rng=%016x" % self._rng,
           "round=%d" % self._round,
           "phase=" + PHASE_NAMES[self._phase],
           "turn=%d" % self._turn,
           "start=%d" % self._start,
           "marker=" + ("C" if self._marker < 0 else str(self._marker)),
           "moves=%d" % self._moves,
           "factories=" + ",".join(_tiles_to_str(f) or "-" for f in self._factories),
           "center=" + (_tiles_to_str(self._centre) or "-"),
           "bag=" + _counts(self._bag),
           "lid=" + _counts(self._lid),
           "prefill=" + _counts(self._prefill_bag) + "/" + _counts(self._prefill_lid)]
    lines, walls, floors = self.pattern_lines, self.walls, self.floors
    for p in range(self._players):
        out.append("p%d=%d:%s:%s:%s" % (p, self._score[p],
                                        "/".join(x or "-" for x in lines[p]),
                                        "/".join(walls[p]), floors[p] or "-"))
    if history:
        out.append("history=" + ("-" if self._h_seed is None else str(self._h_seed))
                   + ":%d:%d" % (self._h_first, 1 if self._h_complete else 0))
        out.extend(_common.rounds_text(self._h_rounds))
    return " ".join(out)
