"""Classic and grey-wall Azul, pure-Python engine: checking and playing a move (rules sections 1-2).

C++ twin: native/src/classic/apply.cpp.
"""


from ..._errors import IllegalMoveError
from .types import (
    CENTRE,
    COLOUR_NAMES,
    DRAW_ACTION_BASE,
    FILL,
    FIRST_PLAYER,
    FIRST_PLAYER_ACTION_BASE,
    FLOOR,
    FLOOR_SPACES,
    NUM_ACTIONS,
    NUM_DRAFT_ACTIONS,
    OFFER,
    OVER,
    TILE_ACTION_BASE,
    TILING,
)
from .notation import _DRAFT_PARTS, _DRAFT_TEXT, _NO_TILES, _TILING_TEXT, _check_action


def apply(self, move):
    """Play a move: an action id or a notation string.

    Raises :class:`IllegalMoveError` naming the rule broken, and then leaves the state
    unchanged.
    """
    with self._lock:
        if type(move) is int and 0 <= move < NUM_ACTIONS:
            action = move
        elif isinstance(move, str):
            action = self.string_to_action(move)
        else:
            action = _check_action(move)
        self._check_legal(action)
        undo = self._undo
        if len(undo) & 15:  # _common.UNDO_EVERY - 1
            undo.append(action)
        else:
            undo.append(self._undo_entry(action))
        self._play(action)


def _play(self, action):
    """Apply a legal action (unchecked), recording it in the history."""
    phase = self._phase
    # A state read from text may not know the rounds before it: history is written where known.
    if phase == OFFER:
        rounds = self._h_rounds
        if rounds:
            rounds[-1][1].append(_DRAFT_TEXT[action])
        self._moves += 1
        self._draft(action)
    elif phase == TILING:
        p = self._turn
        r = self._pending_row(p)
        if self._h_rounds:
            self._h_rounds[-1][1].append(_TILING_TEXT[r * 5 + action - TILE_ACTION_BASE])
        self._moves += 1
        self._tile_line(p, r, action - TILE_ACTION_BASE)
        self._continue_tiling()
    elif phase == FILL:
        self._put_drawn(action - DRAW_ACTION_BASE)
        self._continue_fill()
    else:  # FIRST_PLAYER
        self._start = action - FIRST_PLAYER_ACTION_BASE
        self._h_first = self._start
        self._start_round()


