"""Azul: Summer Pavilion, pure-Python engine: state text, written and read back, and the readable board.

C++ twin: native/src/pavilion/text.cpp.
"""


from .. import common as _common
from ..._errors import StateFormatError
from ..common import MASK64 as _MASK64, is_uint as _is_uint
from .tables import (
    ACQUIRE,
    BONUS,
    CENTRE_STAR,
    CHANCE,
    FILL,
    FILL_FACTORIES,
    FILL_NAMES,
    FILL_REFILL,
    FILL_SETUP,
    FIRST_PLAYER,
    MIN_SCORE,
    NO_FILL,
    OVER,
    PHASE_NAMES,
    PLAY,
    ROUNDS,
    SP_COLOURS,
    SP_COLOUR_NAMES,
    SP_STARS,
    SP_STAR_NAMES,
    STAR_COLOUR,
    SUPPLY_SIZE,
    TILES_PER_COLOUR,
    _num_factories,
)
from .notation import _parse_move, _parse_tiles, _tiles


_counts = _common.counts_text


_FIELDS = ("variant", "players", "chance", "seed", "rng", "round", "phase", "fill", "turn",
           "start", "marker", "moves", "next", "owed", "factories", "center", "supply", "refill",
           "bag", "tower", "prefill")


_int_field = _common.int_field


def _count_list(value, key):
    return _common.count_list(value, key, 6, TILES_PER_COLOUR)


def _tile_field(value, what, limit):
    counts = _parse_tiles(value, what)
    if sum(counts) > limit:
        raise StateFormatError("%s: more than %d tiles" % (what, limit))
    return counts


def read_state(cls, text):
    """The ``cls`` (PavilionState) of a Summer Pavilion state text written by ``to_text`` (the caller checked the
    header); state.py's ``_from_text`` calls it with the class."""
    if not isinstance(text, str):
        raise TypeError("state text must be a str, not %s" % type(text).__name__)
    tokens = _common.state_tokens(text)
    if not tokens or tokens[0] != "azul-state/1":
        raise StateFormatError("not an Azul state: the text must start with azul-state/1")
    fields, order = _common.key_values(tokens[1:])
    for key in _FIELDS:
        if key not in fields:
            raise StateFormatError("field %s is missing" % key)
    if fields["variant"] != "summer-pavilion":
        raise StateFormatError("field variant: %r is not summer-pavilion" % fields["variant"])
    players = _int_field(fields, "players", 2, 4)
    if fields["chance"] not in ("sampled", "explicit"):
        raise StateFormatError("field chance: %r is not sampled or explicit" % fields["chance"])
    seed = _int_field(fields, "seed", 0, _MASK64)
    rng_text = fields["rng"]
    if len(rng_text) != 16 or any(ch not in "0123456789abcdef" for ch in rng_text):
        raise StateFormatError("field rng: %r is not 16 lower-case hex digits" % rng_text)
    g = cls._blank(players, fields["chance"] == "explicit", seed)
    g._rng = int(rng_text, 16)
    g._round = _int_field(fields, "round", 1, ROUNDS)
    if fields["phase"] not in PHASE_NAMES:
        raise StateFormatError("field phase: unknown phase %r" % fields["phase"])
    g._phase = PHASE_NAMES.index(fields["phase"])
    if fields["fill"] not in FILL_NAMES:
        raise StateFormatError("field fill: %r is not -, setup, factories or refill"
                               % fields["fill"])
    g._fill = FILL_NAMES.index(fields["fill"])
    g._turn = _int_field(fields, "turn", -1, players - 1)
    g._start = _int_field(fields, "start", -1, players - 1)
    g._marker = -1 if fields["marker"] == "C" else _int_field(fields, "marker", 0, players - 1)
    g._moves = _int_field(fields, "moves", 0, 10 ** 6)
    g._next = _int_field(fields, "next", -1, players - 1)
    g._owed = _int_field(fields, "owed", 0, 18)
    facs = fields["factories"].split(",")
    nf = _num_factories(players)
    if len(facs) != nf:
        raise StateFormatError("field factories: %d players have %d factories, not %d"
                               % (players, nf, len(facs)))
    for i, f in enumerate(facs):
        g._factories[i] = _tile_field(f, "field factories, factory %d" % (i + 1), 4)
    g._centre = _tile_field(fields["center"], "field center", 4 * nf)
    g._supply = _tile_field(fields["supply"], "field supply", SUPPLY_SIZE)
    g._refill = _tile_field(fields["refill"], "field refill", SUPPLY_SIZE)
    g._bag = _count_list(fields["bag"], "bag")
    g._tower = _count_list(fields["tower"], "tower")
    pre = fields["prefill"].split("/")
    if len(pre) != 2:
        raise StateFormatError("field prefill: %r is not bag counts/tower counts"
                               % fields["prefill"])
    g._prefill_bag = _count_list(pre[0], "prefill")
    g._prefill_tower = _count_list(pre[1], "prefill")
    for p in range(players):
        key = "p%d" % p
        if key not in fields:
            raise StateFormatError("field %s is missing" % key)
        _read_player(g, p, key, fields[key])
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
        g._h_complete = g._phase == FIRST_PLAYER
        g._h_seed = None
        g._h_first = g._start
    return g


