"""Monte Carlo tree search, pure-Python engine (docs/search.md; its section numbers are cited below).

C++ twin: native/src/common/search.cpp (native/include/azul/common/search.h).  This module also holds what both
engines share at the Python boundary: ``SearchResult`` (the class both return), ``check_search`` and
``check_search_many`` (the argument checks, so that both refuse bad arguments with the same words); the C++
bindings import them from here.  What the two searches share (the result, the utility, the trees' seeds) is in
``search_common.py``.  With an evaluator, ``search`` is the guided search of ``guided.py`` (sections
10-15), as is ``search_many``.
"""

import math
import time

from . import exact as _exact
from . import guided as _guided
from .common import MASK64, SplitMix64, as_index, check_policy, check_seed, state_type_error
from .exact import RoundSolution
from .search_common import EDGE_POINTS, TREE_SALT, SearchResult, ranked as _ranked, tree_seed as _tree_seed, utility

__all__ = ["SearchResult", "RoundSolution", "search", "search_many", "solve_round", "check_search",
           "check_search_many", "check_solve_round", "greedy_value", "utility", "EDGE_POINTS", "TREE_SALT"]

DEFAULT_MAX_NODES = 2_000_000
MAX_ITERATIONS = 1 << 40
MAX_THREADS = 1024
MAX_ROLLOUTS = 1024
MAX_NODES_LIMIT = 1 << 30
MAX_BATCH = 4096
MAX_SEARCHES = 1 << 16  # positions of one search_many call
MAX_SECONDS = 365 * 24 * 3600.0  # a time budget of at most a year (docs/search.md section 7)
MAX_NOISE_ALPHA = 1000.0
DEFAULT_EXACT = 0  # section 16.1: the moves left (moves_left) at the root under which its round is solved exactly
MAX_EXACT = 64

# The defaults of the arguments that belong to one of the two searches (section 10): giving one of the other
# search's is an error rather than silently ignored.
ROLLOUT_DEFAULTS = {"c": 0.7, "rollouts": 4, "policy": "light", "candidates": 5, "inner_candidates": 5,
                    "widen": 1000}
GUIDED_DEFAULTS = {"batch": 8, "c_puct": 1.25, "fpu": 0.25, "noise_alpha": 0.0, "noise_fraction": 0.25}


def _whole(value, name, low, high, high_text, where="search"):
    value = as_index(value, where + ": " + name + " must be an int, not %s")
    if value < low:
        raise ValueError("%s: %s must be %d or more, got %d" % (where, name, low, value))
    if value > high:
        raise ValueError("%s: %s is too large: %d (at most %s)" % (where, name, value, high_text))
    return value


def _real(value, name, where="search"):
    if isinstance(value, bool) or not hasattr(type(value), "__float__") or isinstance(value, (str, bytes, complex)):
        raise TypeError("%s: %s must be a number, not %s" % (where, name, type(value).__name__))
    try:
        return float(value)
    except OverflowError:
        raise ValueError("%s: %s is too large: %s" % (where, name, value)) from None


def _is_network(evaluator):
    """True for a built-in network of either engine (docs/network.md)."""
    kind = type(evaluator)
    return kind.__name__ == "Network" and kind.__module__ in ("azul_engine._pure.network", "azul_engine._cppengine")


def _check_guided(where, evaluator, batch, c_puct, fpu, noise_alpha, noise_fraction):
    """The guided search's own arguments (section 10), checked; returns them converted."""
    if not callable(evaluator):
        raise TypeError("%s: evaluator must be callable, evaluate(observations, masks) -> (logits, values), or a "
                        "Network, not %s" % (where, type(evaluator).__name__))
    batch = _whole(batch, "batch", 1, MAX_BATCH, "4096", where)
    c_puct = _real(c_puct, "c_puct", where)
    if not 0 <= c_puct < math.inf:
        raise ValueError("%s: c_puct must be 0 or more and finite, not %r" % (where, c_puct))
    fpu = _real(fpu, "fpu", where)
    if not -math.inf < fpu < math.inf:
        raise ValueError("%s: fpu must be finite, not %r" % (where, fpu))
    noise_alpha = _real(noise_alpha, "noise_alpha", where)
    if not 0 <= noise_alpha <= MAX_NOISE_ALPHA:
        raise ValueError("%s: noise_alpha must be 0 (no noise) to %g, not %r" % (where, MAX_NOISE_ALPHA, noise_alpha))
    noise_fraction = _real(noise_fraction, "noise_fraction", where)
    if not 0 <= noise_fraction <= 1:
        raise ValueError("%s: noise_fraction must be between 0 and 1, not %r" % (where, noise_fraction))
    return batch, c_puct, fpu, noise_alpha, noise_fraction


