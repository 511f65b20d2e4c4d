"""Classic and grey-wall Azul, pure-Python engine: random playouts (random_playouts, playouts_from).

C++ twin: native/src/classic/playout.cpp (and the playout kernel, native/src/classic/kernel.cpp).
"""


from .. import common as _common
from ..common import MASK64 as _MASK64, check_seed as _check_seed, splitmix_next as _splitmix_next
from ..pavilion.playout import play_random as _play_random_pavilion
from ..pavilion.state import PavilionState
from .state import GameState, new_game
from .types import FILL, FIRST_PLAYER, FLOOR, OFFER, OVER


_GAMMA = 0x9E3779B97F4A7C15


def _splitmix_output(seed, k):
    """The k-th output (k >= 1) of SplitMix64 seeded with ``seed``."""
    return _splitmix_next((seed + (k - 1) * _GAMMA) & _MASK64)[1]


def _play_random(g, policy, light=False):
    if type(g) is PavilionState:
        return _play_random_pavilion(g, policy, light)
    return _play_random_wall(g, policy, light)


def _play_random_wall(g, policy, light=False):
    """Play ``g`` to its end choosing ``legal_actions()[below(count)]`` with the generator state
    ``policy``; chance nodes of an explicit-chance state are drawn as in sampled mode.  Returns
    the number of moves played.  ``light`` (docs/playouts.md "Rollout policies"): a draft is chosen among
    the legal drafts to a pattern line, the floor only when there is none."""
    if g._explicit:
        g._explicit = False
        if g._phase == FIRST_PLAYER:
            g._start = g._below(g._players)
            g._start_round()
        elif g._phase == FILL:
            g._continue_fill()
    plies = 0
    legal_actions, draft, play = g._legal_actions, g._draft, g._play
    while True:
        phase = g._phase
        if phase == OVER:
            return plies
        legal = legal_actions()
        if light and phase == OFFER:
            lines = [a for a in legal if a % 6 != FLOOR]
            if lines:
                legal = lines
        # splitmix_next, inlined: rules section 5.
        policy = (policy + 0x9E3779B97F4A7C15) & _MASK64
        z = ((policy ^ (policy >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        action = legal[(((z ^ (z >> 31)) >> 32) * len(legal)) >> 32]
        if phase == OFFER:
            draft(action)  # a playout keeps no history of its moves
        else:
            play(action)
        plies += 1


def _check_playouts(n, threads):
    _common.check_count(n, "n", _common.MAX_PLAYOUTS, "2**30")
    _common.check_count(threads, "threads", _common.MAX_THREADS, "1024")


def random_playouts(n, players=2, variant="classic", seed=0, threads=0, *, with_plies=False,
                    policy="uniform"):
    """Final scores of ``n`` games of random legal moves: an int32 array (n, players).

    Game i is ``new_game(players, variant, seed=s1)`` played with move choices
    ``legal_actions()[below(count)]`` from a SplitMix64 generator seeded ``s2``, where s1 and
    s2 are outputs 2i+1 and 2i+2 of SplitMix64(seed): the result depends only on the
    arguments, never on ``threads`` (0: every core; the pure engine always uses one).  With
    ``with_plies=True`` (a keyword, as ``policy``) returns ``(scores, moves played)``.  Limits, checked before any work:
    ``n`` at most 2**30, ``threads`` at most 1024 (ValueError).  ``policy``: ``"uniform"``
    (``legal_actions()[below(count)]``, as above) or ``"light"`` (docs/playouts.md "Rollout policies":
    drafts to a pattern line before the floor; in Summer Pavilion placements before passes).
    """
    import numpy as np

    _check_playouts(n, threads)
    seed = _check_seed(seed)
    new_game(players, variant, 0)  # checks players and variant before any work
    light = _common.check_policy(policy)
    _common.check_bool(with_plies, "with_plies")
    out = np.zeros((n, players), dtype=np.int32)
    plies = 0
    for i in range(n):
        g = new_game(players, variant, _splitmix_output(seed, 2 * i + 1))
        plies += _play_random(g, _splitmix_output(seed, 2 * i + 2), light)
        out[i] = g._score
    return (out, plies) if with_plies else out


def playouts_from(state, n, seed=0, threads=0, *, with_plies=False, policy="uniform"):
    """Final scores (int32 array, n x players) of ``n`` random continuations of ``state`` (an
    MCTS rollout): continuation i replaces the game's generator with output 2i+1 of
    SplitMix64(seed) and chooses moves with output 2i+2, as :func:`random_playouts` does.
    The same limits: ``n`` at most 2**30, ``threads`` at most 1024; the same ``policy``."""
    import numpy as np

    if not isinstance(state, (GameState, PavilionState)):
        raise _common.state_type_error("", state, (GameState, PavilionState))
    _check_playouts(n, threads)
    seed = _check_seed(seed)
    light = _common.check_policy(policy)
    _common.check_bool(with_plies, "with_plies")
    out = np.zeros((n, state._players), dtype=np.int32)
    plies = 0
    for i in range(n):
        g = state.clone()
        g._rng = _splitmix_output(seed, 2 * i + 1)
        plies += _play_random(g, _splitmix_output(seed, 2 * i + 2), light)
        out[i] = g._score
    return (out, plies) if with_plies else out