def _read_player(g, p, key, value):
    parts = value.split(":")
    if len(parts) != 4:
        raise StateFormatError("field %s: %r is not score:tiles:board:passed" % (key, value))
    score_text, hand_text, board_text, passed_text = parts
    if not _is_uint(score_text) or len(score_text) > 6 or int(score_text) < MIN_SCORE:
        raise StateFormatError("field %s: score %r is not a whole number of 1 or more"
                               % (key, score_text))
    g._score[p] = int(score_text)
    g._hand[p] = _tile_field(hand_text, "field %s, tiles" % key, 6 * TILES_PER_COLOUR)
    stars = board_text.split("/")
    if len(stars) != 7 or any(len(s) != 6 for s in stars):
        raise StateFormatError("field %s: board %r is not 7 stars of 6 spaces" % (key, board_text))
    board = g._board[p]
    for s, text in enumerate(stars):
        for k, ch in enumerate(text):
            if ch == ".":
                continue
            c = SP_COLOURS.find(ch)
            if c < 0:
                raise StateFormatError("field %s: star %s space %d has %r, not a colour or '.'"
                                       % (key, SP_STARS[s], k + 1, ch))
            if s < 6 and c != STAR_COLOUR[s]:
                raise StateFormatError("field %s: the %s star cannot hold %s"
                                       % (key, SP_STAR_NAMES[s], SP_COLOUR_NAMES[c]))
            if s == CENTRE_STAR and c in board[36:42]:
                raise StateFormatError("field %s: the centre star holds %s twice"
                                       % (key, SP_COLOUR_NAMES[c]))
            board[s * 6 + k] = c
            g._filled[p] |= 1 << (s * 6 + k)
    if passed_text not in ("0", "1"):
        raise StateFormatError("field %s: passed %r is not 0 or 1" % (key, passed_text))
    g._passed[p] = passed_text == "1"