def _check_common(where, iterations, seconds, threads, margin, max_nodes, exact):
    iterations = _whole(iterations, "iterations", 1, MAX_ITERATIONS, "2**40", where)
    if seconds is not None:
        seconds = _real(seconds, "seconds", where)
        if not 0 < seconds <= MAX_SECONDS:
            raise ValueError("%s: seconds must be positive and at most a year (%d), not %r"
                             % (where, MAX_SECONDS, seconds))
    threads = _whole(threads, "threads", 1, MAX_THREADS, "1024", where)
    margin = _real(margin, "margin", where)
    if not 0 <= margin <= 1:
        raise ValueError("%s: margin must be between 0 and 1, not %r" % (where, margin))
    max_nodes = _whole(max_nodes, "max_nodes", 2, MAX_NODES_LIMIT, "2**30", where)
    exact = _whole(exact, "exact", 0, MAX_EXACT, str(MAX_EXACT), where)
    return iterations, seconds, threads, margin, max_nodes, exact


def check_search(state, state_types, iterations, seconds, threads, seed, c, margin, rollouts, policy, candidates,
                 inner_candidates, widen, max_nodes, evaluator=None, batch=8, c_puct=1.25, fpu=0.25,
                 noise_alpha=0.0, noise_fraction=0.25, exact=DEFAULT_EXACT):
    """The arguments of ``search`` checked, in the order of its signature, as both engines check them; returns
    ``(iterations, seconds or None, threads, seed, c, margin, rollouts, light, candidates, inner_candidates,
    widen, max_nodes, guided, batch, c_puct, fpu, noise_alpha, noise_fraction, copy, exact)``, ``copy`` the
    state's copy that was checked and is to be searched: taken first, under the state's lock (in the C++ engine,
    with the GIL), since another thread may move the game while the arguments are checked.  ``state_types``: the
    engine's state classes."""
    if not isinstance(state, state_types):
        raise state_type_error("search: ", state, state_types)
    state = state.clone()
    iterations, seconds, threads, margin, max_nodes, exact = _check_common("search", iterations, seconds, threads,
                                                                           margin, max_nodes, exact)
    seed = check_seed(seed)
    c = _real(c, "c")
    if not 0 <= c < math.inf:
        raise ValueError("search: c must be 0 or more and finite, not %r" % (c,))
    rollouts = _whole(rollouts, "rollouts", 1, MAX_ROLLOUTS, "1024")
    light = check_policy(policy)
    candidates = _whole(candidates, "candidates", 0, MAX_NODES_LIMIT, "2**30")
    inner_candidates = _whole(inner_candidates, "inner_candidates", 0, MAX_NODES_LIMIT, "2**30")
    widen = _whole(widen, "widen", 0, MAX_ITERATIONS, "2**40")
    if max_nodes < 2 * threads:
        raise ValueError("search: max_nodes must be at least 2 a thread (%d with threads=%d), got %d"
                         % (2 * threads, threads, max_nodes))
    guided = evaluator is not None
    if guided:
        batch, c_puct, fpu, noise_alpha, noise_fraction = _check_guided("search", evaluator, batch, c_puct, fpu,
                                                                        noise_alpha, noise_fraction)
        given = dict(c=c, rollouts=rollouts, policy="light" if light else "uniform", candidates=candidates,
                     inner_candidates=inner_candidates, widen=widen)
        for name, default in ROLLOUT_DEFAULTS.items():
            if given[name] != default:
                raise ValueError("search: %s is an argument of the rollout search, not of the guided search "
                                 "(evaluator=...)" % name)
    else:
        given = dict(batch=batch, c_puct=c_puct, fpu=fpu, noise_alpha=noise_alpha, noise_fraction=noise_fraction)
        for name, default in GUIDED_DEFAULTS.items():
            if given[name] != default:
                raise ValueError("search: %s is an argument of the guided search: give an evaluator too" % name)
    if state.is_over:
        raise ValueError("search: no move to choose once the game is over")
    if state.is_chance_node:
        raise ValueError("search: no move to choose at a chance node")
    if guided and _is_network(evaluator):
        from .network import check_network_for
        check_network_for(evaluator, state, "search")
    return (iterations, seconds, threads, seed, c, margin, rollouts, light, candidates, inner_candidates, widen,
            max_nodes, guided, batch, c_puct, fpu, noise_alpha, noise_fraction, state, exact)


