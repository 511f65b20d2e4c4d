"""Azul: Summer Pavilion, pure-Python engine: checking and playing a move: acquire, place, bonus tiles, pass (rules
section 3).

C++ twin: native/src/pavilion/apply.cpp.
"""


from .. import common as _common
from ..._errors import IllegalMoveError
from .tables import (
    ACQUIRE,
    BONUS,
    CENTRE,
    CHANCE,
    FILL,
    FILL_REFILL,
    FIRST_PLAYER,
    MIN_SCORE,
    ORNAMENTS,
    OVER,
    PLAY,
    ROUNDS,
    SP_BONUS_ACTION_BASE,
    SP_COLOURS,
    SP_COLOUR_NAMES,
    SP_DRAW_ACTION_BASE,
    SP_FIRST_PLAYER_ACTION_BASE,
    SP_NUM_ACTIONS,
    SP_PASS_ACTION_BASE,
    SP_PLACE_ACTION_BASE,
    SP_STARS,
    SP_STAR_NAMES,
    STAR_COLOUR,
    _KEEPS,
    _ORNAMENTS_OF,
    _ORNAMENT_MASK,
    ornament_name,
)
from .notation import _ACTION_TEXT, _PLACE_PARTS, _parse_move, _tiles
from .scoring import _run_length


def apply(self, move):
    """Play a move: an action id or a notation string (a several-tile refill '~BR' at a
    supply chance node is :meth:`deal_supply`).  Raises :class:`IllegalMoveError` naming
    the rule broken, and then leaves the state unchanged."""
    with self._lock:
        if type(move) is int and 0 <= move < SP_NUM_ACTIONS:
            action = move
        elif isinstance(move, str):
            action, counts = _parse_move(move)
            if counts is not None:
                self._deal_supply(counts)
                return
        else:
            action = _common.check_action(move, SP_NUM_ACTIONS)
        self._check_legal(action)
        undo = self._undo
        if len(undo) & 15:  # _common.UNDO_EVERY - 1
            undo.append(action)
        else:
            undo.append(self._undo_entry(action))
        self._play(action)


