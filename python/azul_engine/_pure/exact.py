"""The exact search of the rest of a round, pure-Python engine (docs/search.md section 16; its steps are cited
below): the solver that ``solve_round`` runs, and that both searches run at their leaves near a round's end
(``exact=N``).

C++ twin: native/src/common/exact.cpp (native/include/azul/common/exact.h).  Within a round nothing is drawn, so
the rest of it is a game of perfect information; the solver finds each position's best line to the round's end,
each player maximising its points gained this round against the others' (16.2), by alpha-beta at 2 players and
max^n at 3 and 4 (16.3), with a transposition table of positions: here keyed by the words of the position key
(``state.key()`` hashes them, and collides), in C++ by the key and a second hash of the words.  Its results are a
function of the position alone (16.3), so the two engines agree whatever their tables keep; ``solve_round``'s
table keeps every entry in both engines, so that its ``nodes`` agree too.  ``RoundSolution`` is the class both
engines return.
"""

import dataclasses
import typing

INF = 1 << 20  # beyond any value of a line (16.2)
EXACT, LOWER, UPPER = 1, 2, 3  # what a table entry's value is: exact, a lower bound, an upper bound
DEFAULT_MAX_NODES = 1_000_000  # solve_round's node cap (16.5)
TABLE_LIMIT = 1 << 18  # the searches' table (pure engine): entries kept before it is cleared (16.4)
GREY = 1  # GameState._variant of the grey wall (classic/types.py VARIANTS)


@dataclasses.dataclass(frozen=True)
class RoundSolution:
    """What ``solve_round`` found (docs/search.md section 16.5): every move the solver considers at the root, best
    first, ``actions[i]`` (its notation ``moves[i]``) with ``values[i]``, its value for ``player`` (the points
    ``player`` gains this round along the move's best line, less the mean of the others' gains), and ``gains[i]``,
    every player's points gained along it; ``pv`` (``pv_moves``), the best line to the round's end, which
    ``end`` names: ``"round"`` (the round's end), ``"game"`` (the game's end) or ``"refill"`` (in Summer Pavilion
    the supply is refilled from the bag first); ``nodes``, the positions searched.  Equality compares every field
    but ``seconds``."""

    action: int
    move: str
    player: int
    actions: typing.Tuple[int, ...]
    moves: typing.Tuple[str, ...]
    values: typing.Tuple[float, ...]
    gains: typing.Tuple[typing.Tuple[int, ...], ...]
    pv: typing.Tuple[int, ...]
    pv_moves: typing.Tuple[str, ...]
    end: str
    nodes: int
    seconds: float = dataclasses.field(compare=False)

    def top(self, n: int = 3) -> typing.List[typing.Tuple[str, int, float]]:
        """The first ``n`` root moves as ``(move, action, value)`` tuples, best first."""
        return list(zip(self.moves, self.actions, self.values))[:n]

    def __repr__(self) -> str:
        return ("RoundSolution(move=%r, action=%d, value=%g, gains=%s, pv=%s, end=%s, nodes=%d)"
                % (self.move, self.action, self.values[0], self.gains[0], " ".join(self.pv_moves), self.end,
                   self.nodes))


class NodeCap(Exception):
    """The solver needed more than its ``max_nodes`` positions."""


def moves_left(state):
    """Section 16.1's measure of the rest of a round: the (source, colour) pairs holding tiles in the factories and
    the centre (each take empties at least one); on the grey wall, plus the full pattern lines (each a column to
    choose); in Summer Pavilion, plus the tiles in the hands of the players who have not passed (each placement
    pays at least one)."""
    n = 0
    for f in state._factories:
        for x in f:
            if x:
                n += 1
    for x in state._centre:
        if x:
            n += 1
    hands = getattr(state, "_hand", None)
    if hands is not None:
        passed = state._passed
        for p in range(state._players):
            if not passed[p]:
                n += sum(hands[p])
    elif state._variant == GREY:
        for counts in state._line_count:
            for r in range(5):
                if counts[r] == r + 1:
                    n += 1
    return n


def round_over(before, after):
    """16.1: the position ``after``, one move after ``before``, ends the exact search's horizon: the game is over,
    a chance node, another round, or tiles were drawn (the generator moved: in Summer Pavilion a supply refill)."""
    return (after._rng != before._rng or after._round != before._round or after.is_over
            or after.is_chance_node)


def bare(state):
    """A copy of ``state`` without its history (cheaper to copy again and to play on)."""
    c = state.clone()
    c._h_rounds = []
    c._undo = []
    c._h_complete = False
    return c