def check_search_many(states, state_types, evaluator, iterations, seconds, threads, seed, margin, max_nodes, batch,
                      c_puct, fpu, noise_alpha, noise_fraction, exact=DEFAULT_EXACT):
    """The arguments of ``search_many`` checked as both engines check them; returns ``(states, seeds, iterations,
    seconds or None, threads, margin, max_nodes, batch, c_puct, fpu, noise_alpha, noise_fraction, exact)``,
    ``states`` a list of the states' copies (each taken before it is checked, as ``check_search`` takes it) and
    ``seeds`` one a state."""
    where = "search_many"
    if isinstance(states, (str, bytes)) or not hasattr(states, "__len__") or not hasattr(states, "__getitem__"):
        raise TypeError("search_many: states must be a list of states, not %s" % type(states).__name__)
    states = list(states)
    if not states:
        raise ValueError("search_many: states is empty")
    if len(states) > MAX_SEARCHES:
        raise ValueError("search_many: at most %d states, got %d" % (MAX_SEARCHES, len(states)))
    if evaluator is None:
        raise TypeError("search_many: an evaluator is needed (evaluate(observations, masks) -> (logits, values), "
                        "or a Network)")
    iterations, seconds, threads, margin, max_nodes, exact = _check_common(where, iterations, seconds, threads,
                                                                           margin, max_nodes, exact)
    batch, c_puct, fpu, noise_alpha, noise_fraction = _check_guided(where, evaluator, batch, c_puct, fpu,
                                                                    noise_alpha, noise_fraction)
    if isinstance(seed, (list, tuple)):
        if len(seed) != len(states):
            raise ValueError("search_many: %d seeds for %d states" % (len(seed), len(states)))
        seeds = [check_seed(x) for x in seed]
    else:
        first = check_seed(as_index(seed, "search_many: seed must be an int or a list of ints, not %s")
                           if not isinstance(seed, int) else seed)
        seeds = [(first + i) & MASK64 for i in range(len(states))]
    for i, state in enumerate(states):
        if not isinstance(state, state_types):
            raise state_type_error("search_many: state %d: " % i, state, state_types)
        state = states[i] = state.clone()
        if state.is_over:
            raise ValueError("search_many: state %d: no move to choose once the game is over" % i)
        if state.is_chance_node:
            raise ValueError("search_many: state %d: no move to choose at a chance node" % i)
        if (state.variant, state.players) != (states[0].variant, states[0].players):
            raise ValueError("search_many: every state must be of one variant and player count: state %d is %s with "
                             "%d players, state 0 %s with %d" % (i, state.variant, state.players, states[0].variant,
                                                                 states[0].players))
    if _is_network(evaluator):
        from .network import check_network_for
        check_network_for(evaluator, states[0], where)
    return (states, seeds, iterations, seconds, threads, margin, max_nodes, batch, c_puct, fpu, noise_alpha,
            noise_fraction, exact)


def check_solve_round(state, state_types, max_nodes):
    """The arguments of ``solve_round`` checked as both engines check them (section 16.5): returns ``(copy,
    max_nodes)``, ``copy`` the state's copy, taken before it is checked (as ``check_search`` takes it)."""
    if not isinstance(state, state_types):
        raise state_type_error("solve_round: ", state, state_types)
    state = state.clone()
    max_nodes = _whole(max_nodes, "max_nodes", 1, MAX_NODES_LIMIT, "2**30", "solve_round")
    if state.is_over:
        raise ValueError("solve_round: no move to choose once the game is over")
    if state.is_chance_node:
        raise ValueError("solve_round: no move to choose at a chance node")
    return state, max_nodes


