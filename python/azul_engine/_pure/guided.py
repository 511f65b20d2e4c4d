"""The guided search, pure-Python engine: PUCT with an evaluator's priors and values (docs/search.md sections
10-15; their numbers are cited below), for ``search(state, evaluator=...)`` and ``search_many``.

C++ twin: native/src/common/guided.cpp (native/include/azul/common/guided.h).  With an iteration budget both
engines return the same ``SearchResult``, field for field, for every batch size and thread count; the evaluator's
rows are the only floats that come from outside, and every other float is computed in double precision in the
order written in docs/search.md (no fused multiply-add), ``exp``, ``log``, ``sqrt``, ``cos`` and ``pow`` those of
the platform's C library.  This module also holds ``check_evaluation`` (an evaluator's output checked, so that
both engines refuse a bad one with the same words), which the C++ bindings call.
"""

import math
import time

from . import exact as _exact
from .common import SplitMix64
from .search_common import SearchResult, ranked, tree_seed, utility

TWO_PI = 2.0 * math.pi
VIRTUAL_LOSS = 1.0  # section 12: a pending visit counts as this loss for the player who chose it


def _shape_text(shape):
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def check_evaluation(output, masks, players, where="search"):
    """An evaluator's output for ``masks`` (bool ``[N, A]``) checked (section 11): returns ``(logits, values)``,
    float32 C-contiguous, ``[N, A]`` and ``[N, players]`` (values of shape ``[N]``, accepted at 2 players, are the
    player to move's, and the other's is their negation).  ValueError or TypeError naming the evaluator's output
    and what is wrong."""
    import numpy as np

    n, actions = masks.shape
    if not isinstance(output, (tuple, list)) or len(output) != 2:
        raise TypeError("%s: the evaluator must return a pair (logits, values), not %s"
                        % (where, type(output).__name__ if not isinstance(output, (tuple, list))
                           else "%d items" % len(output)))
    parts = []
    for name, item in zip(("logits", "values"), output):
        try:
            a = np.asarray(item)
        except Exception as e:  # an object numpy cannot read (a tensor that needs .detach(), ...)
            raise TypeError("%s: the evaluator's %s are not an array: %s" % (where, name, e)) from None
        if a.dtype.kind not in "fiu":
            raise TypeError("%s: the evaluator's %s must be float32, not %s" % (where, name, a.dtype))
        parts.append(a)
    logits, values = parts
    if logits.shape != (n, actions):
        raise ValueError("%s: the evaluator's logits have shape %s, expected (%d, %d)"
                         % (where, _shape_text(logits.shape), n, actions))
    if values.shape != (n, players) and not (players == 2 and values.shape == (n,)):
        raise ValueError("%s: the evaluator's values have shape %s, expected (%d, %d)%s"
                         % (where, _shape_text(values.shape), n, players, " or (%d,)" % n if players == 2 else ""))
    logits = np.ascontiguousarray(logits, dtype=np.float32)
    values = np.ascontiguousarray(values, dtype=np.float32)
    bad = ~np.isfinite(logits) & masks
    if bad.any():
        row, action = (int(i) for i in np.argwhere(bad)[0])
        raise ValueError("%s: the evaluator's logits are not finite at a legal action (row %d, action %d: %r)"
                         % (where, row, action, float(logits[row, action])))
    finite = np.isfinite(values)
    if not finite.all():
        row = int(np.argwhere(~finite)[0][0])
        raise ValueError("%s: the evaluator's values are not finite (row %d: %r)"
                         % (where, row, values[row].tolist() if values.ndim == 2 else float(values[row])))
    if values.ndim == 1:
        values = np.ascontiguousarray(np.stack([values, -values], axis=1))
    return logits, values


def _f32(values):
    """Doubles rounded to float32 (round to nearest, as C++'s static_cast<float>), back as Python floats."""
    import numpy as np

    return np.array(values, dtype=np.float64).astype(np.float32).tolist()


def _unit(rng):
    """Section 13: a uniform double in (0, 1]: ``((next >> 11) + 1) * 2**-53``."""
    return ((rng.next() >> 11) + 1) * (1.0 / (1 << 53))


def _normal(rng):
    """Section 13: a standard normal draw (Box-Muller, the cosine half)."""
    u1 = _unit(rng)
    u2 = _unit(rng)
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(TWO_PI * u2)


