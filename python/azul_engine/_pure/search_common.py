"""What the two searches share, pure-Python engine: the result both return (docs/search.md section 6), the
utility of a finished game (section 4), the ranking of the root's moves and the trees' seeds (section 2.1).

C++ twin: native/include/azul/common/utility.h (the utility) and native/include/azul/common/search.h (RankRows,
TreeSeed).  ``search.py`` (the rollout search) and ``guided.py`` (the guided search) import them from here.
"""

import dataclasses
import typing

from .common import MASK64, splitmix_next

EDGE_POINTS = 20  # section 4: the score margin mapped from -EDGE_POINTS..+EDGE_POINTS points onto 0..1
TREE_SALT = 0xD1B54A32D192ED03  # section 2: the seeds of trees 1, 2, ...
_GAMMA = 0x9E3779B97F4A7C15


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """What ``search`` found (docs/search.md section 6).  The root actions that were tried come most visited
    first: ``actions[i]`` (its notation ``moves[i]``) was visited ``visits[i]`` times, with mean utility
    ``values[i]`` for ``player`` (0..1 for the rollout search; -1..1 for the guided search, section 11).  The
    guided search also gives ``priors[i]``, the evaluator's prior of ``actions[i]`` at the root (before any
    noise), and ``root_value``, its value of the root for ``player``; the rollout search leaves them ``()`` and
    None.  Equality compares every field but ``seconds``."""

    #: The move chosen: the root action with the most visits in all trees (ties: the greater value, then the lower id).
    action: int
    #: The move chosen, in notation.
    move: str
    #: The player to move at the root.
    player: int
    #: The root actions tried, most visited first.
    actions: typing.Tuple[int, ...]
    #: Their notation, in the same order.
    moves: typing.Tuple[str, ...]
    #: Each root action's visits.
    visits: typing.Tuple[int, ...]
    #: Each root action's mean utility for ``player``.
    values: typing.Tuple[float, ...]
    #: Iterations made, in all trees.
    iterations: int
    #: Tree nodes at the end, in all (the roots included).
    nodes: int
    #: True when the node limit (``max_nodes``) stopped the trees' growth.
    full: bool
    #: The principal variation: the most visited child, again and again, up to the next draw or the end.
    pv: typing.Tuple[int, ...]
    #: The principal variation in notation.
    pv_moves: typing.Tuple[str, ...]
    #: The number of trees (``threads``).
    threads: int
    #: Tree 0's generator state at the end: the seed of a next search that continues the same stream.
    next_seed: int
    #: The time the search took, in seconds (not compared by ``==``).
    seconds: float = dataclasses.field(compare=False)
    #: The guided search's priors of ``actions``, at the root before noise; ``()`` for the rollout search.
    priors: typing.Tuple[float, ...] = ()
    #: The guided search's value of the root for ``player``; None for the rollout search.
    root_value: typing.Optional[float] = None

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


def utility(scores, winners, margin):
    """Each player's utility (section 4) of final ``scores`` won by ``winners``."""
    share = 1.0 / len(winners)
    out = []
    for p, s in enumerate(scores):
        other = max(x for q, x in enumerate(scores) if q != p)
        edge = min(1.0, max(0.0, 0.5 + (s - other) / (2.0 * EDGE_POINTS)))
        out.append((1.0 - margin) * (share if p in winners else 0.0) + margin * edge)
    return out


def ranked(rows):
    """Rows ``(action, visits, total)`` most visited first; ties: the greater mean, then the lower id."""
    return sorted(rows, key=lambda r: (-r[1], -(r[2] / r[1]), r[0]))


def tree_seed(seed, t):
    """The generator state of tree t >= 1 (section 2.1): output t of SplitMix64(seed ^ TREE_SALT)."""
    return splitmix_next(((seed ^ TREE_SALT) + (t - 1) * _GAMMA) & MASK64)[1]