def _check_legal(self, action):
    phase = self._phase
    # The common cases first: an acquire or a placement that is legal (anything else goes on
    # to the checks below, which name the rule).
    if phase == ACQUIRE and action < SP_PLACE_ACTION_BASE:
        source, c = divmod(action, 6)
        if source == CENTRE:
            tiles = self._centre
        elif source < len(self._factories):
            tiles = self._factories[source]
        else:
            tiles = None
        if tiles is not None and tiles[c]:
            wild = self._round - 1
            if c != wild or sum(tiles) == tiles[c]:
                return
    elif phase == PLAY and SP_PLACE_ACTION_BASE <= action < SP_BONUS_ACTION_BASE:
        space, c, w, cost = _PLACE_PARTS[action - SP_PLACE_ACTION_BASE]
        p = self._turn
        board, hand = self._board[p], self._hand[p]
        if board[space] < 0 and (c == STAR_COLOUR[space // 6] if space < 36
                                 else c not in board[36:42]):
            wild = self._round - 1
            if c == wild:
                if not w and hand[c] >= cost:
                    return
            elif w < cost and hand[c] >= cost - w and hand[wild] >= w:
                return
    if phase == OVER:
        raise IllegalMoveError("game is over")
    if phase in (FIRST_PLAYER, FILL):
        if phase == FILL and SP_DRAW_ACTION_BASE <= action < SP_FIRST_PLAYER_ACTION_BASE:
            c = action - SP_DRAW_ACTION_BASE
            if not self._bag[c]:
                raise IllegalMoveError("the bag has no %s" % SP_COLOUR_NAMES[c])
            return
        if phase == FIRST_PLAYER and action >= SP_FIRST_PLAYER_ACTION_BASE:
            seat = action - SP_FIRST_PLAYER_ACTION_BASE
            if seat >= self._players:
                raise IllegalMoveError("seat %d does not exist with %d players"
                                       % (seat, self._players))
            return
        what = "the first player" if phase == FIRST_PLAYER else "a tile from the bag"
        raise IllegalMoveError("this is a chance node (%s is drawn); apply one of its "
                               "outcomes" % what)
    if action >= SP_DRAW_ACTION_BASE:
        raise IllegalMoveError("action %d is a chance outcome, and this is not a chance "
                               "node" % action)
    p = self._turn
    if phase == ACQUIRE:
        if action >= SP_PLACE_ACTION_BASE:
            raise IllegalMoveError("phase 1 (acquire): take tiles from a factory or the "
                                   "centre, as in 3R or CG")
        self._check_acquire(action)
    elif phase == BONUS:
        if not SP_BONUS_ACTION_BASE <= action < SP_PASS_ACTION_BASE:
            raise IllegalMoveError("player %d takes %d more bonus tile%s from the supply "
                                   "first (+ and a colour)"
                                   % (p, self._owed, "" if self._owed == 1 else "s"))
        c = action - SP_BONUS_ACTION_BASE
        if not self._supply[c]:
            raise IllegalMoveError("the supply has no %s" % SP_COLOUR_NAMES[c])
    else:  # PLAY
        if action < SP_PLACE_ACTION_BASE:
            raise IllegalMoveError("phase 2 (play): phase 1 is over; place a tile or pass")
        if action < SP_BONUS_ACTION_BASE:
            self._check_place(action)
        elif action < SP_PASS_ACTION_BASE:
            raise IllegalMoveError("no bonus tile is owed: bonus tiles are taken right "
                                   "after a placement completes an ornament")
        else:
            keep = _KEEPS[action - SP_PASS_ACTION_BASE]
            hand = self._hand[p]
            for c in range(6):
                if keep[c] > hand[c]:
                    raise IllegalMoveError("player %d cannot keep %d %s: they have %d"
                                           % (p, keep[c], SP_COLOUR_NAMES[c], hand[c]))


def _check_acquire(self, action):
    source, c = divmod(action, 6)
    wild = self._round - 1
    if source == CENTRE:
        tiles, where = self._centre, "the centre"
    else:
        nf = len(self._factories)
        if source >= nf:
            raise IllegalMoveError("factory %d does not exist with %d players (factories "
                                   "1-%d)" % (source + 1, self._players, nf))
        tiles, where = self._factories[source], "factory %d" % (source + 1)
        if not any(tiles):
            raise IllegalMoveError("factory %d is empty" % (source + 1))
    if not tiles[c]:
        raise IllegalMoveError("%s has no %s" % (where, SP_COLOUR_NAMES[c]))
    if c == wild and any(tiles[x] for x in range(6) if x != wild):
        raise IllegalMoveError("%s is this round's wild colour: it cannot be chosen while "
                               "%s holds other colours (one wild tile comes with them)"
                               % (SP_COLOUR_NAMES[c], where))


def _check_place(self, action):
    p = self._turn
    a = action - SP_PLACE_ACTION_BASE
    space, rest = divmod(a, 36)
    c, w = divmod(rest, 6)
    star, k = divmod(space, 6)
    cost = k + 1
    where = "%s star space %d" % (SP_STAR_NAMES[star], cost)
    board, hand = self._board[p], self._hand[p]
    wild = self._round - 1
    name = SP_COLOUR_NAMES[c]
    if board[space] >= 0:
        raise IllegalMoveError("%s is already covered" % where)
    if star < 6:
        if c != STAR_COLOUR[star]:
            raise IllegalMoveError("the %s star takes only %s tiles"
                                   % (SP_STAR_NAMES[star], SP_COLOUR_NAMES[STAR_COLOUR[star]]))
    elif c in board[36:42]:
        raise IllegalMoveError("the centre star already holds %s: its six tiles must all "
                               "differ" % name)
    if c == wild:
        if w:
            raise IllegalMoveError("%s is this round's wild colour: placing it pays all %d "
                                   "tiles in %s, written with 0 wild tiles" % (name, cost, name))
        if hand[c] < cost:
            raise IllegalMoveError("%s costs %d %s; player %d has %d" % (where, cost, name,
                                                                      p, hand[c]))
        return
    if w >= cost:
        raise IllegalMoveError("%s costs %d tiles: at most %d of them wild, since one real %s "
                               "tile is placed" % (where, cost, cost - 1, name))
    if hand[c] < cost - w:
        raise IllegalMoveError("%s with %d wild tile%s needs %d %s; player %d has %d"
                               % (where, w, "" if w == 1 else "s", cost - w, name, p, hand[c]))
    if hand[wild] < w:
        raise IllegalMoveError("player %d has %d wild tile%s (%s), not %d"
                               % (p, hand[wild], "" if hand[wild] == 1 else "s",
                                  SP_COLOUR_NAMES[wild], w))


def _play(self, action):
    """Apply a legal action (unchecked), writing it to the history."""
    phase = self._phase
    if phase == FILL:
        self._put_drawn(action - SP_DRAW_ACTION_BASE)
        self._continue_fill()
        return
    if phase == FIRST_PLAYER:
        self._start = action - SP_FIRST_PLAYER_ACTION_BASE
        self._h_first = self._start
        self._begin_setup()
        return
    if self._h_complete:
        self._h_rounds[-1][1].append(_ACTION_TEXT[action])
    self._moves += 1
    if phase == ACQUIRE:
        self._acquire(action)
    elif phase == PLAY:
        if action < SP_BONUS_ACTION_BASE:
            self._place(action)
        else:
            self._pass(_KEEPS[action - SP_PASS_ACTION_BASE])
    else:  # BONUS
        p = self._turn
        c = action - SP_BONUS_ACTION_BASE
        self._supply[c] -= 1
        self._hand[p][c] += 1
        self._owed -= 1
        if self._sheet is not None:
            self._sheet[-1].append({"event": "bonus-tile", "player": p,
                                    "colour": SP_COLOURS[c]})
        if not self._owed or not any(self._supply):
            self._owed = 0  # what the supply cannot give is lost
            self._end_turn(p)


def _acquire(self, action):
    source, c = divmod(action, 6)
    p = self._turn
    wild = self._round - 1
    tiles = self._centre if source == CENTRE else self._factories[source]
    hand = self._hand[p]
    taken_wild = 1 if tiles[wild] else 0
    taken = 0 if c == wild else tiles[c]
    if c != wild:
        hand[c] += taken
        tiles[c] = 0
    hand[wild] += taken_wild
    tiles[wild] -= taken_wild
    taken += taken_wild
    if source == CENTRE:
        if self._marker < 0:
            self._marker = p
            before = self._score[p]
            after = before - taken if before - taken > MIN_SCORE else MIN_SCORE
            self._score[p] = after
            if self._sheet is not None:
                self._sheet[-1].append({"event": "start-token", "player": p, "tiles": taken,
                                        "before": before, "after": after})
    else:
        for x in range(6):
            self._centre[x] += tiles[x]
            tiles[x] = 0
    if any(self._centre) or any(map(any, self._factories)):
        self._turn = (p + 1) % self._players
    else:
        self._phase = PLAY
        self._turn = self._marker if self._marker >= 0 else self._start


def _place(self, action):
    p = self._turn
    a = action - SP_PLACE_ACTION_BASE
    space, rest = divmod(a, 36)
    c, w = divmod(rest, 6)
    cost = space % 6 + 1
    wild = self._round - 1
    hand = self._hand[p]
    hand[c] -= cost - w
    hand[wild] -= w
    self._tower[c] += cost - w - 1
    self._tower[wild] += w
    self._board[p][space] = c
    filled = self._filled[p] | 1 << space
    self._filled[p] = filled
    run = _run_length(filled, space)
    before = self._score[p]
    self._score[p] = before + run
    owed = 0
    done = []
    for i in _ORNAMENTS_OF[space]:
        m = _ORNAMENT_MASK[i]
        if filled & m == m:
            owed += ORNAMENTS[i][3]
            done.append(i)
    if self._sheet is not None:
        self._sheet[-1].append({
            "event": "place", "player": p, "star": SP_STARS[space // 6],
            "space": cost, "colour": SP_COLOURS[c], "wilds": w, "run": run, "points": run,
            "before": before, "after": before + run,
            "ornaments": [ornament_name(i) for i in done], "bonus_tiles": owed})
    if owed and any(self._supply):
        self._owed = owed
        self._phase = BONUS
        return
    self._end_turn(p)


def _pass(self, keep):
    p = self._turn
    hand = self._hand[p]
    discarded = 0
    for c in range(6):
        d = hand[c] - keep[c]
        discarded += d
        self._tower[c] += d
        hand[c] = keep[c]
    before = self._score[p]
    after = before - discarded if before - discarded > MIN_SCORE else MIN_SCORE
    self._score[p] = after
    self._passed[p] = True
    if self._sheet is not None:
        self._sheet[-1].append({"event": "pass", "player": p, "kept": _tiles(keep),
                                "discarded": discarded, "before": before, "after": after})
    self._end_turn(p)


def _end_turn(self, p):
    """After a phase-2 turn: the next player who has not passed, then the supply refill
    (except after the game's very last turn)."""
    self._phase = PLAY
    n = self._players
    nxt = -1
    for i in range(1, n + 1):
        q = (p + i) % n
        if not self._passed[q]:
            nxt = q
            break
    if nxt < 0:
        if self._h_complete:
            self._h_rounds[-1][2] = self._score[:]
        if self._round == ROUNDS:
            self._finish()
            return
    self._next = nxt
    self._phase = FILL
    self._fill = FILL_REFILL
    self._turn = CHANCE
    self._continue_fill()