def node_cap_error(max_nodes):
    """The ValueError of a round too far from its end for ``solve_round``'s node cap (section 16.5)."""
    return ValueError("solve_round: the rest of the round needs more than max_nodes=%d positions: too many moves "
                      "left to solve exactly (a position nearer the round's end, or a larger max_nodes)" % max_nodes)


def greedy_value(state, action, player):
    """The greedy bot's value of ``action`` (section 2): the player's score if the round ended right after it;
    in Summer Pavilion the score after it plus a point for each tile in hand."""
    after = state.clone()
    after.apply(action)
    if after.variant == "summer-pavilion":
        return after.scores[player] + len(after.hands[player])
    return after.score_if_round_ended()[player]


class _Node:
    """A node of an open-loop tree (section 3): ``full`` (its legal actions at its first visit as an inner node),
    ``legal`` (those it considers) and ``untried`` (None until that visit), ``children`` (action -> node),
    ``visits`` and ``totals[p]``."""

    __slots__ = ("full", "legal", "untried", "children", "visits", "totals")

    def __init__(self, players):
        self.full = self.legal = self.untried = None
        self.children = {}
        self.visits = 0
        self.totals = [0.0] * players


def greedy_top(state, actions, k, rng):
    """The ``k`` of ``actions`` the greedy bot rates best in ``state``, in key order (section 2.2): the key of
    action a is ``(-greedy_value(a), the next output of rng, a)``, drawn in the order of ``actions``."""
    player = state.current_player
    keyed = sorted((-greedy_value(state, a, player), rng.next(), a) for a in actions)
    return [a for _, _, a in keyed[:k]]


def _rollouts(state, k, seed, light):
    """Final scores of ``playouts_from(state, k, seed, threads=1, policy)``, as lists (the engine's own loop)."""
    # Imported here, not at the top: see search().
    from .classic.playout import _play_random, _splitmix_output

    out = []
    for i in range(k):
        g = state.clone()
        g._rng = _splitmix_output(seed, 2 * i + 1)
        _play_random(g, _splitmix_output(seed, 2 * i + 2), light)
        out.append(list(g._score))
    return out


class _Tree:
    """One tree of the search (section 5), with its generator, node count and limit."""

    def __init__(self, players, seed, root_legal, root_order, candidates, widen, capacity, c, margin, rollouts, light,
                 inner, exact=0, solver=None):
        self.rng = SplitMix64(seed)
        self.root = root = _Node(players)
        root.full = list(root_legal)
        root.legal = list(root_legal if root_order is None else root_order[:candidates])
        root.untried = list(root.legal)
        # Section 2.4, widening: the pruned root's next move in key order joins at `widen` visits, then at each
        # doubling of them.
        self.order = root_order
        self.widen_at = widen if root_order is not None and widen > 0 else None
        self.nodes, self.capacity = 1, capacity
        self.full = False
        self.c, self.margin, self.rollouts, self.light, self.inner = c, margin, rollouts, light, inner
        self.exact, self.solver = exact, solver

    def iterate(self, root_state):
        """One iteration (section 3)."""
        rng, c, root = self.rng, self.c, self.root
        if self.widen_at is not None and root.visits >= self.widen_at:  # section 2.4
            action = self.order[len(root.legal)]
            root.legal.append(action)
            root.untried.append(action)
            self.widen_at = self.widen_at * 2 if len(root.legal) < len(self.order) else None
        state = root_state.clone()
        state.reseed(rng.next())
        node, path = root, [root]
        while not state.is_over:
            if state.is_chance_node:  # 2.1
                u = (rng.next() >> 11) * (1.0 / (1 << 53))
                for action, probability in state.chance_outcomes():
                    u -= probability
                    if u < 0:
                        break
                state.apply(action)
                continue
            here = root.full if node is root else state.legal_actions()  # 2.2 (the root's never change)
            if node.legal is None:
                node.full = here
                k = self.inner
                node.legal = greedy_top(state, here, k, rng) if 0 < k < len(here) else here
                if 0 < k < len(here) and self._gated(state, root_state):  # section 16.4: the exact best first
                    node.legal = _exact_first(node.legal, self.solver.best_of(state))
                node.untried = list(node.legal)
            children = node.children
            if node is root or here == node.full:  # 2.3: the same deal
                legal, untried = node.legal, node.untried
            else:  # another deal, past a round's end
                legal = here
                untried = [a for a in here if a not in children]
            if untried and self.nodes >= self.capacity:  # 2.4: the tree is full
                self.full = True
                break
            action = None
            while untried:
                i = rng.below(len(untried))
                action = untried[i]
                untried[i] = untried[-1]
                untried.pop()
                if action not in children:
                    break
                action = None
            if action is not None:
                child = children[action] = _Node(len(node.totals))
                self.nodes += 1
                state.apply(action)
                path.append(child)
                break
            player = state.current_player  # 2.5
            log_n = math.log(node.visits)
            best = best_value = None
            for a in legal:
                n = children[a]
                value = n.totals[player] / n.visits + c * math.sqrt(log_n / n.visits)
                if best_value is None or value > best_value:
                    best, best_value = a, value
            state.apply(best)
            node = children[best]
            path.append(node)
        if not state.is_over and not state.is_chance_node and self._gated(state, root_state):
            _exact.play_line(self.solver, state, rng)  # section 16.4: the round's end, exactly
        if state.is_over:  # 3
            result = utility(state.scores, state.winners, self.margin)
        else:
            k = self.rollouts
            result = [0.0] * len(root.totals)
            for scores in _rollouts(state, k, rng.next(), self.light):
                top = max(scores)
                winners = [p for p, s in enumerate(scores) if s == top]
                for p, u in enumerate(utility(scores, winners, self.margin)):
                    result[p] += u / k
        for n in path:  # 4
            n.visits += 1
            totals = n.totals
            for p, u in enumerate(result):
                totals[p] += u


    def _gated(self, state, root_state):
        """Section 16.1: the exact search applies at ``state``: the root's gate is open (``exact`` is 0 otherwise),
        ``state`` is in the root's round and has at most ``exact`` moves left."""
        return self.exact and state._round == root_state._round and _exact.moves_left(state) <= self.exact


