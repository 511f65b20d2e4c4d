"""The search bots: ``MCTSBot`` (spec ``mcts``) plays the engine's ``search`` (docs/search.md), ``NetBot`` (spec
``net``) its guided search with a network (docs/network.md), and ``Hint`` is one row of their statistics.
``azul_engine.bots`` re-exports them.

>>> import azul_engine
>>> bot = MCTSBot(seed=1, iterations=200)
>>> state = azul_engine.new_game(players=2, seed=7)
>>> bot.choose(state) in state.legal_actions(), sum(bot.last_visits.values())
(True, 200)
"""

from __future__ import annotations

import math
import os
from types import ModuleType
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

from ._backends import engine_of
from ._backends import SplitMix64
from ._types import State

if TYPE_CHECKING:
    from ._types import SearchResult

__all__ = ["MCTSBot", "NetBot", "Hint", "POLICIES", "engine_of", "interactive_iterations"]

POLICIES = ("uniform", "light")  # rollout policies of playouts_from(..., policy=) and of the search

# The iterations of a search a person waits for (the web app's bot and hint, the terminal game's hint): a few
# hundredths of a second on either engine (the C++ one makes about 100,000 iterations a second, the pure one about
# 300-1000).  An iteration budget, not a time one, so that a bot answers the same after an undo.
INTERACTIVE_ITERATIONS = {"cpp": 5000, "python": 300}
MAX_SECONDS = 365 * 24 * 3600  # a search's time budget, at most (docs/search.md section 7)
DEFAULT_EXACT = 0  # the engines' search(exact=...) default (docs/search.md section 16.1)
MAX_EXACT = 64


def _check_exact(exact: int, bot: str) -> None:
    if isinstance(exact, bool) or not isinstance(exact, int) or not 0 <= exact <= MAX_EXACT:
        raise ValueError("%s: exact must be a whole number from 0 to %d, not %r" % (bot, MAX_EXACT, exact))


def interactive_iterations(engine: ModuleType) -> int:
    """``INTERACTIVE_ITERATIONS`` of an engine module (by its ``NAME``)."""
    return INTERACTIVE_ITERATIONS.get(str(getattr(engine, "NAME", None)), 300)


class Hint:
    """One move of a hint: ``move`` (notation), ``action`` (id), ``visits`` (search iterations through it),
    ``share`` (its part of the search's iterations) and ``value`` (its mean utility for the player to move, 0..1:
    ``1 - margin`` of it the win, ``margin`` the score margin; docs/search.md section 4; the guided search's
    -1..1 values are turned to it, ``(v + 1) / 2``; None without a search, for a network's policy alone)."""

    __slots__ = ("move", "action", "visits", "value", "share")

    def __init__(self, move: str, action: int, visits: int, value: Optional[float],
                 share: Optional[float] = None) -> None:
        self.move, self.action, self.visits, self.value, self.share = move, action, visits, value, share

    def __repr__(self) -> str:
        value = "None" if self.value is None else "%.3f" % self.value
        return "Hint(%r, action=%d, visits=%d, value=%s)" % (self.move, self.action, self.visits, value)

    def as_dict(self) -> Dict[str, Union[str, int, float, None]]:
        out: Dict[str, Union[str, int, float, None]] = {"move": self.move, "action": self.action,
                                                        "visits": self.visits, "value": self.value}
        if self.share is not None:
            out["share"] = self.share
        return out


