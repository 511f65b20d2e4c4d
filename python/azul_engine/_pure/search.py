"""Monte Carlo tree search, pure-Python engine (docs/search.md; its section numbers are cited below).

C++ twin: native/src/common/search.cpp (native/include/azul/common/search.h).  This module also holds what both
engines share at the Python boundary: ``SearchResult`` (the class both return) and ``check_search`` (the argument
checks, so that both refuse bad arguments with the same words); the C++ bindings import them from here.
"""

import dataclasses
import math
import time
import typing

from .common import MASK64, SplitMix64, as_index, check_policy, check_seed, splitmix_next, state_type_error

EDGE_POINTS = 20  # section 4: the score margin mapped from -EDGE_POINTS..+EDGE_POINTS points onto 0..1
TREE_SALT = 0xD1B54A32D192ED03  # section 2: the seeds of trees 1, 2, ...
DEFAULT_MAX_NODES = 2_000_000
MAX_ITERATIONS = 1 << 40
MAX_THREADS = 1024
MAX_ROLLOUTS = 1024
MAX_NODES_LIMIT = 1 << 30
_GAMMA = 0x9E3779B97F4A7C15


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """What ``search`` found (docs/search.md section 6).  The root actions that were tried come most visited
    first: ``actions[i]`` (its notation ``moves[i]``) was visited ``visits[i]`` times, with mean utility
    ``values[i]`` for ``player`` (0..1).  Equality compares every field but ``seconds``."""

    action: int
    move: str
    player: int
    actions: typing.Tuple[int, ...]
    moves: typing.Tuple[str, ...]
    visits: typing.Tuple[int, ...]
    values: typing.Tuple[float, ...]
    iterations: int
    nodes: int
    full: bool
    pv: typing.Tuple[int, ...]
    pv_moves: typing.Tuple[str, ...]
    threads: int
    next_seed: int
    seconds: float = dataclasses.field(compare=False)

    def visit_counts(self) -> typing.Dict[int, int]:
        """``{action: visits}`` over the root actions tried."""
        return dict(zip(self.actions, self.visits))

    def top(self, n: int = 3) -> typing.List[typing.Tuple[str, int, int, float]]:
        """The first ``n`` root actions as ``(move, action, visits, value)`` tuples, most visited first."""
        return list(zip(self.moves, self.actions, self.visits, self.values))[:n]

    def __repr__(self) -> str:
        return ("SearchResult(move=%r, action=%d, visits=%d of %d, value=%.3f, nodes=%d, pv=%s%s)"
                % (self.move, self.action, self.visits[0], self.iterations, self.values[0], self.nodes,
                   " ".join(self.pv_moves) or "-", ", full" if self.full else ""))


def _whole(value, name, low, high, high_text):
    value = as_index(value, "search: " + name + " must be an int, not %s")
    if value < low:
        raise ValueError("search: %s must be %d or more, got %d" % (name, low, value))
    if value > high:
        raise ValueError("search: %s is too large: %d (at most %s)" % (name, value, high_text))
    return value


def _real(value, name):
    if isinstance(value, bool) or not hasattr(type(value), "__float__") or isinstance(value, (str, bytes, complex)):
        raise TypeError("search: %s must be a number, not %s" % (name, type(value).__name__))
    return float(value)


def check_search(state, state_types, iterations, seconds, threads, seed, c, margin, rollouts, policy, candidates,
                 inner_candidates, widen, max_nodes):
    """The arguments of ``search`` checked, in the order of its signature, as both engines check them; returns
    ``(iterations, seconds or None, threads, seed, c, margin, rollouts, light, candidates, inner_candidates,
    widen, max_nodes)``.  ``state_types``: the engine's state classes."""
    if not isinstance(state, state_types):
        raise state_type_error("search: ", state, state_types)
    iterations = _whole(iterations, "iterations", 1, MAX_ITERATIONS, "2**40")
    if seconds is not None:
        seconds = _real(seconds, "seconds")
        if not 0 < seconds < math.inf:
            raise ValueError("search: seconds must be positive and finite, not %r" % (seconds,))
    threads = _whole(threads, "threads", 1, MAX_THREADS, "1024")
    seed = check_seed(seed)
    c = _real(c, "c")
    if not 0 <= c < math.inf:
        raise ValueError("search: c must be 0 or more and finite, not %r" % (c,))
    margin = _real(margin, "margin")
    if not 0 <= margin <= 1:
        raise ValueError("search: margin must be between 0 and 1, not %r" % (margin,))
    rollouts = _whole(rollouts, "rollouts", 1, MAX_ROLLOUTS, "1024")
    light = check_policy(policy)
    candidates = _whole(candidates, "candidates", 0, MAX_NODES_LIMIT, "2**30")
    inner_candidates = _whole(inner_candidates, "inner_candidates", 0, MAX_NODES_LIMIT, "2**30")
    widen = _whole(widen, "widen", 0, MAX_ITERATIONS, "2**40")
    max_nodes = _whole(max_nodes, "max_nodes", 2, MAX_NODES_LIMIT, "2**30")
    if max_nodes < 2 * threads:
        raise ValueError("search: max_nodes must be at least 2 a thread (%d with threads=%d), got %d"
                         % (2 * threads, threads, max_nodes))
    if state.is_over:
        raise ValueError("search: no move to choose once the game is over")
    if state.is_chance_node:
        raise ValueError("search: no move to choose at a chance node")
    return (iterations, seconds, threads, seed, c, margin, rollouts, light, candidates, inner_candidates, widen,
            max_nodes)