def _check_consistency(g):
    totals = [g._bag[c] + g._tower[c] + g._centre[c] + g._supply[c]
              + sum(f[c] for f in g._factories) + sum(h[c] for h in g._hand)
              + sum(1 for b in g._board for x in b if x == c) for c in range(6)]
    for c in range(6):
        if totals[c] != TILES_PER_COLOUR:
            raise StateFormatError("tile count: %d %s tiles in the game, not %d"
                                   % (totals[c], SP_COLOUR_NAMES[c], TILES_PER_COLOUR))
    phase, fill = g._phase, g._fill
    chance = phase in (FIRST_PLAYER, FILL, OVER)
    if chance and g._turn != CHANCE:
        raise StateFormatError("field turn: %d, but nobody moves in phase %s"
                               % (g._turn, PHASE_NAMES[phase]))
    if not chance and g._turn < 0:
        raise StateFormatError("field turn: a player moves in phase %s" % PHASE_NAMES[phase])
    if (phase == FILL) != (fill != NO_FILL):
        raise StateFormatError("field fill: %s does not fit phase %s"
                               % (FILL_NAMES[fill], PHASE_NAMES[phase]))
    if phase != FIRST_PLAYER and g._start < 0:
        raise StateFormatError("field start: no starting player in phase %s" % PHASE_NAMES[phase])
    if phase == FIRST_PLAYER and (g._start >= 0 or any(t != TILES_PER_COLOUR for t in g._bag)):
        raise StateFormatError("phase first-player: the game has not started, yet tiles or a "
                               "starting player are set")
    if (phase == BONUS) != (g._owed > 0):
        raise StateFormatError("field owed: %d bonus tiles owed in phase %s"
                               % (g._owed, PHASE_NAMES[phase]))
    if phase == BONUS and not any(g._supply):
        raise StateFormatError("phase bonus: the supply is empty")
    if phase in (PLAY, BONUS) and g._passed[g._turn]:
        raise StateFormatError("field turn: player %d has passed" % g._turn)
    on_offer = any(g._centre) or any(map(any, g._factories))
    if phase == ACQUIRE and not on_offer:
        raise StateFormatError("phase acquire: factories and centre are empty")
    if phase in (PLAY, BONUS) and on_offer:
        raise StateFormatError("phase %s: tiles are still on offer" % PHASE_NAMES[phase])
    if any(g._refill) and fill != FILL_REFILL:
        raise StateFormatError("field refill: tiles drawn by a refill, but fill is %s"
                               % FILL_NAMES[fill])
    if any(g._refill[c] > g._supply[c] for c in range(6)):
        raise StateFormatError("field refill: more tiles drawn than the supply holds")
    if fill == FILL_REFILL and g._next >= 0 and g._passed[g._next]:
        raise StateFormatError("field next: player %d has passed" % g._next)
    if fill != FILL_REFILL and g._next != -1:
        raise StateFormatError("field next: only a supply refill has a next player")
    if phase == FILL:
        if fill == FILL_FACTORIES:
            need = 4 * len(g._factories) - sum(map(sum, g._factories))
            if g._marker >= 0 or g._moves:
                raise StateFormatError("fill factories: the round has not started, yet marker "
                                       "or moves are set")
        else:
            need = SUPPLY_SIZE - sum(g._supply)
        if not need or not sum(g._bag):
            raise StateFormatError("phase fill: nothing to draw (the fill is complete or the bag "
                                   "is empty)")
        if fill == FILL_SETUP and (g._round != 1 or any(map(any, g._factories))):
            raise StateFormatError("fill setup: the supply is filled before round 1's factories")
    if phase == OVER and g._round != ROUNDS:
        raise StateFormatError("phase over: the game ends after round %d" % ROUNDS)
    if phase in (ACQUIRE, FILL) and fill != FILL_REFILL and any(g._passed):
        raise StateFormatError("phase %s: no player has passed before phase 2"
                               % PHASE_NAMES[phase])
    if phase == PLAY and all(g._passed):
        raise StateFormatError("phase play: every player has passed")
    if fill == FILL_REFILL and g._next < 0 and not all(g._passed):
        raise StateFormatError("field next: -1 ends the round, but not every player has passed")
    if fill == FILL_REFILL and g._next < 0 and g._round == ROUNDS:
        raise StateFormatError("field next: -1 ends the round, but round %d ends the game "
                               "without a refill" % ROUNDS)