def _gamma(alpha, rng):
    """Section 13: a Gamma(alpha, 1) draw (Marsaglia and Tsang; for alpha < 1, Gamma(alpha + 1) * u**(1/alpha))."""
    a = alpha + 1.0 if alpha < 1.0 else alpha
    d = a - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = _normal(rng)
        v = 1.0 + c * x
        if v <= 0.0:
            continue
        v = v * v * v
        u = _unit(rng)
        x2 = x * x
        if u < 1.0 - 0.0331 * (x2 * x2):
            break
        if math.log(u) < 0.5 * x2 + d * (1.0 - v + math.log(v)):
            break
    g = d * v
    if alpha < 1.0:
        g = g * math.pow(_unit(rng), 1.0 / alpha)
    return g


def dirichlet(alpha, n, rng):
    """Section 13: n draws of Dirichlet(alpha, ..., alpha) from ``rng`` (uniform when every gamma draw is 0)."""
    g = [_gamma(alpha, rng) for _ in range(n)]
    total = 0.0
    for x in g:
        total += x
    if total == 0.0:
        return [1.0 / n] * n
    return [x / total for x in g]


def softmax_priors(logits_row, legal):
    """Section 11: the priors of the legal actions ``legal`` (ascending), a softmax of the logits row over them,
    in double, rounded to float32."""
    row = logits_row[legal].tolist() if hasattr(logits_row, "tolist") else [logits_row[a] for a in legal]
    m = row[0]
    for x in row:
        if x > m:
            m = x
    e = [math.exp(x - m) for x in row]
    s = 0.0
    for x in e:
        s += x
    return _f32([x / s for x in e])


def terminal_value(state, margin):
    """Section 11: each player's value of a finished game: ``2 * u - 1`` of the utility of section 4."""
    return [2.0 * u - 1.0 for u in utility(state.scores, state.winners, margin)]


class _Node:
    """A node of a guided tree (section 12): ``visits``, ``virtual`` (pending visits of this round), ``totals[p]``;
    once expanded, ``full`` (the legal actions of the position it met, ascending), ``priors`` (float32 values as
    floats, one an action of ``full``), ``children`` (one slot an action, None until chosen) and ``value`` (the
    evaluator's value of that position, per player); ``pending`` while its evaluation is awaited."""

    __slots__ = ("visits", "virtual", "totals", "full", "priors", "children", "value", "pending")

    def __init__(self, players):
        self.visits = self.virtual = 0
        self.totals = [0.0] * players
        self.full = self.priors = self.children = self.value = None
        self.pending = False


EXPAND, VALUE, TERMINAL, STORED = range(4)  # what a leaf needs (section 12, step 3)


class _Leaf:
    """A leaf of a round (section 12): ``state``, the position the evaluator sees for its priors and value; with the
    exact search of section 16.4, ``value_state``, the position at the end of its round's best line, seen for the
    value instead (or ``value`` set already, when that line ends the game)."""

    __slots__ = ("kind", "node", "path", "state", "value", "priors", "value_state")

    def __init__(self, kind, node, path, state, value=None):
        self.kind, self.node, self.path, self.state, self.value = kind, node, path, state, value
        self.priors = self.value_state = None

    def rows(self):
        """The positions this leaf needs evaluated, in order: its own (priors, and value unless the exact search
        gave another), then the end of its exact line (value)."""
        out = []
        if self.kind == EXPAND or (self.kind == VALUE and self.value_state is None):
            out.append(self.state)
        if self.value_state is not None:
            out.append(self.value_state)
        return out