def _check_legal(self, action):
    """Raise IllegalMoveError, naming the rule, unless ``action`` is legal here."""
    phase = self._phase
    if phase == OFFER and action < NUM_DRAFT_ACTIONS:
        # The common case first: a draft that is legal (anything else goes on to the checks
        # below, which name the rule).
        source, colour, dest = _DRAFT_PARTS[action]
        p = self._turn
        if (self._centre[colour] if source == CENTRE
                else source < len(self._factories) and self._factories[source][colour]):
            if dest == FLOOR:
                return
            ln = self._line_count[p][dest]
            if ((not ln or self._line_colour[p][dest] == colour) and ln != dest + 1
                    and not self._row_colours[p][dest] >> colour & 1):
                return
    if phase == OVER:
        raise IllegalMoveError("game is over")
    if phase in (FIRST_PLAYER, FILL):
        what = "the first player" if phase == FIRST_PLAYER else "a tile from the bag"
        if phase == FILL and DRAW_ACTION_BASE <= action < FIRST_PLAYER_ACTION_BASE:
            c = action - DRAW_ACTION_BASE
            if not self._bag[c]:
                raise IllegalMoveError("the bag has no %s" % COLOUR_NAMES[c])
            return
        if phase == FIRST_PLAYER and action >= FIRST_PLAYER_ACTION_BASE:
            if action - FIRST_PLAYER_ACTION_BASE >= self._players:
                raise IllegalMoveError("seat %d does not exist with %d players"
                                       % (action - FIRST_PLAYER_ACTION_BASE, self._players))
            return
        raise IllegalMoveError("this is a chance node (%s is drawn); apply one of its "
                               "outcomes" % what)
    if action >= DRAW_ACTION_BASE:
        raise IllegalMoveError("action %d is a chance outcome, and this is not a chance "
                               "node" % action)
    p = self._turn
    if phase == TILING:
        r = self._pending_row(p)
        if action < NUM_DRAFT_ACTIONS:
            raise IllegalMoveError(
                "wall tiling: player %d must first choose a wall column for pattern line %d"
                % (p, r + 1))
        col = action - TILE_ACTION_BASE
        colour = self._line_colour[p][r]
        wall = self._wall[p]
        if wall[r * 5 + col] >= 0:
            raise IllegalMoveError("wall row %d, column %d is already taken"
                                   % (r + 1, col + 1))
        for rr in range(5):
            if wall[rr * 5 + col] == colour:
                raise IllegalMoveError("wall column %d already has %s"
                                       % (col + 1, COLOUR_NAMES[colour]))
        return
    # OFFER
    if action >= NUM_DRAFT_ACTIONS:
        raise IllegalMoveError("action %d is a wall tiling choice, and no wall tiling "
                               "decision is pending" % action)
    source, rest = divmod(action, 30)
    colour, dest = divmod(rest, 6)
    name = COLOUR_NAMES[colour]
    if source == CENTRE:
        if not self._centre[colour]:
            raise IllegalMoveError("the centre has no %s" % name)
    else:
        nf = len(self._factories)
        if source >= nf:
            raise IllegalMoveError("factory %d does not exist with %d players (factories "
                                   "1-%d)" % (source + 1, self._players, nf))
        tiles = self._factories[source]
        if not any(tiles):
            raise IllegalMoveError("factory %d is empty" % (source + 1))
        if not tiles[colour]:
            raise IllegalMoveError("factory %d has no %s" % (source + 1, name))
    if dest == FLOOR:
        return
    lc, ln = self._line_colour[p][dest], self._line_count[p][dest]
    if ln and lc != colour:
        raise IllegalMoveError("pattern line %d already holds %s"
                               % (dest + 1, COLOUR_NAMES[lc]))
    if ln == dest + 1:
        raise IllegalMoveError("pattern line %d is full" % (dest + 1))
    if self._row_has(p, dest, colour):
        raise IllegalMoveError("wall row %d already has %s" % (dest + 1, name))


def _to_floor(self, p, colour, n):
    """``n`` tiles fall to player ``p``'s floor, left to right; past 7 items, to the lid.
    Returns how many went to the lid."""
    floor = self._floor[p]
    items = sum(floor) + (1 if self._marker == p and self._marker_floor else 0)
    room = FLOOR_SPACES - items
    if room < 0:
        room = 0
    kept = n if n < room else room
    floor[colour] += kept
    self._lid[colour] += n - kept
    return n - kept


def _draft(self, action):
    source, colour, dest = _DRAFT_PARTS[action]
    p = self._turn
    centre = self._centre
    if source == CENTRE:
        n = centre[colour]
        centre[colour] = 0
        if self._marker < 0:
            # The first taker from the centre takes the marker, onto the leftmost free
            # floor space before the tiles land; on a full floor it is kept aside.
            self._marker = p
            self._marker_floor = sum(self._floor[p]) < FLOOR_SPACES
    else:
        tiles = self._factories[source]
        n = tiles[colour]
        tiles[colour] = 0
        t0, t1, t2, t3, t4 = tiles
        centre[0] += t0
        centre[1] += t1
        centre[2] += t2
        centre[3] += t3
        centre[4] += t4
        tiles[:] = _NO_TILES
    if dest == FLOOR:
        self._to_floor(p, colour, n)
    else:
        count = self._line_count[p]
        room = dest + 1 - count[dest]
        put = n if n < room else room
        self._line_colour[p][dest] = colour
        count[dest] += put
        if n > put:
            self._to_floor(p, colour, n - put)
    if any(centre) or any(map(any, self._factories)):
        self._turn = (p + 1) % self._players
    else:
        self._phase = TILING
        self._turn = self._start
        self._continue_tiling()