def _exact_first(actions, best):
    """Section 16.4: ``actions`` with ``best`` first, then the others in their order, as many as before."""
    return ([best] + [a for a in actions if a != best])[:len(actions)]


def _merged(nodes, player):
    """``[(action, visits, total)]`` of the children of ``nodes`` (one node a tree, or None), summed over the
    trees in tree order, in order of first appearance."""
    merged = {}
    for node in nodes:
        if node is None:
            continue
        for action, child in node.children.items():
            visits, total = merged.get(action, (0, 0.0))
            merged[action] = (visits + child.visits, total + child.totals[player])
    return [(a, v, t) for a, (v, t) in merged.items()]


def _principal_variation(state, trees):
    """Section 6: the most visited line, up to the first move after which tiles are drawn or the game ends."""
    walk = state.clone()
    nodes = [t.root for t in trees]
    pv, moves = [], []
    while True:
        rows = _merged(nodes, walk.current_player)
        if not rows:
            break
        action = _ranked(rows)[0][0]
        moves.append(walk.action_to_string(action))
        pv.append(action)
        before = walk._rng
        walk.apply(action)
        if walk.is_over or walk.is_chance_node or walk._rng != before:
            break
        nodes = [None if n is None else n.children.get(action) for n in nodes]
    return tuple(pv), tuple(moves)