class _Tree:
    """One guided tree (sections 12 and 14): its generator, its budget and node limit."""

    def __init__(self, search, seed, budget, capacity):
        self.search = search
        self.rng = SplitMix64(seed)
        self.budget, self.capacity = budget, capacity
        self.done = 0
        self.nodes = 1
        self.full = False
        self.stopped = False
        root = self.root = _Node(search.players)
        root.full = search.legal
        root.priors = list(search.priors)
        root.children = [None] * len(search.legal)
        root.value = search.root_value
        root.visits = 1  # section 12: the root's evaluation is its first visit
        root.totals = list(search.root_value)
        o = search.options
        if o.noise_alpha > 0.0 and o.noise_fraction > 0.0:  # section 13
            eta = dirichlet(o.noise_alpha, len(search.legal), self.rng)
            f = o.noise_fraction
            root.priors = _f32([(1.0 - f) * p + f * e for p, e in zip(root.priors, eta)])

    def _select(self, node, player):
        """Section 12, step 2.4: the slot of greatest PUCT score, or None when the tree is full and no slot has a
        child."""
        o = self.search.options
        sq = math.sqrt(node.visits + node.virtual)
        fpu_q = node.totals[player] / node.visits - o.fpu
        c_puct = o.c_puct
        full = self.nodes >= self.capacity
        best = None
        best_score = 0.0
        priors = node.priors
        for j, child in enumerate(node.children):
            if child is None:
                if full:
                    self.full = True
                    continue
                q = fpu_q
                n = 0
            else:
                n = child.visits + child.virtual
                q = (child.totals[player] - child.virtual * VIRTUAL_LOSS) / n
            score = q + c_puct * priors[j] * sq / (1 + n)
            if best is None or score > best_score:
                best, best_score = j, score
        return best

    def _descend(self):
        """One descent (section 12, step 2): a _Leaf, or None for a collision with a leaf already pending."""
        search = self.search
        rng = self.rng
        state = search.state.clone()
        state.reseed(rng.next())
        node = self.root
        path = [node]
        while True:
            if state.is_over:
                return _Leaf(TERMINAL, node, path, None, terminal_value(state, search.options.margin))
            if state.is_chance_node:  # as section 3, step 2.1
                u = (rng.next() >> 11) * (1.0 / (1 << 53))
                for action, probability in state.chance_outcomes():
                    u -= probability
                    if u < 0:
                        break
                state.apply(action)
                continue
            if node.full is None:
                if node.pending:
                    return None
                return self._exact(_Leaf(EXPAND, node, path, state))
            if node is not self.root and state.legal_actions() != node.full:
                return self._exact(_Leaf(VALUE, node, path, state))  # another deal, past a round's end
            j = self._select(node, state.current_player)
            if j is None:
                return _Leaf(STORED, node, path, None, node.value)
            child = node.children[j]
            if child is None:
                child = node.children[j] = _Node(search.players)
                self.nodes += 1
            state.apply(node.full[j])
            node = child
            path.append(node)

    def _exact(self, leaf):
        """Section 16.4: a leaf with at most ``exact`` moves left in its round is valued at the end of the round's
        best line (played on a copy, passes drawn from the tree's generator): the evaluator's value there, or the
        finished game's."""
        exact = self.search.exact
        state = leaf.state
        if exact and state._round == self.search.state._round and _exact.moves_left(state) <= exact:
            end = state.clone()
            _exact.play_line(self.search.solver, end, self.rng)
            if end.is_over:
                leaf.value = terminal_value(end, self.search.options.margin)
                if leaf.kind == VALUE:
                    leaf.kind = TERMINAL
            else:
                leaf.value_state = end
        return leaf

    def collect(self, timed):
        """Section 12, step 1: up to ``batch`` leaves, virtual losses on their paths."""
        leaves = []
        batch = self.search.options.batch
        while len(leaves) < batch and (timed or self.done + len(leaves) < self.budget):
            leaf = self._descend()
            if leaf is None:
                break
            for n in leaf.path:
                n.virtual += 1
            if leaf.kind == EXPAND:
                leaf.node.pending = True
            leaves.append(leaf)
        return leaves

    def backup(self, leaves):
        """Section 12, step 4, in the order the leaves were collected."""
        for leaf in leaves:
            v = leaf.value
            if leaf.kind == EXPAND:
                node = leaf.node
                node.full = leaf.state.legal_actions()
                node.priors = leaf.priors
                node.children = [None] * len(node.full)
                node.value = _f32(v)  # float32, as C++ keeps it: an exact line's end value is a double
                node.pending = False
            for n in leaf.path:
                n.virtual -= 1
                n.visits += 1
                totals = n.totals
                for p, x in enumerate(v):
                    totals[p] += x
            self.done += 1


class Options:
    __slots__ = ("iterations", "seconds", "threads", "margin", "max_nodes", "batch", "c_puct", "fpu", "noise_alpha",
                 "noise_fraction", "exact")

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)