def greedy_value(state, action, player):
    """The greedy bot's value of ``action`` (section 2): the player's score if the round ended right after it;
    in Summer Pavilion the score after it plus a point for each tile in hand."""
    after = state.clone()
    after.apply(action)
    if after.variant == "summer-pavilion":
        return after.scores[player] + len(after.hands[player])
    return after.score_if_round_ended()[player]


def utility(scores, winners, margin):
    """Each player's utility (section 4) of final ``scores`` won by ``winners``."""
    share = 1.0 / len(winners)
    out = []
    for p, s in enumerate(scores):
        other = max(x for q, x in enumerate(scores) if q != p)
        edge = min(1.0, max(0.0, 0.5 + (s - other) / (2.0 * EDGE_POINTS)))
        out.append((1.0 - margin) * (share if p in winners else 0.0) + margin * edge)
    return out


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
                 inner):
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


def _ranked(rows):
    """Rows ``(action, visits, total)`` most visited first; ties: the greater mean, then the lower id."""
    return sorted(rows, key=lambda r: (-r[1], -(r[2] / r[1]), r[0]))


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
           policy="light", candidates=5, inner_candidates=5, widen=1000, max_nodes=DEFAULT_MAX_NODES):
    """Choose a move for the player to move in ``state`` by Monte Carlo tree search: a ``SearchResult``.

    The algorithm (open-loop UCT over reseeded copies, the greedy bot's best ``candidates`` moves at the root,
    ``rollouts`` light rollouts a new node, the win/edge utility) and every argument are docs/search.md.  With an
    iteration budget the result is the C++ engine's, field for field, for every thread count; here the
    ``threads`` trees grow one iteration each in turn.  ``state`` is not changed.

    >>> result = search(new_game(2, seed=7), iterations=50, seed=1)
    >>> result.action in new_game(2, seed=7).legal_actions(), sum(result.visits), result.pv[0] == result.action
    (True, 50, True)
    """
    # Imported here, not at the top: the C++ engine imports this module (SearchResult, check_search) and should
    # not load the pure engine with it.  No cycle hides here: tests/test_layout.py counts these imports too.
    from .classic.state import GameState
    from .pavilion.state import PavilionState

    (iterations, seconds, threads, seed, c, margin, rollouts, light, candidates, inner_candidates, widen,
     max_nodes) = check_search(state, (GameState, PavilionState), iterations, seconds, threads, seed, c, margin,
                               rollouts, policy, candidates, inner_candidates, widen, max_nodes)
    start = time.perf_counter()
    state = state.clone()
    rng = SplitMix64(seed)
    legal = state.legal_actions()
    # 2.2: every legal action in key order (the same draws as for the first `candidates` of them)
    root_order = greedy_top(state, legal, len(legal), rng) if 0 < candidates < len(legal) else None
    capacity = max_nodes // threads
    trees = [_Tree(state.players, rng.state if t == 0 else _tree_seed(seed, t), legal, root_order, candidates, widen,
                   capacity, c, margin, rollouts, light, inner_candidates) for t in range(threads)]
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


def _tree_seed(seed, t):
    """The generator state of tree t >= 1 (section 2.1): output t of SplitMix64(seed ^ TREE_SALT)."""
    return splitmix_next(((seed ^ TREE_SALT) + (t - 1) * _GAMMA) & MASK64)[1]