def search(state, *, iterations=1000, seconds=None, threads=1, seed=0, c=0.7, margin=0.4, rollouts=4,
           policy="light", candidates=5, inner_candidates=5, widen=1000, max_nodes=DEFAULT_MAX_NODES,
           exact=DEFAULT_EXACT, evaluator=None, batch=8, c_puct=1.25, fpu=0.25, noise_alpha=0.0,
           noise_fraction=0.25):
    """Choose a move for the player to move in ``state`` by Monte Carlo tree search: a ``SearchResult``.

    The algorithm (open-loop UCT over reseeded copies, the greedy bot's best ``candidates`` moves at the root,
    ``rollouts`` light rollouts a new node, the win/edge utility) and every argument are docs/search.md.  With an
    iteration budget the result is the C++ engine's, field for field, for every thread count; here the
    ``threads`` trees grow one iteration each in turn.  ``state`` is not changed.

    With an ``evaluator`` (a callable ``evaluate(observations, masks) -> (logits, values)`` on numpy batches, or a
    ``Network``) it is the guided search instead (docs/search.md sections 10-15): PUCT with the evaluator's
    priors and values, leaves evaluated ``batch`` at a time with virtual loss, exploration ``c_puct``,
    first-play urgency ``fpu``, Dirichlet noise at the root (``noise_alpha``, ``noise_fraction``); the rollout
    search's own arguments (``c``, ``rollouts``, ``policy``, ``candidates``, ``inner_candidates``, ``widen``)
    are then refused, as the guided search's are without an evaluator.  ``exact=N`` (both searches, section 16):
    when the root has at most N moves left in its round (``moves_left``), each leaf of that round with at most N
    plays the round's best line, found exactly, before it is valued by rollouts or the evaluator, and the exact best
    move is a candidate wherever the rollout search prunes.

    >>> result = search(new_game(2, seed=7), iterations=50, seed=1)
    >>> result.action in new_game(2, seed=7).legal_actions(), sum(result.visits), result.pv[0] == result.action
    (True, 50, True)
    """
    # Imported here, not at the top: the C++ engine imports this module (SearchResult, check_search) and should
    # not load the pure engine with it.  No cycle hides here: tests/test_layout.py counts these imports too.
    from .classic.state import GameState
    from .pavilion.state import PavilionState

    # state: the copy that was checked (another thread may move the game meanwhile), searched and never changed
    (iterations, seconds, threads, seed, c, margin, rollouts, light, candidates, inner_candidates, widen,
     max_nodes, guided, batch, c_puct, fpu, noise_alpha, noise_fraction, state, exact) = check_search(
        state, (GameState, PavilionState), iterations, seconds, threads, seed, c, margin, rollouts, policy,
        candidates, inner_candidates, widen, max_nodes, evaluator, batch, c_puct, fpu, noise_alpha, noise_fraction,
        exact)
    start = time.perf_counter()
    if guided:
        options = _guided.Options(iterations=iterations, seconds=seconds, threads=threads, margin=margin,
                                  max_nodes=max_nodes, batch=batch, c_puct=c_puct, fpu=fpu, noise_alpha=noise_alpha,
                                  noise_fraction=noise_fraction, exact=exact)
        one = _guided.Search(state, seed, options)
        _guided.run([one], evaluator, seconds is not None, start + (seconds or 0.0), "search")
        return _guided.result_of(one, time.perf_counter() - start)
    rng = SplitMix64(seed)
    legal = state.legal_actions()
    # 2.2: every legal action in key order (the same draws as for the first `candidates` of them)
    root_order = greedy_top(state, legal, len(legal), rng) if 0 < candidates < len(legal) else None
    capacity = max_nodes // threads
    if exact and _exact.moves_left(state) > exact:  # section 16.1: only when the root's round is near its end
        exact = 0
    solver = _exact.Solver(state, limit=_exact.TABLE_LIMIT) if exact else None  # one for all trees (16.4)
    if solver is not None and root_order is not None:  # 16.4: the pruned root's first move is the exact best
        root_order = _exact_first(root_order, solver.best_of(state))
    trees = [_Tree(state.players, rng.state if t == 0 else _tree_seed(seed, t), legal, root_order, candidates, widen,
                   capacity, c, margin, rollouts, light, inner_candidates, exact, solver) for t in range(threads)]
    done = 0
    if seconds is None:
        for i in range(iterations):
            trees[i % threads].iterate(state)
        done = iterations
    else:
        deadline = start + seconds
        running = list(trees)
        while running:
            for tree in list(running):
                tree.iterate(state)
                done += 1
                if time.perf_counter() >= deadline:
                    running.remove(tree)
    player = state.current_player
    rows = _ranked(_merged([t.root for t in trees], player))
    pv, pv_moves = _principal_variation(state, trees)
    return SearchResult(
        action=rows[0][0], move=state.action_to_string(rows[0][0]), player=player,
        actions=tuple(r[0] for r in rows), moves=tuple(state.action_to_string(r[0]) for r in rows),
        visits=tuple(r[1] for r in rows), values=tuple(r[2] / r[1] for r in rows),
        iterations=done, nodes=sum(t.nodes for t in trees), full=any(t.full for t in trees), pv=pv,
        pv_moves=pv_moves, threads=threads, next_seed=trees[0].rng.state, seconds=time.perf_counter() - start)