class Solver:
    """The exact search of section 16 on one variant and player count: its transposition table (the words of the
    position's key, as a tuple -> ``(flag, move, value)``, the value an int at 2 players and a tuple of gains at 3
    and 4), the positions it has searched, and its node cap (None: none, as in the searches)."""

    def __init__(self, state, max_nodes=None, limit=None):
        self.players = state.players
        self.table = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        self.limit = limit
        self.pass_base = self.keep_size = None
        if state.variant == "summer-pavilion":
            from .pavilion.playout import _KEEP_SIZE
            from .pavilion.tables import SP_PASS_ACTION_BASE
            self.pass_base, self.keep_size = SP_PASS_ACTION_BASE, _KEEP_SIZE

    def is_pass(self, action):
        return self.pass_base is not None and action >= self.pass_base

    def moves(self, s):
        """16.2: the moves the solver considers, ascending: the legal ones, but of Summer Pavilion's passes only the
        first of those that keep the most tiles."""
        legal = s._legal_actions()
        base = self.pass_base
        if base is None or not legal or legal[-1] < base:
            return legal
        i = len(legal)
        while i and legal[i - 1] >= base:
            i -= 1
        size = self.keep_size
        most = max(size[a - base] for a in legal[i:])
        for a in legal[i:]:
            if size[a - base] == most:
                return legal[:i] + [a]

    def _count(self):
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise NodeCap()

    def negamax(self, s, alpha, beta):
        """16.3, two players: the value of ``s`` for its player to move (points gained to the round's end less the
        other's), exact when strictly between ``alpha`` and ``beta``, else a bound on that side; its entry
        stored."""
        key = tuple(s._key_words())
        entry = self.table.get(key)
        hint = -1
        if entry is not None:
            flag, move, v = entry
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
            hint = move
        self._count()
        moves = self.moves(s)
        if hint >= 0 and hint in moves:
            moves = [hint] + [m for m in moves if m != hint]
        p = s._turn
        q = 1 - p
        sp, sq = s._score[p], s._score[q]
        best_v, best_m = 0, -1
        for m in moves:
            c = s.clone()
            c._play(m)
            d = (c._score[p] - sp) - (c._score[q] - sq)
            if best_m < 0:
                lo = alpha
            else:  # an earlier move must be matched, a later one beaten (ties: the lowest id)
                lo = max(alpha, best_v - 1 if m < best_m else best_v)
            if round_over(s, c):
                v = d
            elif c._turn == p:
                v = d + self.negamax(c, lo - d, beta - d)
            else:
                v = d - self.negamax(c, d - beta, d - lo)
            if best_m < 0 or v > best_v or (v == best_v and m < best_m):
                best_v, best_m = v, m
                if best_v >= beta:
                    break
        flag = UPPER if best_v <= alpha else LOWER if best_v >= beta else EXACT
        self.table[key] = (flag, best_m, best_v)
        return best_v

    def maxn(self, s):
        """16.3, three and four players: the gains of every player along the best line from ``s`` (max^n: each
        player to move takes the move of greatest ``n * gain - sum of gains`` for itself; ties: the lowest id)."""
        key = tuple(s._key_words())
        entry = self.table.get(key)
        if entry is not None:
            return entry[2]
        self._count()
        n = self.players
        p = s._turn
        before = s._score[:]
        best = None
        best_u = best_m = 0
        for m in self.moves(s):
            c = s.clone()
            c._play(m)
            after = c._score
            if round_over(s, c):
                g = tuple(after[i] - before[i] for i in range(n))
            else:
                sub = self.maxn(c)
                g = tuple(after[i] - before[i] + sub[i] for i in range(n))
            u = n * g[p] - sum(g)
            if best is None or u > best_u:
                best, best_u, best_m = g, u, m
        self.table[key] = (EXACT, best_m, best)
        return best

    def best(self, s):
        """The best move of ``s`` (16.3), ``s`` solved first."""
        if self.players == 2:
            self.negamax(s, -INF, INF)
        else:
            self.maxn(s)
        return self.table[tuple(s._key_words())][1]

    def best_of(self, state):
        """16.3: the best move of ``state`` (a decision node within a round; a copy of the search's)."""
        if self.limit is not None and len(self.table) > self.limit:
            self.table.clear()
        return self.best(bare(state))

    def line(self, state):
        """16.3: the best line from ``state`` (a decision node within a round) to the horizon of 16.1, and the
        position it reaches (a copy without history)."""
        if self.limit is not None and len(self.table) > self.limit:
            self.table.clear()
        s = bare(state)
        out = []
        while True:
            m = self.best(s)
            out.append(m)
            c = s.clone()
            c._play(m)
            if round_over(s, c):
                return out, c
            s = c


def play_line(solver, state, rng):
    """16.4: the best line from ``state`` (a copy of the search's) played on it, each pass replaced by one drawn
    among the legal passes that keep as many tiles (``rng.below``, the tree's generator): those after it in the
    legal actions."""
    line, _ = solver.line(state)
    for action in line:
        if solver.is_pass(action):
            legal = state.legal_actions()
            i = legal.index(action)
            action = legal[i + rng.below(len(legal) - i)]
        state.apply(action)


def solve(state, max_nodes):
    """Section 16.5, ``solve_round`` once its arguments are checked: ``(player, rows, pv, pv_moves, end, nodes)``,
    ``rows`` the root's moves best first as ``(action, move, value, gains)``.  NodeCap past ``max_nodes``."""
    solver = Solver(state, max_nodes)
    s = bare(state)
    n = s.players
    p = s.current_player
    rows = []
    for m in solver.moves(s):
        c = s.clone()
        c._play(m)
        end = c if round_over(s, c) else solver.line(c)[1]
        g = tuple(end._score[i] - s._score[i] for i in range(n))
        rows.append((n * g[p] - sum(g), m, g))
    rows.sort(key=lambda r: (-r[0], r[1]))
    first = rows[0][1]
    c = s.clone()
    c._play(first)
    pv, end = [first], c
    if not round_over(s, c):
        more, end = solver.line(c)
        pv += more
    walk = s.clone()
    pv_moves = []
    for a in pv:
        pv_moves.append(walk.action_to_string(a))
        walk._play(a)
    kind = "game" if end.is_over else "round" if end._round != s._round else "refill"
    return (p, [(a, s.action_to_string(a), u / (n - 1), g) for u, a, g in rows], tuple(pv), tuple(pv_moves),
            kind, solver.nodes)