class MCTSBot:
    """Monte Carlo tree search: the engine's ``search`` (docs/search.md: open-loop UCT over reseeded copies, the
    greedy bot's best ``candidates`` moves at the root (one more at ``widen`` visits and each doubling after) and
    ``inner_candidates`` at the other nodes, ``rollouts`` rollouts a new node with the ``policy``, the win/edge
    utility with ``margin``, exploration ``c``; near a round's end (at most ``exact`` moves left at the root)
    each leaf of the round plays its best line, found exactly, before its rollouts: section 16), in the C++ engine
    without the GIL and on ``threads`` root-parallel trees.

    Budget: ``iterations`` a move, or with ``seconds`` as many as fit in that time (``iterations`` is then
    ignored).  The bot draws each search's seed from its own SplitMix64 generator and carries the generator on
    from search to search (``SearchResult.next_seed``), so with an iteration budget a game is the same in either
    engine, and with ``threads=1, inner_candidates=0, widen=0, exact=0`` the same as the Python ``MCTSBot`` of main
    dfad659 played.  A position with one legal action is answered without search.  Asking for a move at a chance
    node or once the game is over raises ValueError.

    ``last_result``: the ``SearchResult`` of the last ``choose`` (None when it was answered without search);
    ``last_visits``: its ``{action: visits}`` (the policy target of self-play data, ``selfplay``), or None.
    """

    name = "mcts"
    DEFAULT_POLICY = "light"
    DEFAULT_CANDIDATES = 5
    DEFAULT_WIDEN = 1000

    def __init__(self, seed: int = 0, iterations: int = 1000, seconds: Optional[float] = None, c: float = 0.7,
                 margin: float = 0.4, rollouts: int = 4, policy: Optional[str] = None,
                 candidates: int = DEFAULT_CANDIDATES, threads: int = 1, inner_candidates: int = DEFAULT_CANDIDATES,
                 widen: int = DEFAULT_WIDEN, exact: int = DEFAULT_EXACT) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError("mcts: iterations must be a positive integer, not %r" % (iterations,))
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError("mcts: seconds must be positive and at most a year (%d), not %r" % (MAX_SECONDS, seconds))
        if not 0 <= c < math.inf:
            raise ValueError("mcts: c must be 0 or more and finite, not %r" % (c,))
        if not 0 <= margin <= 1:
            raise ValueError("mcts: margin must be between 0 and 1, not %r" % (margin,))
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or not 1 <= rollouts <= 1024:
            raise ValueError("mcts: rollouts must be a whole number from 1 to 1024, not %r" % (rollouts,))
        if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 0:
            raise ValueError("mcts: candidates must be a whole number 0 or more, not %r" % (candidates,))
        if isinstance(inner_candidates, bool) or not isinstance(inner_candidates, int) or inner_candidates < 0:
            raise ValueError("mcts: inner_candidates must be a whole number 0 or more, not %r" % (inner_candidates,))
        if isinstance(widen, bool) or not isinstance(widen, int) or widen < 0:
            raise ValueError("mcts: widen must be a whole number 0 or more, not %r" % (widen,))
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 1024:
            raise ValueError("mcts: threads must be a whole number from 1 to 1024, not %r" % (threads,))
        _check_exact(exact, "mcts")
        if policy is None:
            policy = self.DEFAULT_POLICY
        if policy not in POLICIES:
            raise ValueError("mcts: policy must be one of %s, not %r" % (", ".join(POLICIES), policy))
        self.rng = SplitMix64(seed)
        self.iterations, self.seconds, self.c, self.margin = iterations, seconds, c, margin
        self.rollouts, self.policy, self.candidates, self.threads = rollouts, policy, candidates, threads
        self.inner_candidates, self.widen, self.exact = inner_candidates, widen, exact
        self.last_iterations = 0  # iterations of the last search
        self.last_visits: Optional[Dict[int, int]] = None
        self.last_result: Optional[SearchResult] = None

    def reset(self, seat: int, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def search(self, state: State) -> SearchResult:
        """Search from ``state`` within the bot's budget, drawing on its generator: a ``SearchResult``."""
        if state.is_over or state.is_chance_node:
            raise ValueError("mcts: no move to choose %s" % ("once the game is over" if state.is_over
                                                                else "at a chance node"))
        result: SearchResult = engine_of(state).search(
            state, iterations=self.iterations, seconds=self.seconds, threads=self.threads, seed=self.rng.state,
            c=self.c, margin=self.margin, rollouts=self.rollouts, policy=self.policy, candidates=self.candidates,
            inner_candidates=self.inner_candidates, widen=self.widen, exact=self.exact)
        self.rng.state = result.next_seed
        self.last_iterations = result.iterations
        return result

    def hints(self, state: State, top: int = 3) -> List[Hint]:
        """The ``top`` most visited moves of a search from ``state``: a list of ``Hint`` (see ``bots.hint``)."""
        result = self.search(state)
        return [Hint(move, action, visits, value, visits / result.iterations)
                for move, action, visits, value in result.top(top)]

    def choose(self, state: State) -> int:
        self.last_visits = self.last_result = None
        if state.is_over or state.is_chance_node:
            raise ValueError("mcts: no move to choose %s" % ("once the game is over" if state.is_over
                                                                else "at a chance node"))
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        result = self.last_result = self.search(state)
        self.last_visits = result.visit_counts()
        return result.action


# Each weights file read once a process and engine: (engine name, real path, size, mtime) -> Network.
_NETWORKS: Dict[Tuple[str, str, int, int], Any] = {}


def _load(engine: ModuleType, path: str) -> Any:
    """The network in ``path`` for ``engine`` (cached while the file is unchanged)."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
        key = (str(engine.NAME), real, st.st_size, st.st_mtime_ns)
    except OSError:
        key = None
    if key is not None and key in _NETWORKS:
        return _NETWORKS[key]
    net = engine.load_network(path)
    if key is not None:
        _NETWORKS[key] = net
    return net


class NetBot:
    """The guided search with a network (spec ``net``; docs/network.md): ``search(state, evaluator=network)``
    with ``iterations`` a move (or ``seconds``), ``threads`` root-parallel trees, ``batch`` leaves an evaluation,
    ``c_puct``, ``fpu`` and ``exact`` (docs/search.md section 16); with ``policy_only`` the network's best move alone, without search (the legal move
    of greatest logit, the lowest id on a tie).  ``path`` is a weights file; without one, the network that ships
    for the game's variant and player count (``azul_engine.network.shipped``).  The network is read in the
    state's engine (the C++ engine evaluates it without Python) and checked against the game: a missing or
    malformed file, or one for another variant or player count, is a ValueError or OSError naming the file.

    Like ``MCTSBot`` it carries its generator from search to search, answers a position with one legal move
    without search, and keeps ``last_result`` and ``last_visits`` (the visit counts: self-play's policy target).
    """

    name = "net"

    def __init__(self, seed: int = 0, path: Optional[str] = None, iterations: int = 800,
                 seconds: Optional[float] = None, threads: int = 1, batch: int = 8, c_puct: float = 1.25,
                 fpu: float = 0.25, policy_only: bool = False, exact: int = DEFAULT_EXACT) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError("net: iterations must be a positive integer, not %r" % (iterations,))
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError("net: seconds must be positive and at most a year (%d), not %r" % (MAX_SECONDS, seconds))
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 1024:
            raise ValueError("net: threads must be a whole number from 1 to 1024, not %r" % (threads,))
        if isinstance(batch, bool) or not isinstance(batch, int) or not 1 <= batch <= 4096:
            raise ValueError("net: batch must be a whole number from 1 to 4096, not %r" % (batch,))
        if not 0 <= c_puct < math.inf:
            raise ValueError("net: c_puct must be 0 or more and finite, not %r" % (c_puct,))
        if not -math.inf < fpu < math.inf:
            raise ValueError("net: fpu must be finite, not %r" % (fpu,))
        _check_exact(exact, "net")
        if path is not None:
            path = os.fspath(path)
            if not path:
                raise ValueError("net: path is empty: give a weights file, net:PATH, or no path for the network "
                                 "that ships")
            if not os.path.isfile(path):
                raise ValueError("net: %s: no such weights file" % path)
            from ._backends import ENGINE
            _load(ENGINE, path)  # a malformed file is refused now, naming the file
        self.rng = SplitMix64(seed)
        self.path, self.iterations, self.seconds, self.threads = path, iterations, seconds, threads
        self.batch, self.c_puct, self.fpu, self.policy_only = batch, c_puct, fpu, bool(policy_only)
        self.exact = exact
        self.last_iterations = 0
        self.last_visits: Optional[Dict[int, int]] = None
        self.last_result: Optional[SearchResult] = None

    def reset(self, seat: int, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def _path(self, variant: str, players: int) -> str:
        from .network import shipped_path

        path = self.path if self.path is not None else shipped_path(variant, players)
        if path is None:
            raise ValueError("net: no network ships for %s with %d players; give one: net:PATH" % (variant, players))
        return path

    def check_game(self, variant: str, players: int) -> None:
        """ValueError unless the bot's network plays ``variant`` with ``players`` (before any game)."""
        from ._backends import ENGINE

        path = self._path(variant, players)
        net = _load(ENGINE, path)
        if (net.variant, net.players) != (variant, players):
            raise ValueError("net: the network %s is for %s with %d players, not %s with %d players"
                             % (path, net.variant, net.players, variant, players))

    def network(self, state: State) -> Any:
        """The bot's network in ``state``'s engine, checked against the game (ValueError otherwise)."""
        path = self._path(state.variant, state.players)
        net = _load(engine_of(state), path)
        if (net.variant, net.players) != (state.variant, state.players):
            raise ValueError("net: the network %s is for %s with %d players, not %s with %d players"
                             % (path, net.variant, net.players, state.variant, state.players))
        return net

    def _check(self, state: State) -> None:
        if state.is_over or state.is_chance_node:
            raise ValueError("net: no move to choose %s" % ("once the game is over" if state.is_over
                                                               else "at a chance node"))

    def policy(self, state: State) -> Tuple[List[int], List[float]]:
        """The network's policy in ``state`` without search: the legal actions and their probabilities (a
        softmax of the logits over them)."""
        self._check(state)
        import numpy as np

        net = self.network(state)
        logits, _ = net(state.observation_tensor()[None, :], None)
        legal = state.legal_actions()
        row = logits[0][legal].astype(np.float64)
        e = np.exp(row - row.max())
        return legal, (e / e.sum()).tolist()

    def search(self, state: State) -> SearchResult:
        """The guided search from ``state`` within the bot's budget, drawing on its generator."""
        self._check(state)
        result: SearchResult = engine_of(state).search(
            state, iterations=self.iterations, seconds=self.seconds, threads=self.threads, seed=self.rng.state,
            evaluator=self.network(state), batch=self.batch, c_puct=self.c_puct, fpu=self.fpu, exact=self.exact)
        self.rng.state = result.next_seed
        self.last_iterations = result.iterations
        return result

    def hints(self, state: State, top: int = 3) -> List[Hint]:
        """The ``top`` moves of a search from ``state`` (or, with ``policy_only``, of the network's policy, its
        probability as ``share``, ``visits`` 0 and no value), as ``Hint``; the guided search's values (-1..1)
        as the rollout search's utility, 0..1: ``(v + 1) / 2``."""
        if self.policy_only:
            legal, probs = self.policy(state)
            order = sorted(range(len(legal)), key=lambda i: (-probs[i], legal[i]))[:top]
            return [Hint(state.action_to_string(legal[i]), legal[i], 0, None, probs[i]) for i in order]
        result = self.search(state)
        return [Hint(move, action, visits, (value + 1.0) / 2.0, visits / result.iterations)
                for move, action, visits, value in result.top(top)]

    def choose(self, state: State) -> int:
        self.last_visits = self.last_result = None
        self._check(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.policy_only:
            logits, _ = self.network(state)(state.observation_tensor()[None, :], None)
            row = logits[0]
            return min(legal, key=lambda a: (-float(row[a]), a))
        result = self.last_result = self.search(state)
        self.last_visits = result.visit_counts()
        return result.action