def _read_history(g, fields, keys):
    g._h_seed, g._h_first, g._h_complete, (supply,) = _common.read_history_head(
        fields["history"], g._players, 4, "seed:first:complete:supply")
    if supply == "*":
        g._h_supply = None
    else:
        _tile_field(supply, "field history, supply", SUPPLY_SIZE)
        g._h_supply = "" if supply == "-" else supply
    g._h_rounds = _common.read_rounds(
        fields, keys, g._players, lambda f, what: _tile_field(f, what, 4), _parse_move,
        "history rounds must be r1 ... r6 in order", max_rounds=ROUNDS)
    if g._h_complete and len(g._h_rounds) != (g._round if g._phase not in (
            FIRST_PLAYER, FILL) or g._fill == FILL_REFILL else g._round - 1):
        raise StateFormatError("field history: %d rounds of history for a state in round %d"
                               % (len(g._h_rounds), g._round))


def to_text(self, history=False):
    """The position and generator as one versioned line; see :func:`from_text`.  With
    ``history=True`` the game's history follows."""
    out = ["azul-state/1", "variant=summer-pavilion",
           "players=%d" % self._players,
           "chance=" + ("explicit" if self._explicit else "sampled"),
           "seed=%d" % self._seed,
           "rng=%016x" % self._rng,
           "round=%d" % self._round,
           "phase=" + PHASE_NAMES[self._phase],
           "fill=" + FILL_NAMES[self._fill],
           "turn=%d" % self._turn,
           "start=%d" % self._start,
           "marker=" + ("C" if self._marker < 0 else str(self._marker)),
           "moves=%d" % self._moves,
           "next=%d" % self._next,
           "owed=%d" % self._owed,
           "factories=" + ",".join(_tiles(f) or "-" for f in self._factories),
           "center=" + (_tiles(self._centre) or "-"),
           "supply=" + (_tiles(self._supply) or "-"),
           "refill=" + (_tiles(self._refill) or "-"),
           "bag=" + _counts(self._bag),
           "tower=" + _counts(self._tower),
           "prefill=" + _counts(self._prefill_bag) + "/" + _counts(self._prefill_tower)]
    boards = self.boards
    for p in range(self._players):
        out.append("p%d=%d:%s:%s:%d" % (p, self._score[p], _tiles(self._hand[p]) or "-",
                                        "/".join(boards[p]), 1 if self._passed[p] else 0))
    if history:
        out.append("history=%s:%d:%d:%s" % (
            "-" if self._h_seed is None else str(self._h_seed), self._h_first,
            1 if self._h_complete else 0,
            "*" if self._h_supply is None else (self._h_supply or "-")))
        out.extend(_common.rounds_text(self._h_rounds))
    return " ".join(out)


def __str__(self):
    lines = ["Azul: Summer Pavilion, %d players, round %d (wild %s), phase %s, %s"
             % (self._players, self._round, SP_COLOUR_NAMES[min(self._round, ROUNDS) - 1],
                PHASE_NAMES[self._phase],
                "game over" if self._phase == OVER else
                ("chance" if self._turn < 0 else "player %d to move" % self._turn))]
    lines.append("factories: " + " ".join("%d:%s" % (i + 1, _tiles(f) or "-")
                                          for i, f in enumerate(self._factories)))
    lines.append("centre: %s%s   supply: %s   bag %d, tower %d"
                 % ("token " if self._marker < 0 and self._phase == ACQUIRE else "",
                    _tiles(self._centre) or "-", _tiles(self._supply) or "-",
                    sum(self._bag), sum(self._tower)))
    boards = self.boards
    for p in range(self._players):
        lines.append("player %d: score %d%s%s, tiles %s" % (
            p, self._score[p], ", start token" if self._marker == p else "",
            ", passed" if self._passed[p] else "", _tiles(self._hand[p]) or "-"))
        lines.append("  " + "  ".join("%s:%s" % (SP_STARS[s], boards[p][s]) for s in range(7)))
    return "\n".join(lines)