def search_many(states, *, evaluator, iterations=1000, seconds=None, threads=1, seed=0, margin=0.4,
                max_nodes=DEFAULT_MAX_NODES, exact=DEFAULT_EXACT, batch=1, c_puct=1.25, fpu=0.25, noise_alpha=0.0,
                noise_fraction=0.25):
    """The guided search (docs/search.md sections 10-15) from every state of ``states`` at once: a list of
    ``SearchResult``, one a state, each equal to ``search(states[i], evaluator=evaluator, seed=seeds[i],
    threads=1, ...)`` with the same arguments.  The leaves of all the searches share one evaluator call a round
    (up to ``batch`` a search), as self-play needs; ``seed`` is an int (state i searches with ``seed + i``) or a
    list of one seed a state.  ``threads``: the threads the C++ engine shares the searches over with a built-in
    network (the results do not depend on it); here the searches grow in turn.  The states must be of one variant
    and player count; none is changed.

    >>> import numpy as np
    >>> def evaluate(observations, masks):  # uniform priors, even values
    ...     return np.zeros(masks.shape, np.float32), np.zeros((len(observations), 2), np.float32)
    >>> results = search_many([new_game(2, seed=s) for s in (1, 2)], evaluator=evaluate, iterations=20)
    >>> [sum(r.visits) for r in results]
    [20, 20]
    """
    from .classic.state import GameState
    from .pavilion.state import PavilionState

    (states, seeds, iterations, seconds, threads, margin, max_nodes, batch, c_puct, fpu, noise_alpha,
     noise_fraction, exact) = check_search_many(states, (GameState, PavilionState), evaluator, iterations, seconds,
                                                threads, seed, margin, max_nodes, batch, c_puct, fpu, noise_alpha,
                                                noise_fraction, exact)
    start = time.perf_counter()
    options = _guided.Options(iterations=iterations, seconds=seconds, threads=1, margin=margin,
                              max_nodes=max_nodes, batch=batch, c_puct=c_puct, fpu=fpu, noise_alpha=noise_alpha,
                              noise_fraction=noise_fraction, exact=exact)
    many = [_guided.Search(state, s, options) for state, s in zip(states, seeds)]
    _guided.run(many, evaluator, seconds is not None, start + (seconds or 0.0), "search_many")
    elapsed = time.perf_counter() - start
    return [_guided.result_of(one, elapsed) for one in many]


def solve_round(state, *, max_nodes=_exact.DEFAULT_MAX_NODES):
    """The best moves from ``state`` to the end of its round, found exactly (docs/search.md section 16): a
    ``RoundSolution``.

    Within a round nothing is drawn, so its rest is a game of perfect information; each player maximises the points
    it gains this round (tiling and floor penalties included, end bonuses when the game ends with the round) against
    the others' (alpha-beta at 2 players, max^n at 3 and 4, a transposition table of positions).  Every
    move is valued, best first, with each player's gains along its best line; ``pv`` is the best line.  The line
    stops where tiles are drawn: the round's end, or in Summer Pavilion a supply refill before it.  More than
    ``max_nodes`` positions to search is a ValueError.  ``state`` is not changed.

    >>> state = new_game(2, seed=7)
    >>> while len(state.legal_actions()) > 12:  # play on to near the round's end
    ...     state.apply(state.legal_actions()[0])
    >>> solution = solve_round(state)
    >>> solution.action == solution.pv[0], solution.end, len(solution.actions) == len(state.legal_actions())
    (True, 'round', True)
    """
    from .classic.state import GameState
    from .pavilion.state import PavilionState

    state, max_nodes = check_solve_round(state, (GameState, PavilionState), max_nodes)
    start = time.perf_counter()
    try:
        player, rows, pv, pv_moves, end, nodes = _exact.solve(state, max_nodes)
    except _exact.NodeCap:
        raise node_cap_error(max_nodes) from None
    return RoundSolution(
        action=rows[0][0], move=rows[0][1], player=player, actions=tuple(r[0] for r in rows),
        moves=tuple(r[1] for r in rows), values=tuple(r[2] for r in rows), gains=tuple(r[3] for r in rows), pv=pv,
        pv_moves=pv_moves, end=end, nodes=nodes, seconds=time.perf_counter() - start)