class Search:
    """One search of ``search`` or ``search_many``: its root, its root evaluation and its trees (section 14)."""

    def __init__(self, state, seed, options):
        self.state = state.clone()
        self.seed = seed
        self.options = options
        self.players = state.players
        self.player = state.current_player
        self.legal = state.legal_actions()
        self.priors = self.root_value = None
        self.trees = []
        self.solver = None  # section 16.4: the exact search's, shared by every search of a call
        # Section 16.1: the exact search only when the root's round is near its end.
        self.exact = options.exact if options.exact and _exact.moves_left(state) <= options.exact else 0

    def setup(self, logits_row, value_row):
        """Section 12, the setup: the root's priors and value, then the trees (tree t's generator as in section
        2.1, its budget and node limit as in sections 5 and 7)."""
        self.priors = softmax_priors(logits_row, self.legal)
        self.root_value = _absolute(value_row, self.player, self.players)
        o = self.options
        threads = o.threads
        for t in range(threads):
            budget = o.iterations // threads + (1 if t < o.iterations % threads else 0)
            self.trees.append(_Tree(self, self.seed if t == 0 else tree_seed(self.seed, t), budget,
                                    o.max_nodes // threads))


def _absolute(row, player, players):
    """An evaluator's value row (seat k is the seat ``k`` places after the observer ``player``) by player."""
    out = [0.0] * players
    for k in range(players):
        out[(player + k) % players] = float(row[k])
    return out


def _evaluate(evaluator, states, players, where):
    """The evaluator on the states (each seen by its player to move): checked ``(logits, values)``."""
    import numpy as np

    obs = np.stack([s.observation_tensor() for s in states])
    masks = np.stack([s.legal_action_mask() for s in states])
    return check_evaluation(evaluator(obs, masks), masks, players, where)


def run(searches, evaluator, timed, deadline, where):
    """Grows every search's trees to their budgets (or ``deadline``): the driver of section 14, one evaluator call
    a round for the leaves of every tree."""
    players = searches[0].players
    logits, values = _evaluate(evaluator, [s.state for s in searches], players, where)
    solver = _exact.Solver(searches[0].state, limit=_exact.TABLE_LIMIT) if searches[0].options.exact else None
    for i, s in enumerate(searches):
        s.solver = solver
        s.setup(logits[i], values[i])
    trees = [t for s in searches for t in s.trees]
    while True:
        active = [t for t in trees if not t.stopped and (timed or t.done < t.budget)]
        if not active:
            break
        rounds = [(t, t.collect(timed)) for t in active]
        need = [leaf for _, leaves in rounds for leaf in leaves if leaf.kind in (EXPAND, VALUE)]
        if need:
            rows = [(leaf, state) for leaf in need for state in leaf.rows()]
            logits, values = _evaluate(evaluator, [state for _, state in rows], players, where)
            for i, (leaf, state) in enumerate(rows):
                if state is leaf.state and leaf.kind == EXPAND:
                    leaf.priors = softmax_priors(logits[i], state.legal_actions())
                if state is leaf.value_state or (leaf.value_state is None and leaf.value is None):
                    leaf.value = _absolute(values[i], state.current_player, players)
        for t, leaves in rounds:
            t.backup(leaves)
        if timed and time.perf_counter() >= deadline:
            for t in active:
                t.stopped = True


def _children(node):
    """``(action, child)`` of a node's chosen children, in slot order."""
    if node is None or node.children is None:
        return []
    return [(node.full[j], ch) for j, ch in enumerate(node.children) if ch is not None]


def _merged(nodes, player):
    merged = {}
    for node in nodes:
        for action, child in _children(node):
            visits, total = merged.get(action, (0, 0.0))
            merged[action] = (visits + child.visits, total + child.totals[player])
    return [(a, v, t) for a, (v, t) in merged.items()]


def result_of(search, seconds):
    """Section 15: the SearchResult of a finished search."""
    state = search.state
    player = search.player
    roots = [t.root for t in search.trees]
    rows = ranked(_merged(roots, player))
    # The principal variation (section 6): the most visited line, up to the first move after which tiles are
    # drawn or the game ends.
    walk = state.clone()
    nodes = roots
    pv, pv_moves = [], []
    while True:
        here = _merged(nodes, walk.current_player)
        if not here:
            break
        action = ranked(here)[0][0]
        pv_moves.append(walk.action_to_string(action))
        pv.append(action)
        before = walk._rng
        walk.apply(action)
        if walk.is_over or walk.is_chance_node or walk._rng != before:
            break
        nodes = [None if n is None or n.children is None else
                 next((ch for a, ch in _children(n) if a == action), None) for n in nodes]
    prior_of = dict(zip(search.legal, search.priors))
    iterations = sum(t.done for t in search.trees)
    return SearchResult(
        action=rows[0][0], move=state.action_to_string(rows[0][0]), player=player,
        actions=tuple(r[0] for r in rows), moves=tuple(state.action_to_string(r[0]) for r in rows),
        visits=tuple(r[1] for r in rows), values=tuple(r[2] / r[1] for r in rows),
        iterations=iterations, nodes=sum(t.nodes for t in search.trees), full=any(t.full for t in search.trees),
        pv=tuple(pv), pv_moves=tuple(pv_moves), threads=search.options.threads,
        next_seed=search.trees[0].rng.state, seconds=seconds,
        priors=tuple(prior_of[r[0]] for r in rows), root_value=search.root_value[player])
